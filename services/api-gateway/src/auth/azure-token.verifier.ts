import { ALL_ROLES, azureIncorrectClaimsDetail, azureRoleMissingDetail, azureScope, azureScopeMissingDetail, BEARER_AUTH_DETAILS, tokenEntitlements, type Role } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import jwt from 'jsonwebtoken';
import { decodeUnverified, forbidden, stringClaim, unauthorized, verifyRs256, verifyWithKeys, type BearerPrincipal, type IssuerVerifier } from './bearer-token.verifier';
import { SigningKeysUnavailableError, SigningKeyStore, type SigningKeyStoreOptions } from './signing-key.store';

/** `https://login.microsoftonline.com/<tenant>` without a trailing slash, as the reference impl trims it. */
export function azureLoginBase(loginUrl: string): string {
  return loginUrl.replace(/\/+$/, '');
}

/** Issuer of the tenant's v2.0 tokens (contract §4.2). */
export function azureIssuer(loginUrl: string): string {
  return `${azureLoginBase(loginUrl)}/v2.0`;
}

/** The tenant's signing keys (contract §4.2). */
export function azureJwksUrl(loginUrl: string): string {
  return `${azureLoginBase(loginUrl)}/discovery/v2.0/keys`;
}

export interface AzureTokenVerifierOptions {
  /** `AZURE_LOGIN_URL`, e.g. `https://login.microsoftonline.com/<tenant>`. */
  loginUrl: string;
  /** `AZURE_APPLICATION_ID`: the required `aud`. */
  applicationId: string;
  /** Its own key store (same cache and refresh limits as Keycloak's); by default one on `{login_url}/discovery/v2.0/keys`. */
  keys?: SigningKeyStore;
  keyStoreOptions?: Omit<SigningKeyStoreOptions, 'jwksUrl'>;
}

/** The space-separated `scp` claim of a delegated (user) token, or undefined when it has none (absent, empty or not a string). */
function delegatedScopes(payload: jwt.JwtPayload): string[] | undefined {
  const scp = payload.scp;
  if (typeof scp !== 'string') return undefined;
  const scopes = scp.split(/\s+/).filter(Boolean);
  return scopes.length > 0 ? scopes : undefined;
}

/** The `roles` claim of an application token, or undefined when it has none (absent, empty or not an array). */
function applicationRoles(payload: jwt.JwtPayload): string[] | undefined {
  const roles = payload.roles;
  if (!Array.isArray(roles)) return undefined;
  const names = roles.filter((role): role is string => typeof role === 'string');
  return names.length > 0 ? names : undefined;
}

/**
 * Azure AD (Entra ID) v2.0 bearer verification (contract §4.2/§4.3): RS256 against the tenant's
 * key set, `iss` equal to `{login_url}/v2.0`, `aud` equal to the application id, `exp` not passed.
 * Authorisation: a token with `scp` must hold the role's `.all` scope; otherwise one with `roles`
 * must hold the role; otherwise it has neither (IDW10201). All failures are the contract's 401/403.
 */
export class AzureTokenVerifier implements IssuerVerifier {
  readonly issuer: string;
  private readonly keys: SigningKeyStore;

  constructor(private readonly options: AzureTokenVerifierOptions) {
    this.issuer = azureIssuer(options.loginUrl);
    this.keys = options.keys ?? new SigningKeyStore({ ...options.keyStoreOptions, jwksUrl: azureJwksUrl(options.loginUrl) });
  }

  async verify(token: string, required: readonly string[] = []): Promise<BearerPrincipal> {
    const decoded = decodeUnverified(token);
    if (decoded === null || decoded.header.alg !== 'RS256') throw unauthorized(BEARER_AUTH_DETAILS.unparseable);
    // A token of another issuer is refused before its key is looked for, with the claims detail
    // the reference impl gives once the signature holds.
    if (decoded.payload.iss !== this.issuer) throw this.incorrectClaims(decoded.payload);
    let payload: jwt.JwtPayload;
    try {
      payload = await verifyWithKeys(token, decoded.header.kid, this.keys, (pem) => this.check(token, pem), () => unauthorized(BEARER_AUTH_DETAILS.keyNotFound));
    } catch (error) {
      throw this.toServiceError(error, decoded.payload);
    }
    const scopes = delegatedScopes(payload);
    const roles = applicationRoles(payload);
    for (const role of required) this.authorise(role, scopes, roles);
    const granted = scopes !== undefined ? ALL_ROLES.filter((role) => scopes.includes(azureScope(role))) : (roles ?? []);
    return {
      subject: stringClaim(payload, 'oid') ?? stringClaim(payload, 'sub') ?? stringClaim(payload, 'azp') ?? '',
      roles: [...granted],
      entitlements: tokenEntitlements([...(scopes ?? []), ...(roles ?? [])]),
    };
  }

  /** The reference impl's order: a delegated token is judged by its scopes alone, an application token by its roles. */
  private authorise(role: string, scopes: string[] | undefined, roles: string[] | undefined): void {
    if (scopes !== undefined) {
      const scope = azureScope(role as Role);
      if (!scopes.includes(scope)) throw forbidden(azureScopeMissingDetail(scope));
      return;
    }
    if (roles !== undefined) {
      if (!roles.includes(role)) throw forbidden(azureRoleMissingDetail(role));
      return;
    }
    throw forbidden(BEARER_AUTH_DETAILS.noScopeOrRoles);
  }

  private check(token: string, pem: string): jwt.JwtPayload {
    const payload = verifyRs256(token, pem, { issuer: this.issuer, audience: this.options.applicationId });
    // §4.2 requires `exp`: a token without one would never expire.
    if (typeof payload.exp !== 'number') throw unauthorized(BEARER_AUTH_DETAILS.unparseable);
    return payload;
  }

  private incorrectClaims(unverified: jwt.JwtPayload): ServiceError {
    return unauthorized(azureIncorrectClaimsDetail({ audience: this.options.applicationId, issuer: this.issuer }, { aud: unverified.aud, iss: unverified.iss }));
  }

  private toServiceError(error: unknown, unverified: jwt.JwtPayload): ServiceError {
    if (error instanceof ServiceError) return error;
    if (error instanceof SigningKeysUnavailableError) return unauthorized(BEARER_AUTH_DETAILS.jwksUnavailable);
    if (error instanceof jwt.TokenExpiredError) return unauthorized(BEARER_AUTH_DETAILS.expired);
    if (error instanceof jwt.NotBeforeError) return this.incorrectClaims(unverified);
    if (error instanceof jwt.JsonWebTokenError) {
      if (error.message.startsWith('jwt audience invalid') || error.message.startsWith('jwt issuer invalid')) return this.incorrectClaims(unverified);
      return unauthorized(BEARER_AUTH_DETAILS.unparseable);
    }
    return unauthorized(BEARER_AUTH_DETAILS.unparseable);
  }
}
