import { DEVELOPMENT_USER, REPOSITORY_CLIENT_ID, ROLES } from './development-realm';
import { isLoopbackRedirect, keycloakAccessTokenClaims } from './provider.configuration';

describe('keycloakAccessTokenClaims', () => {
  test('when the token is for the reader client, then azp names it and the repository client roles hold reference.reader only', () => {
    expect(keycloakAccessTokenClaims({ kind: 'ClientCredentials', clientId: 'reader' })).toEqual({
      azp: 'reader',
      typ: 'Bearer',
      resource_access: { [REPOSITORY_CLIENT_ID]: { roles: ['reference.reader'] } },
    });
  });

  test('when the token is for the developer, then it carries every role and the username', () => {
    expect(keycloakAccessTokenClaims({ kind: 'AccessToken', clientId: 'destiny-auth-client-development', accountId: DEVELOPMENT_USER.id })).toMatchObject({
      azp: 'destiny-auth-client-development',
      preferred_username: 'developer',
      resource_access: { [REPOSITORY_CLIENT_ID]: { roles: [...ROLES] } },
    });
  });

  test('when the client or account is unknown, then no role is granted', () => {
    expect(keycloakAccessTokenClaims({ clientId: 'stranger' }).resource_access).toEqual({ [REPOSITORY_CLIENT_ID]: { roles: [] } });
    expect(keycloakAccessTokenClaims({ clientId: 'admin', accountId: 'someone-else' }).resource_access).toEqual({ [REPOSITORY_CLIENT_ID]: { roles: [] } });
  });
});

describe('isLoopbackRedirect', () => {
  test.each(['http://127.0.0.1:1234/callback', 'http://localhost:9/a/b?c=d', 'http://[::1]:8000/', 'http://127.0.0.1/'])('when the redirect is %s, then it is allowed', (uri) => {
    expect(isLoopbackRedirect(uri)).toBe(true);
  });

  test.each(['https://127.0.0.1:1234/callback', 'http://127.0.0.2/', 'http://localhost.evil.example/', 'http://evil.example/?x=http://127.0.0.1/', 'http://127.0.0.1:1/#fragment', 'not a url'])(
    'when the redirect is %s, then it is refused',
    (uri) => {
      expect(isLoopbackRedirect(uri)).toBe(false);
    },
  );
});
