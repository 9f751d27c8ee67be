import { BEARER_AUTH_DETAILS } from '@destiny/contracts';
import { decodeUnverified, unauthorized, type BearerPrincipal, type BearerVerifier, type IssuerVerifier } from './bearer-token.verifier';

/**
 * `AUTH_PROVIDER=both` (contract §4.2): reads `iss` without verifying anything and hands the token to
 * the verifier of that issuer (the first that matches, Azure before Keycloak); a token without an
 * issuer, or naming one neither provider has, is refused with the contract's 401.
 */
export class MultiIssuerVerifier implements BearerVerifier {
  constructor(private readonly verifiers: readonly IssuerVerifier[]) {}

  async verify(token: string, required: readonly string[] = []): Promise<BearerPrincipal> {
    const decoded = decodeUnverified(token);
    if (decoded === null) throw unauthorized(BEARER_AUTH_DETAILS.unparseable);
    const iss: unknown = decoded.payload.iss;
    if (iss === undefined || iss === null || iss === '') throw unauthorized(BEARER_AUTH_DETAILS.noIssuer);
    const verifier = this.verifiers.find((candidate) => candidate.issuer === iss);
    if (verifier === undefined) throw unauthorized(BEARER_AUTH_DETAILS.unknownIssuer);
    return verifier.verify(token, required);
  }
}
