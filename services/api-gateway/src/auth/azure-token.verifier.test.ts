import { startAzureTestIssuer, type AzureTestIssuer } from '../../test/support/test-issuer';
import { AzureTokenVerifier } from './azure-token.verifier';
import { SigningKeyStore } from './signing-key.store';

describe('Azure AD bearer token verification (§4.2, §4.3)', () => {
  let tenant: AzureTestIssuer;
  let clock: number;
  const verifier = (overrides: { applicationId?: string; loginUrl?: string } = {}) =>
    new AzureTokenVerifier({ loginUrl: overrides.loginUrl ?? tenant.loginUrl, applicationId: overrides.applicationId ?? tenant.applicationId, keyStoreOptions: { now: () => clock } });
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: { httpStatus?: number; detail?: unknown }) => ({ status: error.httpStatus, detail: error.detail }));
  const incorrectClaims = (got: { aud: string; iss: string }) => `Incorrect claims. Expected aud=${tenant.applicationId}, got=${got.aud}. Expected iss=${tenant.issuer}, got=${got.iss}`;

  beforeAll(async () => {
    tenant = await startAzureTestIssuer();
  });
  afterAll(async () => {
    await tenant.stop();
  });
  beforeEach(() => {
    clock = Date.now();
    tenant.failing = false;
  });

  it('when the login URL is given, then the issuer is {login_url}/v2.0 and keys come from {login_url}/discovery/v2.0/keys', async () => {
    const subject = verifier({ loginUrl: `${tenant.loginUrl}/` });
    expect(subject.issuer).toBe(tenant.issuer);
    const before = tenant.jwksRequests;
    await expect(subject.verify(tenant.mint({ scp: 'reference.reader.all' }), ['reference.reader'])).resolves.toMatchObject({ roles: ['reference.reader'] });
    expect(tenant.jwksRequests - before).toBe(1);
  });

  describe('delegated (user) tokens: scp', () => {
    it('when scp holds the route role\'s .all scope, then the principal comes back with the roles and entitlements its scopes grant', async () => {
      const token = tenant.mint({ scp: 'reference.reader.all reference.full_text.reader.all robot.entitlement.writer.all' });
      await expect(verifier().verify(token, ['reference.reader'])).resolves.toEqual({
        subject: '5f2b1c3d-0000-4000-8000-00000000a2d1',
        roles: ['reference.reader', 'reference.full_text.reader', 'robot.entitlement.writer'],
        entitlements: ['full_text', 'robot_entitlement_writer'],
      });
    });

    it('when scp lacks the route role\'s .all scope, then 403 IDW10203 naming that scope, even if roles holds the role', async () => {
      const token = tenant.mint({ scp: 'reference.reader.all', roles: ['import.writer'] });
      expect(await failure(verifier().verify(token, ['import.writer']))).toEqual({ status: 403, detail: 'IDW10203: The scope permissions (scp) claim does not contain the required scope import.writer.all' });
    });

    it('when scp holds the bare role name instead of its .all scope, then 403 IDW10203', async () => {
      expect(await failure(verifier().verify(tenant.mint({ scp: 'robot.writer' }), ['robot.writer']))).toEqual({
        status: 403,
        detail: 'IDW10203: The scope permissions (scp) claim does not contain the required scope robot.writer.all',
      });
    });

    it('when a route needs two roles, then each is checked in order and the first missing scope is named', async () => {
      const required = ['reference.reader', 'reference.deduplicator'];
      expect(await failure(verifier().verify(tenant.mint({ scp: 'reference.deduplicator.all' }), required))).toEqual({
        status: 403,
        detail: 'IDW10203: The scope permissions (scp) claim does not contain the required scope reference.reader.all',
      });
      expect(await failure(verifier().verify(tenant.mint({ scp: 'reference.reader.all' }), required))).toEqual({
        status: 403,
        detail: 'IDW10203: The scope permissions (scp) claim does not contain the required scope reference.deduplicator.all',
      });
      await expect(verifier().verify(tenant.mint({ scp: 'reference.deduplicator.all reference.reader.all' }), required)).resolves.toMatchObject({ roles: ['reference.reader', 'reference.deduplicator'] });
    });
  });

  describe('application tokens: roles', () => {
    it('when roles holds the route role, then the principal carries those roles and their entitlements', async () => {
      await expect(verifier().verify(tenant.mint({ roles: ['enhancement_request.writer', 'reference.full_text.reader'] }), ['enhancement_request.writer'])).resolves.toEqual({
        subject: '5f2b1c3d-0000-4000-8000-00000000a2d1',
        roles: ['enhancement_request.writer', 'reference.full_text.reader'],
        entitlements: ['full_text'],
      });
    });

    it('when roles lacks the route role, then 403 IDW10203 naming the role', async () => {
      expect(await failure(verifier().verify(tenant.mint({ roles: ['reference.reader'] }), ['administrator']))).toEqual({
        status: 403,
        detail: 'IDW10203: The role permissions (roles) claim does not contain the required role administrator',
      });
    });
  });

  it.each([
    ['neither claim', {}],
    ['an empty scp and empty roles', { scp: '', roles: [] }],
  ])('when the token has %s, then 403 IDW10201', async (_name, claims) => {
    expect(await failure(verifier().verify(tenant.mint(claims), ['reference.reader']))).toEqual({ status: 403, detail: 'IDW10201: Neither scope or roles claim was found in the bearer token.' });
  });

  it('when the audience is another application, then 401 Incorrect claims with what was expected and what came', async () => {
    const token = tenant.mint({ scp: 'reference.reader.all', claims: { aud: 'another-application' } });
    expect(await failure(verifier().verify(token, ['reference.reader']))).toEqual({ status: 401, detail: incorrectClaims({ aud: 'another-application', iss: tenant.issuer }) });
    const several = tenant.mint({ scp: 'reference.reader.all', claims: { aud: ['another-application', 'a-third'] } });
    expect(await failure(verifier().verify(several, ['reference.reader']))).toEqual({ status: 401, detail: incorrectClaims({ aud: "['another-application', 'a-third']", iss: tenant.issuer }) });
  });

  it('when the issuer is another tenant, then 401 Incorrect claims, without fetching keys', async () => {
    const subject = verifier();
    const before = tenant.jwksRequests;
    const otherIssuer = 'https://login.microsoftonline.com/another-tenant/v2.0';
    expect(await failure(subject.verify(tenant.mint({ scp: 'reference.reader.all', claims: { iss: otherIssuer } }), ['reference.reader']))).toEqual({
      status: 401,
      detail: incorrectClaims({ aud: tenant.applicationId, iss: otherIssuer }),
    });
    expect(tenant.jwksRequests - before).toBe(0);
  });

  it('when the token has expired, then 401 with exactly "Token is expired."', async () => {
    expect(await failure(verifier().verify(tenant.mint({ scp: 'reference.reader.all', expiresInSeconds: -60 }), ['reference.reader']))).toEqual({ status: 401, detail: 'Token is expired.' });
  });

  it('when the token carries no exp claim, then 401 "Unable to parse authentication token.", since it would never expire', async () => {
    expect(await failure(verifier().verify(tenant.mint({ scp: 'reference.reader.all', claims: { exp: undefined } }), ['reference.reader']))).toEqual({ status: 401, detail: 'Unable to parse authentication token.' });
  });

  it('when no published key has the token\'s kid, then 401 "Unable to find appropriate key."', async () => {
    expect(await failure(verifier().verify(tenant.mint({ scp: 'reference.reader.all', key: 'unpublished' }), ['reference.reader']))).toEqual({ status: 401, detail: 'Unable to find appropriate key.' });
  });

  it('when the token is garbage or its payload was tampered with, then 401 "Unable to parse authentication token."', async () => {
    expect(await failure(verifier().verify('not-a-token', ['reference.reader']))).toEqual({ status: 401, detail: 'Unable to parse authentication token.' });
    const [header, , signature] = tenant.mint({ scp: 'reference.reader.all' }).split('.');
    const payload = Buffer.from(JSON.stringify({ iss: tenant.issuer, aud: tenant.applicationId, exp: 9999999999, scp: 'administrator.all' })).toString('base64url');
    expect(await failure(verifier().verify(`${header}.${payload}.${signature}`, ['administrator']))).toEqual({ status: 401, detail: 'Unable to parse authentication token.' });
  });

  it('when the tenant rotates its key, then the new kid triggers one refresh; the key set is otherwise cached and refreshes are rate-limited', async () => {
    const keys = new SigningKeyStore({ jwksUrl: tenant.jwksUrl, now: () => clock });
    const subject = new AzureTokenVerifier({ loginUrl: tenant.loginUrl, applicationId: tenant.applicationId, keys });
    const before = tenant.jwksRequests;
    for (let index = 0; index < 3; index += 1) await subject.verify(tenant.mint({ roles: ['robot.writer'] }), ['robot.writer']);
    expect(tenant.jwksRequests - before).toBe(1);
    for (let index = 0; index < 3; index += 1) expect(await failure(subject.verify(tenant.mint({ roles: ['robot.writer'], key: 'unpublished' }), ['robot.writer']))).toMatchObject({ status: 401 });
    expect(tenant.jwksRequests - before).toBe(1);
    tenant.rotate();
    clock += 60_000;
    await expect(subject.verify(tenant.mint({ roles: ['robot.writer'] }), ['robot.writer'])).resolves.toMatchObject({ roles: ['robot.writer'] });
    expect(tenant.jwksRequests - before).toBe(2);
  });

  it('when the tenant\'s key set cannot be fetched, then 401 "Unable to fetch signing keys from identity provider."', async () => {
    tenant.failing = true;
    expect(await failure(verifier().verify(tenant.mint({ scp: 'reference.reader.all' }), ['reference.reader']))).toEqual({ status: 401, detail: 'Unable to fetch signing keys from identity provider.' });
  });
});
