import type { Db } from 'mongodb';
import { COLLECTIONS } from './collections';
import { insertIgnoringDuplicates } from './reference.repository';

export interface BlockingKeyRow {
  _id: string;
  key: string;
  reference_id: string;
  created_at: Date;
}

/** Candidates per key are capped: the most recent rows win, so one common key cannot explode a lookup. */
export const CANDIDATES_PER_KEY = 200;
const LOOKUP_GROUP = 64;

export function createBlockingKeyRepository(db: Db) {
  const rows = db.collection<BlockingKeyRow>(COLLECTIONS.blockingKeys);
  return {
    async add(referenceId: string, keys: readonly string[], now: Date): Promise<void> {
      await insertIgnoringDuplicates(
        rows,
        [...new Set(keys)].map((key) => ({ _id: `${key}\u0000${referenceId}`, key, reference_id: referenceId, created_at: now })),
      );
    },
    async addMany(entries: Array<{ referenceId: string; keys: readonly string[] }>, now: Date): Promise<void> {
      const documents = entries.flatMap((entry) => [...new Set(entry.keys)].map((key) => ({ _id: `${key}\u0000${entry.referenceId}`, key, reference_id: entry.referenceId, created_at: now })));
      await insertIgnoringDuplicates(rows, documents);
    },
    /** Reference ids per key (most recent first, capped per key). */
    async lookup(keys: readonly string[]): Promise<Map<string, string[]>> {
      const map = new Map<string, string[]>();
      const unique = [...new Set(keys)];
      // Small `$in` lists: a matcher tests every examined row against the whole list.
      const groups: string[][] = [];
      for (let start = 0; start < unique.length; start += LOOKUP_GROUP) groups.push(unique.slice(start, start + LOOKUP_GROUP));
      const found = (
        await Promise.all(
          groups.map((group) =>
            rows
              .find({ key: { $in: group } }, { projection: { key: 1, reference_id: 1 } })
              .sort({ created_at: -1 })
              .limit(CANDIDATES_PER_KEY * group.length)
              .toArray(),
          ),
        )
      ).flat();
      for (const row of found) {
        const list = map.get(row.key) ?? [];
        if (list.length < CANDIDATES_PER_KEY) list.push(row.reference_id);
        map.set(row.key, list);
      }
      return map;
    },
  };
}

export type BlockingKeyRepository = ReturnType<typeof createBlockingKeyRepository>;
