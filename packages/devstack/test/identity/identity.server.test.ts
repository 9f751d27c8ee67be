import crypto from 'node:crypto';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTH_CLIENT_ID,
  DEVELOPMENT_USER,
  REPOSITORY_CLIENT_ID,
  ROLES,
  startIdentityProcess,
  type RunningIdentityProcess,
} from '@destiny/devstack/identity';
import { BrowserSession } from './browser.session';
import { ensureDevstackBuilt } from './devstack.build';
import { verifyWithJwks, type VerifiedToken } from './token.verification';

let identity: RunningIdentityProcess;

beforeAll(async () => {
  ensureDevstackBuilt();
  identity = await startIdentityProcess();
});

afterAll(async () => {
  await identity?.stop();
});

function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) };
}

async function clientCredentials(clientId: string, secret: string): Promise<Response> {
  return fetch(identity.tokenUrl, form({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret, scope: 'openid' }));
}

async function verified(token: string): Promise<VerifiedToken> {
  const result = await verifyWithJwks(token, { jwksUri: identity.jwksUrl, issuer: identity.issuer, audience: REPOSITORY_CLIENT_ID });
  if (!result.ok) throw new Error(`token rejected: ${result.error.name}: ${result.error.message}`);
  return result;
}

function rolesOf(payload: Record<string, unknown>): unknown {
  return (payload.resource_access as Record<string, { roles: unknown }> | undefined)?.[REPOSITORY_CLIENT_ID]?.roles;
}

describe('discovery and keys', () => {
  test('when the realm discovery document is fetched, then it names the Keycloak realm endpoints', async () => {
    const response = await fetch(`${identity.url}/realms/destiny/.well-known/openid-configuration`);
    expect(response.status).toBe(200);
    const discovery = (await response.json()) as Record<string, unknown>;
    expect(identity.url).toBe(`http://127.0.0.1:${identity.port}`);
    expect(discovery).toMatchObject({
      issuer: `${identity.url}/realms/destiny`,
      jwks_uri: `${identity.url}/realms/destiny/protocol/openid-connect/certs`,
      token_endpoint: `${identity.url}/realms/destiny/protocol/openid-connect/token`,
      authorization_endpoint: `${identity.url}/realms/destiny/protocol/openid-connect/auth`,
      code_challenge_methods_supported: ['S256'],
    });
    expect(discovery.grant_types_supported).toEqual(expect.arrayContaining(['client_credentials', 'authorization_code']));
    expect(identity.issuer).toBe(discovery.issuer);
  });

  test('when the JWKS is fetched, then it publishes one public RS256 signing key and no private parts', async () => {
    const response = await fetch(`${identity.url}/realms/destiny/protocol/openid-connect/certs`);
    expect(response.status).toBe(200);
    const { keys } = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', kid: expect.any(String), n: expect.any(String), e: 'AQAB' });
    expect(keys[0]).not.toHaveProperty('d');
  });

  test('when a path outside the realm is requested, then the answer is 404', async () => {
    expect((await fetch(`${identity.url}/realms/other/.well-known/openid-configuration`)).status).toBe(404);
  });
});

