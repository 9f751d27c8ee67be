import { type ExternalIdentifier } from '../schemas/identifier.schema';

/** Identity of an identifier (§6.3): (identifier_type, string form of identifier, other_identifier_name or null). */
export type IdentifierIdentity = readonly [identifierType: string, identifier: string, otherIdentifierName: string | null];

export function identifierIdentity(identifier: ExternalIdentifier): IdentifierIdentity {
  const otherName = identifier.identifier_type === 'other' ? identifier.other_identifier_name : null;
  return [identifier.identifier_type, String(identifier.identifier), otherName];
}

/** The identity as one string, usable as a map key or a unique index value (case-sensitive). */
export function identifierIdentityKey(identifier: ExternalIdentifier): string {
  return JSON.stringify(identifierIdentity(identifier));
}

/** The merge key of collision strategies (§8.6): (identifier_type, other_identifier_name), not the value. */
export function identifierMergeKey(identifier: ExternalIdentifier): string {
  const otherName = identifier.identifier_type === 'other' ? identifier.other_identifier_name : null;
  return JSON.stringify([identifier.identifier_type, otherName]);
}
