// A second identity provider under the test's control: its own RSA keys behind a JWKS endpoint,
// so tests can mint tokens the identity stand-in never would (expired, other audience, rotated key).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generatePrivateKeyPem } from '@destiny/devstack/identity';
import jwt from 'jsonwebtoken';

export const TEST_AUDIENCE = 'destiny-repository-client-test';

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

export async function startTestIssuer(): Promise<TestIssuer> {
  let current = newKey();
  const unpublished = newKey();
  let jwksRequests = 0;
  const state = { failing: false };
  const server = http.createServer((request, response) => {
    jwksRequests += 1;
    if (state.failing) {
      response.writeHead(503).end();
      return;
    }
    const jwk = { ...current.publicKey.export({ format: 'jwk' }), kid: current.kid, use: 'sig', alg: 'RS256' };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}/realms/test`;
  return {
    issuer,
    jwksUrl: `${issuer}/protocol/openid-connect/certs`,
    audience: TEST_AUDIENCE,
    get jwksRequests() {
      return jwksRequests;
    },
    get failing() {
      return state.failing;
    },
    set failing(value: boolean) {
      state.failing = value;
    },
    mint(options = {}) {
      const key = options.key === 'unpublished' ? unpublished : current;
      const now = Math.floor(Date.now() / 1000);
      const payload = {
        iss: issuer,
        aud: [TEST_AUDIENCE, 'account'],
        sub: 'test-subject',
        iat: now,
        exp: now + (options.expiresInSeconds ?? 300),
        resource_access: { [TEST_AUDIENCE]: { roles: options.roles ?? [] } },
        ...options.claims,
      };
      // A claim given as undefined is left out of the token (a token without `exp`, say).
      for (const [name, value] of Object.entries(payload)) if (value === undefined) delete (payload as Record<string, unknown>)[name];
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