describe('client credentials', () => {
  test('when admin asks for a token, then it gets a Keycloak-shaped RS256 JWT with every role that jwks-rsa + jsonwebtoken accept', async () => {
    const response = await clientCredentials('admin', 'admin-dev-secret');
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, access_token: expect.any(String) });
    expect(body).not.toHaveProperty('refresh_token');
    const { header, payload } = await verified(body.access_token as string);
    expect(header.alg).toBe('RS256');
    expect(payload).toMatchObject({ iss: identity.issuer, azp: 'admin', sub: 'admin' });
    expect([payload.aud].flat()).toContain(REPOSITORY_CLIENT_ID);
    expect((payload.exp as number) - (payload.iat as number)).toBe(2 * 60 * 60);
    expect(rolesOf(payload)).toEqual([...ROLES]);
    expect(rolesOf(payload)).toEqual([
      'reference.reader',
      'reference.full_text.reader',
      'reference.deduplicator',
      'enhancement_request.writer',
      'robot.writer',
      'robot.entitlement.writer',
      'import.writer',
      'administrator',
    ]);
  });

  test('when reader asks for a token, then it carries reference.reader only', async () => {
    const response = await clientCredentials('reader', 'reader-dev-secret');
    expect(response.status).toBe(200);
    const { payload } = await verified(((await response.json()) as { access_token: string }).access_token);
    expect(payload.azp).toBe('reader');
    expect(rolesOf(payload)).toEqual(['reference.reader']);
  });

  test('when the secret is sent with HTTP Basic instead of the form, then a token is issued too', async () => {
    const response = await fetch(identity.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('reader:reader-dev-secret').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    });
    expect(response.status).toBe(200);
    await verified(((await response.json()) as { access_token: string }).access_token);
  });

  test('when the secret is wrong, then the answer is 401 invalid_client', async () => {
    const response = await clientCredentials('admin', 'not-the-secret');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  test('when the client is unknown, then the answer is 401 invalid_client', async () => {
    const response = await clientCredentials('nobody', 'whatever');
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  test('when the grant type is missing or unsupported, then the answer is a 400 OAuth error, and the server keeps serving', async () => {
    const missing = await fetch(identity.tokenUrl, form({ client_id: 'admin', client_secret: 'admin-dev-secret' }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
    const unsupported = await fetch(identity.tokenUrl, form({ grant_type: 'password', client_id: 'admin', client_secret: 'admin-dev-secret', username: 'developer', password: 'developer' }));
    expect(unsupported.status).toBe(400);
    expect(await unsupported.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const garbage = await fetch(identity.tokenUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' });
    expect(garbage.status).toBe(400);
    expect((await clientCredentials('admin', 'admin-dev-secret')).status).toBe(200);
  });

  test('when a token is asked for another resource, then the answer is invalid_target', async () => {
    const response = await fetch(identity.tokenUrl, form({ grant_type: 'client_credentials', client_id: 'admin', client_secret: 'admin-dev-secret', resource: 'https://elsewhere.example/' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_target' });
  });
});

describe('authorization code with PKCE', () => {
  const redirectUri = 'http://127.0.0.1:49152/callback';

  function pkcePair(): { verifier: string; challenge: string } {
    const verifier = crypto.randomBytes(32).toString('base64url');
    return { verifier, challenge: crypto.createHash('sha256').update(verifier).digest('base64url') };
  }

  function authorizationUrl(parameters: Record<string, string>): string {
    const url = new URL(identity.authorizationUrl);
    const defaults = { client_id: AUTH_CLIENT_ID, response_type: 'code', scope: 'openid profile email', redirect_uri: redirectUri, state: crypto.randomUUID() };
    for (const [key, value] of Object.entries({ ...defaults, ...parameters })) url.searchParams.set(key, value);
    return url.href;
  }

  async function loginForm(browser: BrowserSession, url: string): Promise<{ action: string; html: string }> {
    const page = await browser.follow(url);
    expect(page.response?.status).toBe(200);
    const html = await page.response!.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    expect(action).toBeDefined();
    return { action: new URL(action!.replace(/&#38;/g, '&'), identity.url).href, html };
  }

  test('when the developer signs in through the login form, then the code exchanges for a token with every role', async () => {
    const browser = new BrowserSession();
    const { verifier, challenge } = pkcePair();
    const state = crypto.randomUUID();
    const { action, html } = await loginForm(browser, authorizationUrl({ code_challenge: challenge, code_challenge_method: 'S256', state }));
    expect(html).toContain('name="username"');
    expect(html).toContain('name="password"');

    const wrong = await browser.request(action, form({ username: 'developer', password: 'wrong' }));
    expect(wrong.status).toBe(200);
    expect(await wrong.text()).toContain('Invalid username or password.');

    const landing = await browser.follow(action, form({ username: 'developer', password: 'developer' }), identity.url);
    expect(landing.response).toBeUndefined();
    const callback = new URL(landing.url);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('state')).toBe(state);
    expect(callback.searchParams.get('iss')).toBe(identity.issuer);
    const code = callback.searchParams.get('code');
    expect(code).toEqual(expect.any(String));

    const wrongVerifier = await fetch(identity.tokenUrl, form({ grant_type: 'authorization_code', client_id: AUTH_CLIENT_ID, code: code!, redirect_uri: redirectUri, code_verifier: pkcePair().verifier }));
    expect(wrongVerifier.status).toBe(400);
    expect(await wrongVerifier.json()).toMatchObject({ error: 'invalid_grant' });

    // The signed-in session is reused: authorizing again redirects straight back with a fresh code.
    const again = await browser.follow(authorizationUrl({ code_challenge: challenge, code_challenge_method: 'S256', state }));
    expect(again.response).toBeUndefined();
    const freshCode = new URL(again.url).searchParams.get('code')!;
    const exchange = await fetch(identity.tokenUrl, form({ grant_type: 'authorization_code', client_id: AUTH_CLIENT_ID, code: freshCode, redirect_uri: redirectUri, code_verifier: verifier }));
    expect(exchange.status).toBe(200);
    const tokens = (await exchange.json()) as Record<string, unknown>;
    expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, id_token: expect.any(String) });
    const { payload } = await verified(tokens.access_token as string);
    expect(payload).toMatchObject({ iss: identity.issuer, sub: DEVELOPMENT_USER.id, azp: AUTH_CLIENT_ID, preferred_username: 'developer' });
    expect((payload.exp as number) - (payload.iat as number)).toBe(ACCESS_TOKEN_TTL_SECONDS);
    expect(rolesOf(payload)).toEqual([...ROLES]);

    expect(tokens.refresh_token).toEqual(expect.any(String));
    const refreshed = await fetch(identity.tokenUrl, form({ grant_type: 'refresh_token', client_id: AUTH_CLIENT_ID, refresh_token: tokens.refresh_token as string }));
    expect(refreshed.status).toBe(200);
    const renewed = await verified(((await refreshed.json()) as { access_token: string }).access_token);
    expect(renewed.payload).toMatchObject({ sub: DEVELOPMENT_USER.id, azp: AUTH_CLIENT_ID });
    expect(rolesOf(renewed.payload)).toEqual([...ROLES]);
  });

  test('when the redirect goes to any loopback port and path, then it is accepted, localhost included', async () => {
    const browser = new BrowserSession();
    const { challenge } = pkcePair();
    const { action } = await loginForm(browser, authorizationUrl({ code_challenge: challenge, code_challenge_method: 'S256', redirect_uri: 'http://localhost:8765/some/where' }));
    const landing = await browser.follow(action, form({ username: 'developer', password: 'developer' }), identity.url);
    expect(landing.url).toMatch(/^http:\/\/localhost:8765\/some\/where\?/);
    expect(new URL(landing.url).searchParams.get('code')).toEqual(expect.any(String));
  });

  test('when the redirect is not a loopback address, then the request is refused without redirecting', async () => {
    const { challenge } = pkcePair();
    const response = await fetch(authorizationUrl({ code_challenge: challenge, code_challenge_method: 'S256', redirect_uri: 'http://evil.example/callback' }), { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('redirect_uri');
  });

  test('when the challenge method is plain, then the request is refused with invalid_request', async () => {
    const { verifier } = pkcePair();
    const landing = await new BrowserSession().follow(authorizationUrl({ code_challenge: verifier, code_challenge_method: 'plain' }));
    const callback = new URL(landing.url);
    expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('error_description')).toMatch(/code_challenge_method/);
    expect(callback.searchParams.get('code')).toBeNull();
  });

  test('when no code challenge is sent, then PKCE is demanded', async () => {
    const landing = await new BrowserSession().follow(authorizationUrl({}));
    const callback = new URL(landing.url);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  test('when a login page is opened without its interaction cookie, then an error page is shown, not a crash', async () => {
    const browser = new BrowserSession();
    const { challenge } = pkcePair();
    const { action } = await loginForm(browser, authorizationUrl({ code_challenge: challenge, code_challenge_method: 'S256' }));
    const stranger = await fetch(action, form({ username: 'developer', password: 'developer' }));
    expect(stranger.status).toBe(400);
    expect(await stranger.text()).toContain('timed out');
    expect((await fetch(identity.discoveryUrl)).status).toBe(200);
  });
});
