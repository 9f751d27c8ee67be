import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestIssuer, type TestIssuer } from '../../test/support/test-issuer';
import { KeycloakTokenVerifier } from './bearer-token.verifier';
import { SigningKeyStore } from './signing-key.store';

describe('bearer token verification (§4.2, §4.3)', () => {
  let issuer: TestIssuer;
  let clock: number;
  const verifier = (overrides: { audience?: string; issuer?: string } = {}) =>
    new KeycloakTokenVerifier({
      issuer: overrides.issuer ?? issuer.issuer,
      audience: overrides.audience ?? issuer.audience,
      keys: new SigningKeyStore({ jwksUrl: issuer.jwksUrl, now: () => clock }),
    });
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: { httpStatus?: number; detail?: unknown }) => ({ status: error.httpStatus, detail: error.detail }));

  beforeAll(async () => {
    issuer = await startTestIssuer();
  });
  afterAll(async () => {
    await issuer.stop();
  });
  beforeEach(() => {
    clock = Date.now();
    issuer.failing = false;
  });

  it('when the token is valid, then subject, client roles and token entitlements come back', async () => {
    const token = issuer.mint({ roles: ['reference.reader', 'reference.full_text.reader'], claims: { realm_access: { roles: ['import.writer'] }, scope: 'robot.writer' } });
    await expect(verifier().verify(token)).resolves.toEqual({
      subject: 'test-subject',
      roles: ['reference.reader', 'reference.full_text.reader'],
      entitlements: ['full_text'],
    });
  });

  it('when the token lacks a role the route needs, then 403 "The token does not contain the required role."; with every one, the principal comes back', async () => {
    const token = issuer.mint({ roles: ['reference.reader'], claims: { realm_access: { roles: ['reference.deduplicator'] }, scope: 'reference.deduplicator.all' } });
    expect(await failure(verifier().verify(token, ['reference.reader', 'reference.deduplicator']))).toEqual({ status: 403, detail: 'The token does not contain the required role.' });
    await expect(verifier().verify(token, ['reference.reader'])).resolves.toMatchObject({ roles: ['reference.reader'] });
  });

  it('when the token has expired, then 401 with exactly "Token is expired."', async () => {
    expect(await failure(verifier().verify(issuer.mint({ expiresInSeconds: -60 })))).toEqual({ status: 401, detail: 'Token is expired.' });
  });

  it('when the token carries no exp claim, then 401 Invalid token claims, since it would never expire (§4.2)', async () => {
    const token = issuer.mint({ claims: { exp: undefined } });
    expect(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString())).not.toHaveProperty('exp');
    expect(await failure(verifier().verify(token))).toEqual({ status: 401, detail: 'Invalid token claims: Token is missing the "exp" claim' });
  });

  it('when the audience is another client, then 401 Invalid token claims', async () => {
    expect(await failure(verifier().verify(issuer.mint({ claims: { aud: 'destiny-repository-client-production' } })))).toEqual({
      status: 401,
      detail: 'Invalid token claims: Invalid audience',
    });
  });

  it('when the issuer is another one, then 401 Invalid token claims', async () => {
    expect(await failure(verifier({ issuer: 'https://auth.example.org/realms/destiny' }).verify(issuer.mint()))).toEqual({
      status: 401,
      detail: 'Invalid token claims: Invalid issuer',
    });
  });

  it.each([
    ['garbage', () => 'not-a-token'],
    ['an HS256 token', () => issuer.mint({ algorithm: 'HS256' })],
    ['a token signed by an unpublished key', () => issuer.mint({ key: 'unpublished' })],
    ['a token with a tampered payload', () => {
      const [header, , signature] = issuer.mint().split('.');
      const payload = Buffer.from(JSON.stringify({ iss: issuer.issuer, aud: issuer.audience, exp: 9999999999, resource_access: { [issuer.audience]: { roles: ['administrator'] } } })).toString('base64url');
      return `${header}.${payload}.${signature}`;
    }],
  ])('when the token is %s, then 401 "Unable to parse authentication token."', async (_name, token) => {
    expect(await failure(verifier().verify(token()))).toEqual({ status: 401, detail: 'Unable to parse authentication token.' });
  });

  it.each([
    ['JSON null', 'null'],
    ['not JSON', '{"iss":'],
    ['a JSON array', '[1]'],
  ])('when a token declaring typ JWT has a payload that is %s, then 401 "Unable to parse authentication token." rather than a 500', async (_name, payload) => {
    const [, , signature] = issuer.mint().split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT' })).toString('base64url');
    const token = `${header}.${Buffer.from(payload).toString('base64url')}.${signature}`;
    expect(await failure(verifier().verify(token))).toEqual({ status: 401, detail: 'Unable to parse authentication token.' });
  });

  it('when the JWKS cannot be fetched, then 401 "Unable to fetch signing keys from identity provider."', async () => {
    issuer.failing = true;
    expect(await failure(verifier().verify(issuer.mint()))).toEqual({ status: 401, detail: 'Unable to fetch signing keys from identity provider.' });
  });

  it('when the JWKS keeps failing, then it is fetched at most once per refresh interval', async () => {
    const subject = verifier();
    issuer.failing = true;
    const before = issuer.jwksRequests;
    for (let index = 0; index < 5; index += 1) {
      expect(await failure(subject.verify(issuer.mint()))).toEqual({ status: 401, detail: 'Unable to fetch signing keys from identity provider.' });
    }
    expect(issuer.jwksRequests - before).toBe(1);
    clock += 10_000;
    issuer.failing = false;
    await expect(subject.verify(issuer.mint())).resolves.toMatchObject({ subject: 'test-subject' });
    expect(issuer.jwksRequests - before).toBe(2);
  });

  it('when the day-old key set cannot be refreshed, then tokens signed by a cached key still verify and the refresh is retried later', async () => {
    const subject = verifier();
    await subject.verify(issuer.mint());
    const before = issuer.jwksRequests;
    issuer.failing = true;
    clock += 24 * 60 * 60 * 1000;
    for (let index = 0; index < 3; index += 1) await expect(subject.verify(issuer.mint())).resolves.toMatchObject({ subject: 'test-subject' });
    expect(issuer.jwksRequests - before).toBe(1);
    issuer.failing = false;
    clock += 10_000;
    await subject.verify(issuer.mint());
    await subject.verify(issuer.mint());
    expect(issuer.jwksRequests - before).toBe(2);
  });

  it('when many tokens are verified within a day, then the JWKS is fetched once, and again after 24 hours', async () => {
    const subject = verifier();
    const before = issuer.jwksRequests;
    for (let index = 0; index < 5; index += 1) await subject.verify(issuer.mint());
    expect(issuer.jwksRequests - before).toBe(1);
    clock += 24 * 60 * 60 * 1000;
    await subject.verify(issuer.mint());
    expect(issuer.jwksRequests - before).toBe(2);
  });

  it('when the provider rotates its key, then a token with the new kid triggers one refresh and verifies', async () => {
    const subject = verifier();
    await subject.verify(issuer.mint());
    issuer.rotate();
    clock += 60_000;
    const before = issuer.jwksRequests;
    await expect(subject.verify(issuer.mint({ roles: ['robot.writer'] }))).resolves.toMatchObject({ roles: ['robot.writer'] });
    expect(issuer.jwksRequests - before).toBe(1);
  });

  it('when several requests arrive together before any key set was fetched, then they all wait for the one fetch and verify', async () => {
    const subject = verifier();
    const before = issuer.jwksRequests;
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => failure(subject.verify(issuer.mint()))));
    expect(outcomes).toEqual(Array.from({ length: 5 }, () => undefined));
    expect(issuer.jwksRequests - before).toBe(1);
  });

  it('when several tokens signed by a newly rotated key arrive together, then they all wait for the one refresh and verify', async () => {
    const subject = verifier();
    await subject.verify(issuer.mint());
    issuer.rotate();
    clock += 60_000;
    const before = issuer.jwksRequests;
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => failure(subject.verify(issuer.mint()))));
    expect(outcomes).toEqual(Array.from({ length: 5 }, () => undefined));
    expect(issuer.jwksRequests - before).toBe(1);
  });

  it('when the identity provider answers the key set a byte at a time without end, then the fetch gives up after its timeout with 401 rather than hanging', async () => {
    // Each byte comes well within the timeout, so only a deadline on the whole fetch ends it.
    const dripping = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).write('{"keys":[');
      const drip = setInterval(() => response.write(' '), 50);
      response.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => dripping.listen(0, '127.0.0.1', () => resolve()));
    try {
      const subject = new KeycloakTokenVerifier({
        issuer: issuer.issuer,
        audience: issuer.audience,
        keys: new SigningKeyStore({ jwksUrl: `http://127.0.0.1:${(dripping.address() as AddressInfo).port}/certs`, timeoutMs: 300 }),
      });
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise((resolve) => (timer = setTimeout(() => resolve('still waiting after 3 s'), 3000)));
      const outcome = await Promise.race([failure(subject.verify(issuer.mint())), gaveUp]);
      clearTimeout(timer);
      expect(outcome).toEqual({ status: 401, detail: 'Unable to fetch signing keys from identity provider.' });
    } finally {
      dripping.closeAllConnections();
      await new Promise<void>((resolve) => dripping.close(() => resolve()));
    }
  });

  it('when the identity provider is out of reach, then a token with a key id the cached set lacks answers "Unable to fetch signing keys from identity provider." every time, also while refreshes are held back', async () => {
    const subject = verifier();
    await subject.verify(issuer.mint());
    issuer.failing = true;
    clock += 60_000;
    const before = issuer.jwksRequests;
    for (let index = 0; index < 3; index += 1) {
      expect(await failure(subject.verify(issuer.mint({ key: 'unpublished' })))).toEqual({ status: 401, detail: 'Unable to fetch signing keys from identity provider.' });
    }
    expect(issuer.jwksRequests - before).toBe(1);
    await expect(subject.verify(issuer.mint())).resolves.toMatchObject({ subject: 'test-subject' });
  });

  it('when unknown key ids keep arriving, then refreshes are rate-limited', async () => {
    const subject = verifier();
    await subject.verify(issuer.mint());
    const before = issuer.jwksRequests;
    for (let index = 0; index < 3; index += 1) {
      expect(await failure(subject.verify(issuer.mint({ key: 'unpublished' })))).toEqual({ status: 401, detail: 'Unable to parse authentication token.' });
    }
    expect(issuer.jwksRequests - before).toBe(0);
  });
});
