import type { Collection, Db } from 'mongodb';
import { COLLECTIONS, type IndexedVersionDocument } from './collections';

/** Ids looked up per read of `announced`. */
const ANNOUNCED_CHUNK = 5000;

/** The highest version of each reference the search index has announced (`references.indexed`). */
export function createIndexedVersionRepository(db: Db) {
  const versions: Collection<IndexedVersionDocument> = db.collection(COLLECTIONS.indexedVersions);
  return {
    async record(items: ReadonlyArray<{ reference_id: string; version: number }>): Promise<void> {
      if (items.length === 0) return;
      await versions.bulkWrite(
        items.map((item) => ({ updateOne: { filter: { _id: item.reference_id }, update: { $max: { version: item.version } }, upsert: true } })),
        { ordered: false },
      );
    },
    /**
     * Which of `ids` the search index has announced: references that exist, as none is ever
     * deleted (§10.1's existence check asks dedup-service only about the others).
     */
    async announced(ids: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (let start = 0; start < ids.length; start += ANNOUNCED_CHUNK) {
        const rows = await versions.find({ _id: { $in: ids.slice(start, start + ANNOUNCED_CHUNK) } }, { projection: { _id: 1 } }).toArray();
        for (const row of rows) found.add(row._id);
      }
      return found;
    },
    async current(ids: readonly string[]): Promise<Map<string, number>> {
      if (ids.length === 0) return new Map();
      const rows = await versions.find({ _id: { $in: [...ids] } }).toArray();
      return new Map(rows.map((row) => [row._id, row.version]));
    },
  };
}

export type IndexedVersionRepository = ReturnType<typeof createIndexedVersionRepository>;
