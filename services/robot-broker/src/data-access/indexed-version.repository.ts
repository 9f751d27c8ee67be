import type { Collection, Db } from 'mongodb';
import { COLLECTIONS, type IndexedVersionDocument } from './collections';

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
    async current(ids: readonly string[]): Promise<Map<string, number>> {
      if (ids.length === 0) return new Map();
      const rows = await versions.find({ _id: { $in: [...ids] } }).toArray();
      return new Map(rows.map((row) => [row._id, row.version]));
    },
  };
}

export type IndexedVersionRepository = ReturnType<typeof createIndexedVersionRepository>;
