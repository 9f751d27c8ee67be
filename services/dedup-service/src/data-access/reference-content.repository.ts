import type { Collection, Document } from 'mongodb';
import type { ReferenceDocument } from '../domain/reference.model';

// Reads of what views are built from, and nothing else: the store sends and this process decodes
// only these fields (not the import bookkeeping, the writer token or the outbox).

export type ReferenceViewSource = Pick<ReferenceDocument, '_id' | 'visibility' | 'identifiers' | 'enhancements' | 'active_decision'>;

const VIEW_FIELDS: Document = { visibility: 1, identifiers: 1, enhancements: 1, active_decision: 1 };

export function createReferenceContentRepository(references: Collection<ReferenceDocument>) {
  return {
    async getMany(ids: readonly string[]): Promise<ReferenceViewSource[]> {
      if (ids.length === 0) return [];
      return (await references.find({ _id: { $in: [...ids] } }, { projection: VIEW_FIELDS }).toArray()) as ReferenceViewSource[];
    },
    /** Active duplicates of each canonical, by canonical id, in id order (the view order of §6.9). */
    async duplicatesOf(canonicalIds: readonly string[]): Promise<Map<string, ReferenceViewSource[]>> {
      const groups = new Map<string, ReferenceViewSource[]>();
      if (canonicalIds.length === 0) return groups;
      const rows = (await references
        .find({ 'active_decision.canonical_reference_id': { $in: [...canonicalIds] }, 'active_decision.duplicate_determination': 'duplicate' }, { projection: VIEW_FIELDS })
        .toArray()) as ReferenceViewSource[];
      // Sorted here, as reference.repository does: a server-side sort makes the MongoDB stand-in walk the collection.
      rows.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
      for (const row of rows) {
        const canonical = row.active_decision?.canonical_reference_id as string;
        const group = groups.get(canonical);
        if (group) group.push(row);
        else groups.set(canonical, [row]);
      }
      return groups;
    },
  };
}

export type ReferenceContentRepository = ReturnType<typeof createReferenceContentRepository>;
