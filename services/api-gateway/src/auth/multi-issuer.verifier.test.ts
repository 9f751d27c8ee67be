import { ConfigError } from '@destiny/platform';
import { startAzureTestIssuer, startTestIssuer, type AzureTestIssuer, type TestIssuer } from '../../test/support/test-issuer';
import { createBearerVerifier, type AuthSettings } from './auth-provider';
import { AzureTokenVerifier } from './azure-token.verifier';
import { KeycloakTokenVerifier } from './bearer-token.verifier';
import { MultiIssuerVerifier } from './multi-issuer.verifier';

describe('AUTH_PROVIDER and the multi-issuer mode (§4.2, §4.3)', () => {
  let keycloak: TestIssuer;
  let tenant: AzureTestIssuer;
  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: { httpStatus?: number; detail?: unknown }) => ({ status: error.httpStatus, detail: error.detail }));
  const settings = (overrides: Partial<AuthSettings> = {}): AuthSettings => ({
    AUTH_PROVIDER: 'both',
    AUTH_ISSUER: keycloak.issuer,
    AUTH_JWKS_URL: keycloak.jwksUrl,
    AUTH_AUDIENCE: keycloak.audience,
    AZURE_LOGIN_URL: tenant.loginUrl,
    AZURE_APPLICATION_ID: tenant.applicationId,
    ...overrides,
  });
  /** A token in the shape of another Keycloak realm, signed by a key neither provider publishes. */
  const foreign = (iss: unknown) => keycloak.mint({ roles: ['reference.reader'], key: 'unpublished', claims: { iss } });

  beforeAll(async () => {
    [keycloak, tenant] = await Promise.all([startTestIssuer(), startAzureTestIssuer()]);
  });
  afterAll(async () => {
    await Promise.all([keycloak.stop(), tenant.stop()]);
  });

  describe('both', () => {
    it('when the token names the Azure issuer, then the Azure rules decide: scope granted, scope missing (IDW10203)', async () => {
      const both = createBearerVerifier(settings());
      expect(both).toBeInstanceOf(MultiIssuerVerifier);
      await expect(both.verify(tenant.mint({ scp: 'import.writer.all' }), ['import.writer'])).resolves.toMatchObject({ roles: ['import.writer'] });
      expect(await failure(both.verify(tenant.mint({ scp: 'reference.reader.all' }), ['import.writer']))).toEqual({
        status: 403,
        detail: 'IDW10203: The scope permissions (scp) claim does not contain the required scope import.writer.all',
      });
    });

    it('when the token names the Keycloak issuer, then the Keycloak rules decide: client role granted, role missing', async () => {
      const both = createBearerVerifier(settings());
      await expect(both.verify(keycloak.mint({ roles: ['import.writer'] }), ['import.writer'])).resolves.toMatchObject({ subject: 'test-subject', roles: ['import.writer'] });
      expect(await failure(both.verify(keycloak.mint({ roles: ['reference.reader'] }), ['import.writer']))).toEqual({ status: 403, detail: 'The token does not contain the required role.' });
      expect(await failure(both.verify(keycloak.mint({ roles: ['import.writer'], expiresInSeconds: -10 }), ['import.writer']))).toEqual({ status: 401, detail: 'Token is expired.' });
    });

    it('when the token names a third issuer, then 401 "Token issuer is not recognized." without asking either provider for keys', async () => {
      const both = createBearerVerifier(settings());
      const before = [keycloak.jwksRequests, tenant.jwksRequests];
      for (const iss of ['https://login.microsoftonline.com/another-tenant/v2.0', `${keycloak.issuer}-other`, `${tenant.loginUrl}/`, 42]) {
        expect(await failure(both.verify(foreign(iss), ['reference.reader']))).toEqual({ status: 401, detail: 'Token issuer is not recognized.' });
      }
      expect([keycloak.jwksRequests, tenant.jwksRequests]).toEqual(before);
    });

    it('when the token has no issuer claim, then 401 "Token does not contain an issuer claim."; when it is no token, then 401 "Unable to parse authentication token."', async () => {
      const both = createBearerVerifier(settings());
      expect(await failure(both.verify(foreign(undefined), ['reference.reader']))).toEqual({ status: 401, detail: 'Token does not contain an issuer claim.' });
      expect(await failure(both.verify('not-a-token', ['reference.reader']))).toEqual({ status: 401, detail: 'Unable to parse authentication token.' });
    });
  });

  describe('configuration', () => {
    it('when AUTH_PROVIDER is keycloak, then only Keycloak tokens are accepted and the Azure variables are not needed', async () => {
      const only = createBearerVerifier(settings({ AUTH_PROVIDER: 'keycloak', AZURE_LOGIN_URL: '', AZURE_APPLICATION_ID: '' }));
      expect(only).toBeInstanceOf(KeycloakTokenVerifier);
      expect(await failure(only.verify(tenant.mint({ scp: 'reference.reader.all' }), ['reference.reader']))).toEqual({ status: 401, detail: 'Invalid token claims: Invalid issuer' });
    });

    it('when AUTH_PROVIDER is azure, then only Azure tokens are accepted', async () => {
      const only = createBearerVerifier(settings({ AUTH_PROVIDER: 'azure' }));
      expect(only).toBeInstanceOf(AzureTokenVerifier);
      await expect(only.verify(tenant.mint({ roles: ['reference.reader'] }), ['reference.reader'])).resolves.toMatchObject({ roles: ['reference.reader'] });
      expect(await failure(only.verify(keycloak.mint({ roles: ['reference.reader'] }), ['reference.reader']))).toMatchObject({ status: 401, detail: expect.stringMatching(/^Incorrect claims\. /) });
    });

    it.each(['azure', 'both'])('when AUTH_PROVIDER is %s and the Azure variables are missing, then a ConfigError names each of them', (provider) => {
      const attempt = () => createBearerVerifier(settings({ AUTH_PROVIDER: provider, AZURE_LOGIN_URL: '', AZURE_APPLICATION_ID: '' }));
      expect(attempt).toThrow(ConfigError);
      expect(attempt).toThrow(new RegExp(`AZURE_LOGIN_URL is required when AUTH_PROVIDER is ${provider}[\\s\\S]*AZURE_APPLICATION_ID is required when AUTH_PROVIDER is ${provider}`));
      expect(() => createBearerVerifier(settings({ AUTH_PROVIDER: provider, AZURE_APPLICATION_ID: '' }))).toThrow(/^(?![\s\S]*AZURE_LOGIN_URL)[\s\S]*AZURE_APPLICATION_ID is required/);
    });
  });
});
