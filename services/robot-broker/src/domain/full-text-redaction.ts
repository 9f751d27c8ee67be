// Robot reference files hide full-text enhancements from callers without `full_text` (§6.1).

interface ReferenceView {
  visibility?: unknown;
  id: string;
  identifiers?: unknown[] | null;
  enhancements?: Array<{ content?: { enhancement_type?: string } }> | null;
}

/** The §6.1 Reference shape of a deduplicated view (no decision key), redacted for the caller. */
export function referenceFileRecord(view: ReferenceView, entitlements: readonly string[]): Record<string, unknown> {
  const fullText = entitlements.includes('full_text');
  const enhancements = (view.enhancements ?? []).filter((enhancement) => fullText || enhancement.content?.enhancement_type !== 'full_text');
  return { visibility: view.visibility, id: view.id, identifiers: view.identifiers ?? [], enhancements };
}
