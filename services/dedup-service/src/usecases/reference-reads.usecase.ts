import { canonicalUuid, identifierIdentityKey, parseIdentifierLookup, type DeduplicatedReference, type ExternalIdentifier } from '@destiny/contracts';
import { replyPage, ServiceError } from '@destiny/platform';
import type { ReferenceRepository } from '../data-access/reference.repository';
import { deduplicatedView, isCanonicalLike, storedView, type ReferenceDocument } from '../domain/reference.model';
import { createReferenceFileLines } from './reference-file-lines.usecase';

// Reference reads (§7.1, §7.2, §6.9).

export function createReferenceReads(deps: { references: ReferenceRepository }) {
  const referenceFileLines = createReferenceFileLines({ references: deps.references });

  async function getReference(id: string): Promise<DeduplicatedReference> {
    const canonical = canonicalUuid(id);
    const reference = canonical ? await deps.references.get(canonical) : null;
    if (!reference) throw ServiceError.notFound('Reference', id);
    return storedView(reference);
  }

  /** Deduplicated views in the order asked; a duplicate's view is its own (not its canonical's). */
  async function deduplicatedViews(ids: readonly string[]): Promise<DeduplicatedReference[]> {
    const rows = await deps.references.getMany(ids);
    const byId = new Map(rows.map((row) => [row._id, row]));
    const groups = await deps.references.duplicatesOf(rows.filter(isCanonicalLike).map((row) => row._id));
    return ids
      .map((id) => byId.get(id))
      .filter((row): row is ReferenceDocument => row !== undefined)
      .map((row) => deduplicatedView(row, isCanonicalLike(row) ? (groups.get(row._id) ?? []) : []));
  }

  /** §7.2: each match resolves to its canonical's view when it is a determined duplicate. */
  async function lookup(texts: readonly string[]): Promise<DeduplicatedReference[]> {
    const ids: string[] = [];
    const keys: string[] = [];
    for (const text of texts) {
      const parsed = parseIdentifierLookup(text);
      if (!parsed.ok) throw ServiceError.badRequest(parsed.message);
      if (parsed.lookup.kind === 'reference_id') ids.push(parsed.lookup.reference_id);
      else {
        const { kind: _kind, ...identifier } = parsed.lookup;
        keys.push(identifierIdentityKey(identifier as ExternalIdentifier));
      }
    }
    const owners = await deps.references.owners(keys);
    const matched = await deps.references.getMany([...new Set([...ids, ...owners.values()])]);
    const targets = [...new Set(matched.map((row) => (row.active_decision?.duplicate_determination === 'duplicate' && row.active_decision.canonical_reference_id ? row.active_decision.canonical_reference_id : row._id)))];
    return deduplicatedViews(targets);
  }

  /**
   * §7.2 as JSON, stopping once the page holds `maxBytes` (always at least one view): a hundred
   * references of up to 16 MiB each outgrow any reply, so the caller looks the rest up by id.
   */
  async function lookupPage(texts: readonly string[], maxBytes: number): Promise<{ json: string[]; remainingIds: string[] }> {
    const views = await lookup(texts);
    const page = await replyPage(views, (view) => JSON.stringify(view), maxBytes);
    return { json: page.texts, remainingIds: views.slice(page.taken).map((view) => view.id) };
  }

  /**
   * `referenceFileLines`, stopping once the page holds `maxBytes` (always at least one line): a
   * robot's batch of up to 10,000 references outgrows any reply, so the caller asks for the rest.
   */
  async function referenceFileLinesPage(ids: readonly string[], fullText: boolean, maxBytes: number) {
    const all = await referenceFileLines(ids, fullText);
    const page = await replyPage(all, (item) => item.line, maxBytes);
    return { lines: all.slice(0, page.taken), remainingIds: all.slice(page.taken).map((item) => item.id) };
  }

  return { getReference, deduplicatedViews, referenceFileLines, referenceFileLinesPage, lookup, lookupPage };
}
