// Identity providers under the test's control: their own RSA keys behind a JWKS endpoint, so tests
// can mint tokens the identity stand-in never would (expired, other audience, rotated key). One is
// shaped like Keycloak (`startTestIssuer`), one like an Azure AD tenant (`startAzureTestIssuer`).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generatePrivateKeyPem } from '@destiny/devstack/identity';
import jwt from 'jsonwebtoken';

export const TEST_AUDIENCE = 'destiny-repository-client-test';
/** The Azure application id the Azure test tenant's tokens are issued for. */
export const TEST_AZURE_APPLICATION_ID = '0a7e0b1c-2d3e-4f50-8a6b-7c8d9e0f1a2b';

interface TestKey {
  kid: string;
  privateKey: crypto.KeyObject;
  publicKey: crypto.KeyObject;
}

/** Key objects made from PEM, not the generated ones (see `generatePrivateKeyPem`: Node 20 can deadlock on those). */
function newKey(): TestKey {
  const privateKey = crypto.createPrivateKey(generatePrivateKeyPem());
  return { kid: crypto.randomUUID(), privateKey, publicKey: crypto.createPublicKey(privateKey) };
}

export interface TestIssuer {
  issuer: string;
  jwksUrl: string;
  audience: string;
  /** JWKS requests served so far. */
  readonly jwksRequests: number;
  /** While true the JWKS endpoint answers 503. */
  failing: boolean;
  /** A token signed with the current key; `claims` override the defaults (roles go under resource_access). */
  mint(options?: { roles?: string[]; claims?: Record<string, unknown>; expiresInSeconds?: number; key?: 'current' | 'unpublished'; algorithm?: jwt.Algorithm }): string;
  /** Replaces the published key by a new one (a key rotation). */
  rotate(): void;
  stop(): Promise<void>;
}

interface KeyServer {
  base: string;
  readonly jwksRequests: number;
  failing: boolean;
  sign(payload: Record<string, unknown>, options: { key?: 'current' | 'unpublished'; algorithm?: jwt.Algorithm }): string;
  rotate(): void;
  stop(): Promise<void>;
}

/** An HTTP server publishing the current key as a JWKS (at `jwksPath` only, when given). */
async function startKeyServer(jwksPath?: string): Promise<KeyServer> {
  let current = newKey();
  const unpublished = newKey();
  let jwksRequests = 0;
  const state = { failing: false };
  const server = http.createServer((request, response) => {
    if (jwksPath !== undefined && request.url !== jwksPath) {
      response.writeHead(404).end();
      return;
    }
    jwksRequests += 1;
    if (state.failing) {
      response.writeHead(503).end();
      return;
    }
    const jwk = { ...current.publicKey.export({ format: 'jwk' }), kid: current.kid, use: 'sig', alg: 'RS256' };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get jwksRequests() {
      return jwksRequests;
    },
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    sign(payload, options) {
      const key = options.key === 'unpublished' ? unpublished : current;
      // A claim given as undefined is left out of the token (a token without `exp`, say).
      for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
      const algorithm = options.algorithm ?? 'RS256';
      const secret = algorithm.startsWith('HS') ? 'shared-secret' : key.privateKey;
      return jwt.sign(payload, secret, { algorithm, keyid: key.kid });
    },
    rotate() {
      current = newKey();
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An issuer on its key server: `jwksRequests`, `failing`, `rotate` and `stop` are the key server's (inherited, so its accessors stay live). */
type KeyServerShare = 'jwksRequests' | 'failing' | 'rotate' | 'stop';
function onKeyServer<I extends Pick<KeyServer, KeyServerShare>>(keys: KeyServer, own: Omit<I, KeyServerShare>): I {
  return Object.assign(Object.create(keys) as KeyServer, own) as unknown as I;
}

export async function startTestIssuer(): Promise<TestIssuer> {
  const keys = await startKeyServer();
  const issuer = `${keys.base}/realms/test`;
  return onKeyServer<TestIssuer>(keys, {
    issuer,
    jwksUrl: `${issuer}/protocol/openid-connect/certs`,
    audience: TEST_AUDIENCE,
    mint(options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return keys.sign(
        {
          iss: issuer,
          aud: [TEST_AUDIENCE, 'account'],
          sub: 'test-subject',
          iat: now,
          exp: now + (options.expiresInSeconds ?? 300),
          resource_access: { [TEST_AUDIENCE]: { roles: options.roles ?? [] } },
          ...options.claims,
        },
        options,
      );
    },
  });
}

export interface AzureTestIssuer {
  /** What `AZURE_LOGIN_URL` is set to (the tenant's login URL). */
  loginUrl: string;
  /** `{loginUrl}/v2.0`. */
  issuer: string;
  /** `{loginUrl}/discovery/v2.0/keys`, the only path served. */
  jwksUrl: string;
  applicationId: string;
  readonly jwksRequests: number;
  failing: boolean;
  /** A v2.0 access token for the application: `scp` (delegated) and `roles` (application) only when given. */
  mint(options?: { scp?: string; roles?: string[]; claims?: Record<string, unknown>; expiresInSeconds?: number; key?: 'current' | 'unpublished' }): string;
  rotate(): void;
  stop(): Promise<void>;
}

/** A stand-in Azure AD tenant: keys at `/discovery/v2.0/keys`, tokens issued by `{base}/v2.0`. */
export async function startAzureTestIssuer(): Promise<AzureTestIssuer> {
  const keys = await startKeyServer('/discovery/v2.0/keys');
  const issuer = `${keys.base}/v2.0`;
  return onKeyServer<AzureTestIssuer>(keys, {
    loginUrl: keys.base,
    issuer,
    jwksUrl: `${keys.base}/discovery/v2.0/keys`,
    applicationId: TEST_AZURE_APPLICATION_ID,
    mint(options = {}) {
      const now = Math.floor(Date.now() / 1000);
      return keys.sign(
        {
          iss: issuer,
          aud: TEST_AZURE_APPLICATION_ID,
          sub: 'azure-pairwise-subject',
          oid: '5f2b1c3d-0000-4000-8000-00000000a2d1',
          iat: now,
          nbf: now,
          exp: now + (options.expiresInSeconds ?? 300),
          scp: options.scp,
          roles: options.roles,
          ...options.claims,
        },
        options,
      );
    },
  });
}
