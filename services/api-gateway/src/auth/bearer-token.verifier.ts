import { BEARER_AUTH_DETAILS, invalidTokenClaimsDetail, tokenEntitlements } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import jwt from 'jsonwebtoken';
import { SigningKeysUnavailableError, type SigningKeyStore } from './signing-key.store';

/** Who a verified bearer token speaks for. */
export interface BearerPrincipal {
  subject: string;
  roles: string[];
  entitlements: string[];
}

export interface BearerTokenVerifierOptions {
  issuer: string;
  audience: string;
  keys: SigningKeyStore;
}

const unauthorized = (detail: string): ServiceError => new ServiceError(401, detail);

function stringClaim(payload: jwt.JwtPayload, name: string): string | undefined {
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
function decodeUnverified(token: string): { header: jwt.JwtHeader; payload: jwt.JwtPayload } | null {
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
 * Keycloak-style bearer verification (contract §4.2/§4.3): RS256 against the JWKS, `iss` equal to
 * the configured issuer, `aud` containing the repository client id, `exp` not passed. Every failure
 * is a 401 with the exact contract detail; `Token is expired.` is what makes destiny_sdk refresh.
 */
export class BearerTokenVerifier {
  constructor(private readonly options: BearerTokenVerifierOptions) {}

  async verify(token: string): Promise<BearerPrincipal> {
    const decoded = decodeUnverified(token);
    if (decoded === null || decoded.header.alg !== 'RS256') throw unauthorized(BEARER_AUTH_DETAILS.unparseable);
    // A token of another environment names another issuer; say so rather than "unparseable",
    // which is what its foreign key id would otherwise produce.
    if (decoded.payload.iss !== this.options.issuer) throw unauthorized(invalidTokenClaimsDetail('Invalid issuer'));
    const payload = await this.verifyWithKeys(token, decoded.header.kid);
    return {
      subject: stringClaim(payload, 'sub') ?? stringClaim(payload, 'azp') ?? stringClaim(payload, 'client_id') ?? '',
      roles: clientRoles(payload, this.options.audience),
      entitlements: tokenEntitlements(clientRoles(payload, this.options.audience)),
    };
  }

  private async verifyWithKeys(token: string, kid: string | undefined): Promise<jwt.JwtPayload> {
    const keys = this.options.keys;
    try {
      const key = await keys.keyFor(kid);
      if (key === undefined) throw unauthorized(BEARER_AUTH_DETAILS.unparseable);
      try {
        return this.check(token, key.pem);
      } catch (error) {
        // A signature failure against a cached key may be a key rotated under the same kid.
        if (!(error instanceof jwt.JsonWebTokenError && error.message === 'invalid signature') || key.fresh || !(await keys.refresh())) throw error;
        const refreshed = await keys.keyFor(kid);
        if (refreshed === undefined) throw unauthorized(BEARER_AUTH_DETAILS.unparseable);
        return this.check(token, refreshed.pem);
      }
    } catch (error) {
      throw this.toServiceError(error);
    }
  }

  private check(token: string, pem: string): jwt.JwtPayload {
    const payload = jwt.verify(token, pem, { algorithms: ['RS256'], issuer: this.options.issuer, audience: this.options.audience });
    if (typeof payload !== 'object') throw unauthorized(BEARER_AUTH_DETAILS.unparseable);
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
