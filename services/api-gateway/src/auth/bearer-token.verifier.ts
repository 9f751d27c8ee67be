import { BEARER_AUTH_DETAILS, invalidTokenClaimsDetail, tokenEntitlements } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import jwt from 'jsonwebtoken';
import { SigningKeysUnavailableError, type SigningKeyStore } from './signing-key.store';

/** Who a verified bearer token speaks for. */
export interface BearerPrincipal {
  subject: string;
  /** The permission roles (§4.1) the token grants. */
  roles: string[];
  entitlements: string[];
}

/**
 * One identity provider's bearer-token check (contract §4.2/§4.3), as the auth middleware calls it:
 * verifies the token and that it grants each of `required` (checked in order), or throws the
 * contract's 401/403 as a ServiceError. Each provider says "role missing" in its own words.
 */
export interface BearerVerifier {
  verify(token: string, required?: readonly string[]): Promise<BearerPrincipal>;
}

/** A verifier for the tokens of one issuer, which the multi-issuer mode routes by `iss`. */
export interface IssuerVerifier extends BearerVerifier {
  readonly issuer: string;
}

export const unauthorized = (detail: string): ServiceError => new ServiceError(401, detail);
export const forbidden = (detail: string): ServiceError => new ServiceError(403, detail);

export function stringClaim(payload: jwt.JwtPayload, name: string): string | undefined {
  const value = payload[name];
  return typeof value === 'string' ? value : undefined;
}

/** Roles only from `resource_access[<audience>].roles` (contract §4.2: realm roles and scope are ignored). */
export function clientRoles(payload: jwt.JwtPayload, audience: string): string[] {
  const resourceAccess = payload.resource_access as Record<string, { roles?: unknown }> | undefined;
  const roles = resourceAccess?.[audience]?.roles;
  return Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [];
}

/**
 * The token's header and claims set without verifying anything, or null when it has none. With
 * `typ: JWT` in its header, jsonwebtoken parses the payload itself: invalid JSON throws, and JSON
 * null or an array comes back as the "payload".
 */
export function decodeUnverified(token: string): { header: jwt.JwtHeader; payload: jwt.JwtPayload } | null {
  let decoded: jwt.Jwt | null;
  try {
    decoded = jwt.decode(token, { complete: true });
  } catch {
    return null;
  }
  const payload = decoded?.payload;
  if (decoded === null || typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  return { header: decoded.header, payload };
}

/**
 * Runs `check` (jsonwebtoken's verification with the provider's claim options) against the key for
 * `kid`. A signature failure against a cached key may be a key rotated under the same kid, so the key
 * set is refreshed once (rate-limited by the store) and the check retried. Throws `keyMissing()` when
 * the provider publishes no key for `kid`; every other failure is thrown as it comes, for the
 * provider's verifier to turn into its contract detail.
 */
export async function verifyWithKeys(token: string, kid: string | undefined, keys: SigningKeyStore, check: (pem: string) => jwt.JwtPayload, keyMissing: () => ServiceError): Promise<jwt.JwtPayload> {
  const key = await keys.keyFor(kid);
  if (key === undefined) throw keyMissing();
  try {
    return check(key.pem);
  } catch (error) {
    if (!(error instanceof jwt.JsonWebTokenError && error.message === 'invalid signature') || key.fresh || !(await keys.refresh())) throw error;
    const refreshed = await keys.keyFor(kid);
    if (refreshed === undefined) throw keyMissing();
    return check(refreshed.pem);
  }
}

/** jsonwebtoken's verification of an RS256 token, answering the claims set as an object. */
export function verifyRs256(token: string, pem: string, options: { issuer: string; audience: string }): jwt.JwtPayload {
  const payload = jwt.verify(token, pem, { algorithms: ['RS256'], issuer: options.issuer, audience: options.audience });
  if (typeof payload !== 'object') throw unauthorized(BEARER_AUTH_DETAILS.unparseable);
  return payload;
}

export interface KeycloakTokenVerifierOptions {
  issuer: string;
  audience: string;
  keys: SigningKeyStore;
}

/**
 * Keycloak-style bearer verification (contract §4.2/§4.3): RS256 against the JWKS, `iss` equal to
 * the configured issuer, `aud` containing the repository client id, `exp` not passed. Every failure
 * is a 401 with the exact contract detail; `Token is expired.` is what makes destiny_sdk refresh.
 * Roles come only from `resource_access[<client id>].roles`; a missing one is a 403.
 */
export class KeycloakTokenVerifier implements IssuerVerifier {
  constructor(private readonly options: KeycloakTokenVerifierOptions) {}

  get issuer(): string {
    return this.options.issuer;
  }

  async verify(token: string, required: readonly string[] = []): Promise<BearerPrincipal> {
    const decoded = decodeUnverified(token);
    if (decoded === null || decoded.header.alg !== 'RS256') throw unauthorized(BEARER_AUTH_DETAILS.unparseable);
    // A token of another environment names another issuer; say so rather than "unparseable",
    // which is what its foreign key id would otherwise produce.
    if (decoded.payload.iss !== this.options.issuer) throw unauthorized(invalidTokenClaimsDetail('Invalid issuer'));
    let payload: jwt.JwtPayload;
    try {
      payload = await verifyWithKeys(token, decoded.header.kid, this.options.keys, (pem) => this.check(token, pem), () => unauthorized(BEARER_AUTH_DETAILS.unparseable));
    } catch (error) {
      throw this.toServiceError(error);
    }
    const roles = clientRoles(payload, this.options.audience);
    const held = new Set(roles);
    if (!required.every((role) => held.has(role))) throw forbidden(BEARER_AUTH_DETAILS.roleMissing);
    return {
      subject: stringClaim(payload, 'sub') ?? stringClaim(payload, 'azp') ?? stringClaim(payload, 'client_id') ?? '',
      roles,
      entitlements: tokenEntitlements(roles),
    };
  }

  private check(token: string, pem: string): jwt.JwtPayload {
    const payload = verifyRs256(token, pem, this.options);
    // §4.2 lists `exp` among the required claims: a token without one would never expire.
    if (typeof payload.exp !== 'number') throw unauthorized(invalidTokenClaimsDetail('Token is missing the "exp" claim'));
    return payload;
  }

  private toServiceError(error: unknown): ServiceError {
    if (error instanceof ServiceError) return error;
    if (error instanceof SigningKeysUnavailableError) return unauthorized(BEARER_AUTH_DETAILS.jwksUnavailable);
    if (error instanceof jwt.TokenExpiredError) return unauthorized(BEARER_AUTH_DETAILS.expired);
    if (error instanceof jwt.NotBeforeError) return unauthorized(invalidTokenClaimsDetail('The token is not yet valid (nbf)'));
    if (error instanceof jwt.JsonWebTokenError) {
      if (error.message.startsWith('jwt audience invalid')) return unauthorized(invalidTokenClaimsDetail('Invalid audience'));
      if (error.message.startsWith('jwt issuer invalid')) return unauthorized(invalidTokenClaimsDetail('Invalid issuer'));
      return unauthorized(BEARER_AUTH_DETAILS.unparseable);
    }
    throw error;
  }
}
