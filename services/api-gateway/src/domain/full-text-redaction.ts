import { ENTITLEMENTS } from '@destiny/contracts';

interface EnhancementLike {
  content?: { enhancement_type?: unknown } | null;
}

interface ReferenceLike {
  enhancements?: EnhancementLike[] | null;
}

function isFullText(enhancement: EnhancementLike): boolean {
  return enhancement?.content?.enhancement_type === 'full_text';
}

/**
 * Contract §6.1: full-text enhancements are removed from every reference returned to a caller
 * without the `full_text` entitlement; nothing else about the reference changes.
 */
export function redactFullText<T>(reference: T, entitlements: readonly string[]): T {
  if (entitlements.includes(ENTITLEMENTS.fullText)) return reference;
  const enhancements = (reference as ReferenceLike | null)?.enhancements;
  if (!Array.isArray(enhancements) || !enhancements.some(isFullText)) return reference;
  return { ...reference, enhancements: enhancements.filter((enhancement) => !isFullText(enhancement)) };
}

export function redactFullTextAll<T>(references: readonly T[], entitlements: readonly string[]): T[] {
  return references.map((reference) => redactFullText(reference, entitlements));
}
