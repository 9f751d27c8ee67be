// Roles, scopes and entitlements (contract §4.1–§4.3).

export const ROLES = {
  referenceReader: 'reference.reader',
  referenceFullTextReader: 'reference.full_text.reader',
  referenceDeduplicator: 'reference.deduplicator',
  enhancementRequestWriter: 'enhancement_request.writer',
  robotWriter: 'robot.writer',
  robotEntitlementWriter: 'robot.entitlement.writer',
  importWriter: 'import.writer',
  administrator: 'administrator',
} as const;
export type Role = (typeof ROLES)[keyof typeof ROLES];
export const ALL_ROLES: readonly Role[] = Object.values(ROLES);

/** Azure delegated scope of a role: `<role>.all`. */
export function azureScope(role: Role): string {
  return `${role}.all`;
}

/**
 * Auth class of a route (§3): R reader, D deduplicator (plus reader), I import writer, W robot
 * writer, H hybrid (bearer enhancement_request.writer or robot HMAC), A administrator, none.
 */
export type AuthClass = 'R' | 'D' | 'I' | 'W' | 'H' | 'A' | 'none';

/** The roles a bearer token needs for each auth class. */
export const AUTH_CLASS_ROLES: Readonly<Record<AuthClass, readonly Role[]>> = {
  R: [ROLES.referenceReader],
  D: [ROLES.referenceReader, ROLES.referenceDeduplicator],
  I: [ROLES.importWriter],
  W: [ROLES.robotWriter],
  H: [ROLES.enhancementRequestWriter],
  A: [ROLES.administrator],
  none: [],
};

/** Entitlements a principal can carry (token-derived or stored on a robot). */
export const ENTITLEMENTS = {
  fullText: 'full_text',
  robotEntitlementWriter: 'robot_entitlement_writer',
  rawEnhancementWriter: 'raw_enhancement_writer',
} as const;
export type Entitlement = (typeof ENTITLEMENTS)[keyof typeof ENTITLEMENTS];

/** Entitlements derived from a token's grants (roles or `.all` scopes), §4.2. */
export function tokenEntitlements(grants: Iterable<string>): Entitlement[] {
  const set = new Set(grants);
  const has = (role: Role): boolean => set.has(role) || set.has(azureScope(role));
  const entitlements: Entitlement[] = [];
  if (has(ROLES.referenceFullTextReader)) entitlements.push(ENTITLEMENTS.fullText);
  if (has(ROLES.robotEntitlementWriter)) entitlements.push(ENTITLEMENTS.robotEntitlementWriter);
  return entitlements;
}

/** Exact bearer-token failure details (§4.3). */
export const BEARER_AUTH_DETAILS = {
  headerMissing: 'Authorization HTTPBearer header missing.',
  expired: 'Token is expired.',
  unparseable: 'Unable to parse authentication token.',
  jwksUnavailable: 'Unable to fetch signing keys from identity provider.',
  noIssuer: 'Token does not contain an issuer claim.',
  unknownIssuer: 'Token issuer is not recognized.',
  keyNotFound: 'Unable to find appropriate key.',
  roleMissing: 'The token does not contain the required role.',
  noScopeOrRoles: 'IDW10201: Neither scope or roles claim was found in the bearer token.',
  entitlementChangeForbidden: 'Changing robot entitlements requires the robot.entitlement.writer scope or role.',
} as const;

/** `Invalid token claims: <reason>` (Keycloak iss/aud mismatch). */
export function invalidTokenClaimsDetail(reason: string): string {
  return `Invalid token claims: ${reason}`;
}

/** How the reference impl (Python) prints a claim value inside a detail: `None`, a bare string, `['a', 'b']`. */
function pythonRepr(value: unknown): string {
  if (value === undefined || value === null) return 'None';
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (Array.isArray(value)) return `[${value.map((item) => (typeof item === 'string' ? `'${item}'` : pythonRepr(item))).join(', ')}]`;
  return JSON.stringify(value);
}

/** Azure `aud`/`iss` mismatch (§4.3): the expected values and what the token carries. */
export function azureIncorrectClaimsDetail(expected: { audience: string; issuer: string }, got: { aud: unknown; iss: unknown }): string {
  return `Incorrect claims. Expected aud=${expected.audience}, got=${pythonRepr(got.aud)}. Expected iss=${expected.issuer}, got=${pythonRepr(got.iss)}`;
}

export function azureScopeMissingDetail(scope: string): string {
  return `IDW10203: The scope permissions (scp) claim does not contain the required scope ${scope}`;
}

export function azureRoleMissingDetail(role: string): string {
  return `IDW10203: The role permissions (roles) claim does not contain the required role ${role}`;
}
