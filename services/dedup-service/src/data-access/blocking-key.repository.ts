import type { Db } from 'mongodb';
import { COLLECTIONS } from './collections';
import { isDuplicateKeyError } from '@destiny/platform';
import { blockingFormat } from '../domain/deduplication';

/** One document per reference with all its keys (multikey index), so a decided reference costs one insert. */
export interface ReferenceBlockingKeys {
  _id: string;
  keys: string[];
  /**
   * Every publication year the reference's content has had (only ever added, as its keys are), so a
   * lookup can leave out candidates whose year rules a match out before reading them. Absent on
   * rows written before the field existed: such candidates are always read.
   */
  years?: number[];
  /**
   * The engine's blocking format the keys of the reference's current content were written in; absent
   * on rows written before formats were recorded (format 1).
   */
  format?: number;
  created_at: Date;
}

/** What a lookup found: reference ids per key, and the years filed with each reference found. */
export interface BlockingLookup {
  candidates: Map<string, string[]>;
  years: Map<string, number[]>;
}

/**
 * The references a lookup found under one reference's probed keys: itself left out, and those whose
 * filed years `mayMatch` rules out (read nothing further of them).
 */
export function candidatesFound(found: BlockingLookup, referenceId: string, probed: readonly string[], mayMatch: (candidateYears: number[] | undefined) => boolean): string[] {
  const ids = new Set(probed.flatMap((key) => found.candidates.get(key) ?? []));
  ids.delete(referenceId);
  return [...ids].filter((id) => mayMatch(found.years.get(id)));
}

/** The earlier layout, one row per (key, reference); still read while such rows exist. */
interface LegacyBlockingKeyRow {
  _id: string;
  key: string;
  reference_id: string;
  created_at: Date;
}

/** Candidates per key are capped: the most recent references win, so one common key cannot explode a lookup. */
export const CANDIDATES_PER_KEY = 200;
/**
 * Keys per find: 64 made the 100k import bench send 14,400 finds, whose per-command cost outweighed
 * their matching (512: ~3 % faster end to end; 4,096 no faster still). A command stays ~20 KB.
 */
const LOOKUP_GROUP = 512;

function groupsOf(keys: readonly string[]): string[][] {
  const unique = [...new Set(keys)];
  const groups: string[][] = [];
  for (let start = 0; start < unique.length; start += LOOKUP_GROUP) groups.push(unique.slice(start, start + LOOKUP_GROUP));
  return groups;
}

/** `format`: the engine's blocking format, recorded with every write of a reference's current keys. */
export function createBlockingKeyRepository(db: Db, format: number = blockingFormat) {
  const sets = db.collection<ReferenceBlockingKeys>(COLLECTIONS.referenceBlockingKeys);
  const legacy = db.collection<LegacyBlockingKeyRow>(COLLECTIONS.blockingKeys);
  const markers = db.collection<{ _id: string; format: number; updated_at: Date }>(COLLECTIONS.formatMarkers);
  let legacyInUse: Promise<boolean> | undefined;
  const hasLegacyRows = () => (legacyInUse ??= legacy.estimatedDocumentCount().then((count) => count > 0));

  return {
    /**
     * Adds keys to references (a reference decided again may gain keys; none are removed). `years`:
     * the reference's publication years, added to those filed; null when one is unknown (the content
     * has none, or had none before this change), which clears them, so it is always read when found.
     */
    async addMany(entries: Array<{ referenceId: string; keys: readonly string[]; years: readonly number[] | null }>, now: Date): Promise<void> {
      const documents: ReferenceBlockingKeys[] = entries.map((entry) => ({
        _id: entry.referenceId,
        keys: [...new Set(entry.keys)],
        ...(entry.years === null ? {} : { years: [...new Set(entry.years)] }),
        format,
        created_at: now,
      }));
      if (documents.length === 0) return;
      let existing: ReferenceBlockingKeys[] = [];
      try {
        await sets.insertMany(documents, { ordered: false });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const failed = new Set(((error as { writeErrors?: Array<{ index: number }> }).writeErrors ?? []).map((item) => item.index));
        existing = documents.filter((_document, index) => failed.has(index));
      }
      if (existing.length > 0) {
        await sets.bulkWrite(
          existing.map((document) => ({
            updateOne: {
              filter: { _id: document._id },
              update: document.years
                ? { $addToSet: { keys: { $each: document.keys }, years: { $each: document.years } }, $set: { format } }
                : { $addToSet: { keys: { $each: document.keys } }, $set: { format }, $unset: { years: '' } },
            },
          })),
          { ordered: false },
        );
      }
    },
    /** Reference ids per key (most recent first, capped per key), with the years filed for each. */
    async lookup(keys: readonly string[]): Promise<BlockingLookup> {
      const map = new Map<string, string[]>();
      const years = new Map<string, number[]>();
      const add = (key: string, referenceId: string) => {
        const list = map.get(key) ?? [];
        if (list.length < CANDIDATES_PER_KEY) list.push(referenceId);
        map.set(key, list);
      };
      const groups = groupsOf(keys);
      const found = await Promise.all(
        groups.map((group) =>
          sets
            .find({ keys: { $in: group } }, { projection: { keys: 1, years: 1 } })
            .sort({ created_at: -1 })
            .limit(CANDIDATES_PER_KEY * group.length)
            .toArray(),
        ),
      );
      groups.forEach((group, index) => {
        const wanted = new Set(group);
        for (const row of found[index]) {
          if (row.years) years.set(row._id, row.years);
          for (const key of row.keys) if (wanted.has(key)) add(key, row._id);
        }
      });
      if (await hasLegacyRows()) {
        const older = await Promise.all(groups.map((group) => legacy.find({ key: { $in: group } }, { projection: { key: 1, reference_id: 1 } }).sort({ created_at: -1 }).limit(CANDIDATES_PER_KEY * group.length).toArray()));
        for (const row of older.flat()) if (!map.get(row.key)?.includes(row.reference_id)) add(row.key, row.reference_id);
      }
      return { candidates: map, years };
    },
    /** Whether every reference's current keys were last written in this repository's format. */
    async allFiledInFormat(): Promise<boolean> {
      const marker = await markers.findOne({ _id: COLLECTIONS.referenceBlockingKeys });
      return marker?.format === format;
    },
    async markAllFiledInFormat(): Promise<void> {
      await markers.updateOne({ _id: COLLECTIONS.referenceBlockingKeys }, { $set: { format, updated_at: new Date() } }, { upsert: true });
    },
    /** Ids of references filed in another format, after `afterId` in id order. */
    async filedInOtherFormat(afterId: string, limit: number): Promise<string[]> {
      const rows = await sets.find({ _id: { $gt: afterId }, format: { $ne: format } }, { projection: { _id: 1 } }).sort({ _id: 1 }).limit(limit).toArray();
      return rows.map((row) => row._id);
    },
    /** Files references again under their current keys (added to the ones they have) in this format. */
    async refile(entries: ReadonlyArray<{ referenceId: string; keys: readonly string[] }>): Promise<void> {
      if (entries.length === 0) return;
      await sets.bulkWrite(
        entries.map((entry) => ({ updateOne: { filter: { _id: entry.referenceId }, update: { $addToSet: { keys: { $each: [...new Set(entry.keys)] } }, $set: { format } } } })),
        { ordered: false },
      );
    },
  };
}

export type BlockingKeyRepository = ReturnType<typeof createBlockingKeyRepository>;
