// oidc-provider configuration that makes the embedded provider look like the production Keycloak
// realm: Keycloak's endpoint paths, RS256 JWT access tokens for the repository client (audience,
// two-hour expiry, client roles under `resource_access`), client credentials for services and
// authorization code + PKCE (S256) for people.
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTH_CLIENT_ID,
  AUTH_CLIENT_SCOPES,
  DEVELOPMENT_CLIENTS,
  DEVELOPMENT_USER,
  PROTOCOL_PATH,
  REPOSITORY_CLIENT_ID,
  type Role,
  rolesOfClient,
} from './development-realm';
import { errorPage, loggedOutPage, logoutPage } from './login.pages';
import { type RsaSigningJwk } from './signing-key.store';

/**
 * Resource indicator the repository's tokens are issued for. Clients never send it (Keycloak has
 * no resource parameter); it is the default, and it is what turns access tokens into JWTs.
 */
export const REPOSITORY_RESOURCE = 'urn:destiny:repository';

export interface TokenLike {
  kind?: string;
  clientId?: string;
  accountId?: string;
}

/** Keycloak's claims for an access token: `azp`, `typ` and the client roles of the repository. */
export function keycloakAccessTokenClaims(token: TokenLike): Record<string, unknown> {
  const clientId = token.clientId ?? '';
  const person = token.accountId !== undefined;
  const roles: readonly Role[] = person ? (token.accountId === DEVELOPMENT_USER.id ? DEVELOPMENT_USER.roles : []) : rolesOfClient(clientId);
  return {
    azp: clientId,
    typ: 'Bearer',
    ...(person && token.accountId === DEVELOPMENT_USER.id ? { preferred_username: DEVELOPMENT_USER.username, email: DEVELOPMENT_USER.email } : {}),
    resource_access: { [REPOSITORY_CLIENT_ID]: { roles: [...roles] } },
  };
}

/** Claims of the development user for ID tokens and userinfo, by scope. */
export function developmentUserClaims(): Record<string, unknown> {
  const [givenName, ...rest] = DEVELOPMENT_USER.name.split(' ');
  return {
    sub: DEVELOPMENT_USER.id,
    preferred_username: DEVELOPMENT_USER.username,
    name: DEVELOPMENT_USER.name,
    given_name: givenName,
    family_name: rest.join(' '),
    email: DEVELOPMENT_USER.email,
    email_verified: true,
  };
}

/** Keycloak accepts any loopback redirect for a development client; so do we (RFC 8252 §7.3). */
export function isLoopbackRedirect(value: string): boolean {
  const url = URL.parse(value);
  if (!url || url.protocol !== 'http:' || url.hash) return false;
  return url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
}

function isLoopbackOrigin(origin: string): boolean {
  return isLoopbackRedirect(`${origin}/`);
}

interface ContextLike {
  body: unknown;
  type: string;
  oidc: { client?: { clientId: string; clientAuthMethod: string } };
}

export interface ProviderConfigurationOptions {
  signingKey: RsaSigningJwk;
  /** Keys for oidc-provider's signed cookies. */
  cookieKeys: string[];
  /** oidc-provider's storage adapter (its in-memory one: sessions need not outlive the process). */
  adapter: unknown;
  /** Builds the OAuth `invalid_target` error for a resource other than the repository. */
  invalidTarget: (description: string) => Error;
  /** Path (from the server root) of the login interaction for `uid`. */
  interactionPath: (uid: string) => string;
}

export function buildProviderConfiguration(options: ProviderConfigurationOptions): Record<string, unknown> {
  const resourceServer = {
    scope: AUTH_CLIENT_SCOPES,
    audience: REPOSITORY_CLIENT_ID,
    accessTokenFormat: 'jwt',
    accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
    jwt: { sign: { alg: 'RS256' } },
  };
  return {
    adapter: options.adapter,
    jwks: { keys: [options.signingKey] },
    cookies: { keys: options.cookieKeys },
    clients: [
      ...Object.values(DEVELOPMENT_CLIENTS).map((client) => ({
        client_id: client.clientId,
        client_secret: client.secret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_post',
      })),
      {
        client_id: AUTH_CLIENT_ID,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: ['http://127.0.0.1/', 'http://localhost/'],
        post_logout_redirect_uris: ['http://127.0.0.1/', 'http://localhost/'],
        scope: `${AUTH_CLIENT_SCOPES} offline_access`,
      },
    ],
    claims: {
      openid: ['sub'],
      profile: ['name', 'given_name', 'family_name', 'preferred_username'],
      email: ['email', 'email_verified'],
    },
    scopes: ['openid', 'offline_access', 'profile', 'email'],
    async findAccount(_context: unknown, sub: string) {
      if (sub !== DEVELOPMENT_USER.id) return undefined;
      return { accountId: sub, claims: () => developmentUserClaims() };
    },
    extraTokenClaims: (_context: unknown, token: TokenLike) => (token.kind === 'AccessToken' || token.kind === 'ClientCredentials' ? keycloakAccessTokenClaims(token) : undefined),
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      userinfo: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => REPOSITORY_RESOURCE,
        useGrantedResource: () => true,
        getResourceServerInfo: (_context: unknown, resource: string) => {
          if (resource !== REPOSITORY_RESOURCE) throw options.invalidTarget(`unknown resource ${resource}`);
          return resourceServer;
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (context: ContextLike, form: string) => {
          context.type = 'html';
          context.body = logoutPage(form);
        },
        postLogoutSuccessSource: (context: ContextLike) => {
          context.type = 'html';
          context.body = loggedOutPage();
        },
      },
    },
    pkce: { required: () => true },
    // Keycloak hands people a refresh token with every code exchange, not only for offline_access.
    issueRefreshToken: (_context: unknown, client: { grantTypeAllowed(type: string): boolean }) => client.grantTypeAllowed('refresh_token'),
    routes: {
      authorization: `${PROTOCOL_PATH}/auth`,
      token: `${PROTOCOL_PATH}/token`,
      jwks: `${PROTOCOL_PATH}/certs`,
      userinfo: `${PROTOCOL_PATH}/userinfo`,
      end_session: `${PROTOCOL_PATH}/logout`,
      revocation: `${PROTOCOL_PATH}/revoke`,
      introspection: `${PROTOCOL_PATH}/token/introspect`,
      pushed_authorization_request: `${PROTOCOL_PATH}/ext/par/request`,
    },
    interactions: { url: (_context: unknown, interaction: { uid: string }) => options.interactionPath(interaction.uid) },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      ClientCredentials: ACCESS_TOKEN_TTL_SECONDS,
      IdToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      RefreshToken: 24 * 60 * 60,
      Interaction: 60 * 60,
      Session: 10 * 60 * 60,
      Grant: 10 * 60 * 60,
    },
    clientBasedCORS: (_context: unknown, origin: string, client: { clientAuthMethod: string }) => client.clientAuthMethod === 'none' && isLoopbackOrigin(origin),
    renderError: (context: ContextLike, out: { error?: string; error_description?: string }) => {
      context.type = 'html';
      context.body = errorPage(out.error ?? 'error', out.error_description ?? 'The request could not be completed.');
    },
  };
}
