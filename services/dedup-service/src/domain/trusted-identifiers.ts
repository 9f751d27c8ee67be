import type { ExternalIdentifier } from '@destiny/contracts';

// Keys of the trusted-identifier shortcut (§15.3 step 1): a DOI compares case-insensitively
// (DOIs are case-insensitive by definition), the others by their exact value.

export const DEFAULT_TRUSTED_IDENTIFIER_TYPES = ['doi', 'pm_id', 'open_alex'] as const;

export function trustedKeys(identifiers: readonly ExternalIdentifier[], trustedTypes: ReadonlySet<string>): string[] {
  const keys = new Set<string>();
  for (const identifier of identifiers) {
    if (!trustedTypes.has(identifier.identifier_type)) continue;
    const value = identifier.identifier_type === 'doi' ? String(identifier.identifier).toLowerCase() : String(identifier.identifier);
    keys.add(`trusted:${identifier.identifier_type}:${value}`);
  }
  return [...keys];
}
