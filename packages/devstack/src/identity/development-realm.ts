// The development realm served by the embedded identity provider. It mirrors the production
// Keycloak realm (paths, issuer, audience, client-role layout) so the API gateway is configured
// the same way against either. Plain data only: importing this loads no OIDC library.

export const REALM = 'destiny';

/** The repository's own client id: tokens carry it in `aud` and their roles under it. */
export const REPOSITORY_CLIENT_ID = 'destiny-repository-client-development';

/** The public client people log in with (authorization code + PKCE, loopback redirects). */
export const AUTH_CLIENT_ID = 'destiny-auth-client-development';
export const AUTH_CLIENT_SCOPES = 'openid profile email';

/** Permission roles (contract §4.1), found at `resource_access[REPOSITORY_CLIENT_ID].roles`. */
export const ROLES = [
  'reference.reader',
  'reference.full_text.reader',
  'reference.deduplicator',
  'enhancement_request.writer',
  'robot.writer',
  'robot.entitlement.writer',
  'import.writer',
  'administrator',
] as const;
export type Role = (typeof ROLES)[number];

export const ACCESS_TOKEN_TTL_SECONDS = 2 * 60 * 60;

/** Where the launcher runs the identity server, and so where `npm run token` looks first. */
export const DEFAULT_IDENTITY_PORT = 8180;
export const DEFAULT_IDENTITY_URL = `http://127.0.0.1:${DEFAULT_IDENTITY_PORT}`;

export interface DevelopmentClient {
  readonly clientId: string;
  /** A development secret, published on purpose: never use these outside a laptop or CI. */
  readonly secret: string;
  readonly roles: readonly Role[];
}

/** Confidential clients for services and scripts (client-credentials grant). */
export const DEVELOPMENT_CLIENTS = {
  admin: { clientId: 'admin', secret: 'admin-dev-secret', roles: ROLES },
  reader: { clientId: 'reader', secret: 'reader-dev-secret', roles: ['reference.reader'] },
} as const satisfies Record<string, DevelopmentClient>;
export type DevelopmentClientName = keyof typeof DEVELOPMENT_CLIENTS;

export const ADMIN_CLIENT_SECRET = DEVELOPMENT_CLIENTS.admin.secret;
export const READER_CLIENT_SECRET = DEVELOPMENT_CLIENTS.reader.secret;

export interface DevelopmentUser {
  /** The `sub` of the user's tokens; a fixed UUID like Keycloak's user ids. */
  readonly id: string;
  readonly username: string;
  readonly password: string;
  readonly email: string;
  readonly name: string;
  readonly roles: readonly Role[];
}

export const DEVELOPMENT_USER: DevelopmentUser = {
  id: '0e6d9f4c-3c1a-4b9e-9d5e-6a1f2b3c4d5e',
  username: 'developer',
  password: 'developer',
  email: 'developer@destiny.invalid',
  name: 'Destiny Developer',
  roles: ROLES,
};

/** Paths under the server root, exactly as Keycloak lays out a realm. */
export const REALM_PATH = `/realms/${REALM}`;
export const PROTOCOL_PATH = '/protocol/openid-connect';

export interface RealmUrls {
  readonly issuer: string;
  readonly discoveryUrl: string;
  readonly jwksUrl: string;
  readonly tokenUrl: string;
  readonly authorizationUrl: string;
  readonly userinfoUrl: string;
  readonly logoutUrl: string;
}

/** The realm's endpoints for an identity server at `baseUrl` (e.g. `http://127.0.0.1:8180`). */
export function realmUrls(baseUrl: string): RealmUrls {
  const issuer = `${baseUrl.replace(/\/+$/, '')}${REALM_PATH}`;
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    jwksUrl: `${issuer}${PROTOCOL_PATH}/certs`,
    tokenUrl: `${issuer}${PROTOCOL_PATH}/token`,
    authorizationUrl: `${issuer}${PROTOCOL_PATH}/auth`,
    userinfoUrl: `${issuer}${PROTOCOL_PATH}/userinfo`,
    logoutUrl: `${issuer}${PROTOCOL_PATH}/logout`,
  };
}

/** Everything a service needs to trust, or get tokens from, an identity server at `baseUrl`. */
export interface IdentityEndpoints extends RealmUrls {
  /** `http://127.0.0.1:<port>`: the server root. */
  readonly url: string;
  readonly port: number;
  /** The repository client id every access token names in `aud`. */
  readonly audience: string;
  /** Development clients: confidential ones by name (with secrets) and the public login client. */
  readonly clients: {
    readonly admin: { readonly clientId: string; readonly secret: string };
    readonly reader: { readonly clientId: string; readonly secret: string };
    readonly auth: { readonly clientId: string };
  };
}

export function identityEndpoints(baseUrl: string): IdentityEndpoints {
  const url = baseUrl.replace(/\/+$/, '');
  const parsed = new URL(url);
  return {
    ...realmUrls(url),
    url,
    port: Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80)),
    audience: REPOSITORY_CLIENT_ID,
    clients: {
      admin: { clientId: DEVELOPMENT_CLIENTS.admin.clientId, secret: DEVELOPMENT_CLIENTS.admin.secret },
      reader: { clientId: DEVELOPMENT_CLIENTS.reader.clientId, secret: DEVELOPMENT_CLIENTS.reader.secret },
      auth: { clientId: AUTH_CLIENT_ID },
    },
  };
}

export function isDevelopmentClientName(name: string): name is DevelopmentClientName {
  return Object.prototype.hasOwnProperty.call(DEVELOPMENT_CLIENTS, name);
}

/** Roles a client-credentials token for this client carries; none for unknown clients. */
export function rolesOfClient(clientId: string): readonly Role[] {
  return Object.values(DEVELOPMENT_CLIENTS).find((client) => client.clientId === clientId)?.roles ?? [];
}
