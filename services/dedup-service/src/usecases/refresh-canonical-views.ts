import type { ChangeOrigin } from '@destiny/contracts';
import { ConcurrentChangeError, WRITE_ROUNDS, type ReferenceRepository } from '../data-access/reference.repository';
import { enhancementChangeset, isCanonicalLike, type ReferenceDocument } from '../domain/reference.model';
import { referenceChangedEntry } from '../domain/reference-changed.event-builder';

/** The search entry holding a reference's enhancements: the reference itself, or a duplicate's canonical. */
export interface SearchEntry {
  id: string;
  version: number;
}

/**
 * Gives the canonical of each enhanced duplicate a new version whose event carries its
 * deduplicated view, read after the duplicates' writes so it holds their new enhancements. Also
 * done for a retried call that finds its enhancements already stored: the first attempt may have
 * stopped between the two writes. Answers, per duplicate, the search entry now holding them.
 */
export function createRefreshCanonicalViews(deps: { references: ReferenceRepository; onEvents(): void }) {
  return async function refreshCanonicals(enhancedDuplicates: Map<string, Set<string>>, origin: ChangeOrigin): Promise<Map<string, SearchEntry>> {
    const entries = new Map<string, SearchEntry>();
    let remaining = [...enhancedDuplicates.keys()];
    for (let round = 0; remaining.length > 0; round += 1) {
      if (round === WRITE_ROUNDS) throw new ConcurrentChangeError(remaining[0]);
      const duplicates = await deps.references.getMany(remaining);
      const duplicatesOfCanonical = new Map<string, ReferenceDocument[]>();
      for (const duplicate of duplicates) {
        const canonicalId = isCanonicalLike(duplicate) ? null : duplicate.active_decision?.canonical_reference_id;
        // No longer a duplicate (a decision changed meanwhile): its own entry holds the enhancements.
        if (!canonicalId) entries.set(duplicate._id, { id: duplicate._id, version: duplicate.version });
        else duplicatesOfCanonical.set(canonicalId, [...(duplicatesOfCanonical.get(canonicalId) ?? []), duplicate]);
      }
      const canonicalIds = [...duplicatesOfCanonical.keys()];
      const canonicals = await deps.references.getMany(canonicalIds);
      const groups = await deps.references.duplicatesOf(canonicalIds);
      const now = new Date();
      const conflicts = await Promise.all(
        canonicals.map(async (canonical) => {
          const enhanced = duplicatesOfCanonical.get(canonical._id) ?? [];
          const added = enhanced.flatMap((duplicate) => duplicate.enhancements.filter((enhancement) => enhancedDuplicates.get(duplicate._id)?.has(enhancement.id)));
          const after = { ...canonical, version: canonical.version + 1 };
          const event = referenceChangedEntry({ kind: 'duplicate_enhanced', reference: after, duplicates: groups.get(canonical._id) ?? [], changeset: enhancementChangeset(added), origin, now });
          try {
            await deps.references.update(canonical._id, canonical.version, { version: after.version }, [event]);
          } catch (error) {
            if (error instanceof ConcurrentChangeError) return enhanced.map((duplicate) => duplicate._id);
            throw error;
          }
          for (const duplicate of enhanced) entries.set(duplicate._id, { id: canonical._id, version: after.version });
          return [];
        }),
      );
      if (canonicals.length > 0) deps.onEvents();
      remaining = conflicts.flat();
    }
    return entries;
  };
}
