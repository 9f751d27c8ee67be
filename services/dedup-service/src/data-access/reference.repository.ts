import type { Collection, Db, Document } from 'mongodb';
import { isDuplicateKeyError, OUTBOX_FIELD, OUTBOX_PENDING_FIELD, pushToOutbox, withOutbox, type OutboxEntry } from '@destiny/platform';
import type { ReferenceContent, ReferenceDocument, ReferenceSummary } from '../domain/reference.model';
import { COLLECTIONS } from './collections';

export interface IdentifierClaim {
  _id: string;
  reference_id: string;
}

/** A claim to write: `replaces` names the owner of an orphaned claim (its reference never stored) it takes over. */
export interface IdentifierClaimWrite extends IdentifierClaim {
  replaces?: string;
}

/** Another writer (a second replica) may change a reference between a read and the write: rounds of read-decide-write before giving up. */
export const WRITE_ROUNDS = 5;

export class ConcurrentChangeError extends Error {
  constructor(referenceId: string) {
    super(`reference ${referenceId} changed concurrently`);
    this.name = 'ConcurrentChangeError';
  }
}

/** Inserts, treating rows that already exist as done (idempotent retries). */
export async function insertIgnoringDuplicates<T extends Document>(collection: Collection<T>, documents: T[]): Promise<void> {
  if (documents.length === 0) return;
  try {
    await collection.insertMany(documents as never[], { ordered: false });
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
}

/** The writer lease's fencing (see writer-lease.repository): filters and stamps reference writes. */
export interface WriteFence {
  fencedFilter(filter: Document): Document;
  token(): number;
  /** Changes whenever another writer may have held the lease since; throws when it is not held. */
  tenure(): number;
  readonly tokenField: string;
}

/**
 * References this replica stored (inserted, or enhanced in one bulk write) and has not written
 * otherwise since, kept for reads under the lease: ten chunks' worth, as several robots' results
 * over the same references arrive some batches apart. In the robot benchmark (4 robots, 25,000
 * references) every repeat read hits from 10,000 on, fewer at 5,000; a reference with five
 * enhancements holds ~6 KB of heap, so ~60 MB.
 */
export const RECENTLY_STORED_LIMIT = 10000;
/**
 * Contents of references imported, decided or enhanced whose events the outbox relay has not published yet
 * (it releases each as it uses it). While robots poll, the relay waits behind their reads and can
 * fall more than 5,000 references behind the writes; every miss is a whole-document read and
 * decode, so the bound is the backlog it tolerates: at ~6 KB each, ~120 MB at worst.
 */
export const UNRELAYED_CONTENT_LIMIT = 20000;
/** Ids per existence query: 10,000 UUIDs make a query of ~450 KB. */
const EXISTENCE_PAGE_SIZE = 10000;

function keepNewest<T>(map: Map<string, T>, limit: number) {
  for (const key of map.keys()) {
    if (map.size <= limit) return;
    map.delete(key);
  }
}

export function createReferenceRepository(db: Db, fence?: WriteFence) {
  const references = db.collection<ReferenceDocument>(COLLECTIONS.references);
  const fenced = (filter: Document): Document => (fence ? fence.fencedFilter(filter) : filter);
  const stamp = (): Document => (fence ? { [fence.tokenField]: fence.token() } : {});
  const identifiers = db.collection<IdentifierClaim>(COLLECTIONS.identifiers);
  // The outbox and its flag belong to the relay: no reader uses them, and without the flag a
  // document kept after an outbox write is exactly what the store answers.
  const projection = { [OUTBOX_FIELD]: 0, [OUTBOX_PENDING_FIELD]: 0 } as Document;
  const summaryProjection = { active_decision: 1, version: 1, dedup_record: 1 } as Document;
  // What this replica inserted or enhanced, as the store holds it (outbox aside), while no other
  // writer can have changed it: valid only in the lease tenure it was stored in, dropped on any
  // other write here. Readers never modify the documents they get (they copy them).
  const recentlyStored = new Map<string, { document: ReferenceDocument; tenure: number }>();
  const unrelayedContent = new Map<string, ReferenceContent>();
  // Every write here numbers the references it touches, and a document is kept after a write only
  // if no later write here touched it meanwhile: the two writer lanes write side by side.
  const writeNumbers = new Map<string, number>();
  let lastWriteNumber = 0;
  const forget = (ids: Iterable<string>): Map<string, number> => {
    const numbers = new Map<string, number>();
    for (const id of ids) {
      recentlyStored.delete(id);
      writeNumbers.delete(id);
      lastWriteNumber += 1;
      writeNumbers.set(id, lastWriteNumber);
      numbers.set(id, lastWriteNumber);
    }
    keepNewest(writeNumbers, RECENTLY_STORED_LIMIT * 2);
    return numbers;
  };
  const keep = (documents: Iterable<ReferenceDocument>, numbers: Map<string, number>, tenure: number) => {
    for (const document of documents) {
      if (writeNumbers.get(document._id) === numbers.get(document._id)) recentlyStored.set(document._id, { document, tenure });
    }
    keepNewest(recentlyStored, RECENTLY_STORED_LIMIT);
  };

  /** What this replica holds of `ids` in the current lease tenure, and `read` for the rest. */
  const heldOr = async <T>(ids: readonly string[], read: (missing: string[]) => Promise<T[]>): Promise<Array<T | ReferenceDocument>> => {
    if (!fence || recentlyStored.size === 0) return read([...ids]);
    const tenure = fence.tenure();
    const found: ReferenceDocument[] = [];
    const missing: string[] = [];
    for (const id of ids) {
      const entry = recentlyStored.get(id);
      if (entry?.tenure === tenure) found.push(entry.document);
      else missing.push(id);
    }
    return missing.length === 0 ? found : [...found, ...(await read(missing))];
  };

  return {
    references,
    identifiers,
    async get(id: string): Promise<ReferenceDocument | null> {
      return references.findOne({ _id: id }, { projection }) as Promise<ReferenceDocument | null>;
    },
    async getMany(ids: readonly string[]): Promise<ReferenceDocument[]> {
      if (ids.length === 0) return [];
      return (await references.find({ _id: { $in: [...ids] } }, { projection }).toArray()) as ReferenceDocument[];
    },
    /**
     * `getMany` for work under the writer lease: references this replica inserted or enhanced in
     * the current tenure and has not written otherwise since come from memory (the decision job
     * reads what the ingest just stored, a robot's results what another robot's just enhanced),
     * the rest from the store.
     */
    async getManyHeld(ids: readonly string[]): Promise<ReferenceDocument[]> {
      return heldOr(ids, (missing) => this.getMany(missing));
    },
    /**
     * Group state, version and comparison record of references a decision only compares against:
     * from memory as `getManyHeld`, else a projection (a few hundred bytes instead of the whole
     * document with its enhancements).
     */
    async summariesHeld(ids: readonly string[]): Promise<ReferenceSummary[]> {
      return heldOr<ReferenceSummary>(ids, (missing) => this.summaries(missing));
    },
    /** `summariesHeld` for reads outside the writer lease: always from the store. */
    async summaries(ids: readonly string[]): Promise<ReferenceSummary[]> {
      if (ids.length === 0) return [];
      return (await references.find({ _id: { $in: [...ids] } }, { projection: summaryProjection }).toArray()) as ReferenceSummary[];
    },
    /** Which of these references are stored; read in pages, as a list of any length fits no single query (16 MB). */
    async existing(ids: readonly string[]): Promise<Set<string>> {
      const found = new Set<string>();
      for (let start = 0; start < ids.length; start += EXISTENCE_PAGE_SIZE) {
        const page = ids.slice(start, start + EXISTENCE_PAGE_SIZE);
        for (const row of await references.find({ _id: { $in: page } }, { projection: { _id: 1 } }).toArray()) found.add(row._id);
      }
      return found;
    },
    async createdByResults(resultIds: readonly string[]): Promise<ReferenceDocument[]> {
      if (resultIds.length === 0) return [];
      return (await references.find({ import_result_id: { $in: [...resultIds] } }, { projection }).toArray()) as ReferenceDocument[];
    },
    /** Active duplicates of each canonical, by canonical id. */
    async duplicatesOf(canonicalIds: readonly string[]): Promise<Map<string, ReferenceDocument[]>> {
      const map = new Map<string, ReferenceDocument[]>();
      if (canonicalIds.length === 0) return map;
      const rows = (await references
        .find({ 'active_decision.canonical_reference_id': { $in: [...canonicalIds] }, 'active_decision.duplicate_determination': 'duplicate' }, { projection })
        .toArray()) as ReferenceDocument[];
      // Sorted here: asking the server to sort makes the MongoDB stand-in walk the whole collection.
      rows.sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));
      for (const row of rows) {
        const canonical = row.active_decision?.canonical_reference_id as string;
        map.set(canonical, [...(map.get(canonical) ?? []), row]);
      }
      return map;
    },
    async owners(keys: readonly string[]): Promise<Map<string, string>> {
      if (keys.length === 0) return new Map();
      const rows = await identifiers.find({ _id: { $in: [...keys] } }).toArray();
      return new Map(rows.map((row) => [row._id, row.reference_id]));
    },
    /**
     * Writes the claims (a claim already naming the same reference is done) and answers the keys
     * that another reference holds instead; read back only when some write did not apply.
     */
    async claim(rows: IdentifierClaimWrite[]): Promise<string[]> {
      if (rows.length === 0) return [];
      const takeovers = rows.filter((row) => row.replaces !== undefined).length;
      let applied = false;
      try {
        const result = await identifiers.bulkWrite(
          rows.map(({ _id, reference_id, replaces }) =>
            replaces === undefined ? { insertOne: { document: { _id, reference_id } } } : { updateOne: { filter: { _id, reference_id: replaces }, update: { $set: { reference_id } } } },
          ),
          { ordered: false },
        );
        applied = result.matchedCount === takeovers;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      if (applied) return [];
      const stored = await identifiers.find({ _id: { $in: rows.map((row) => row._id) } }).toArray();
      const holders = new Map(stored.map((row) => [row._id, row.reference_id]));
      return rows.filter((row) => holders.get(row._id) !== row.reference_id).map((row) => row._id);
    },
    /** Deletes claims, each only while it still names the same reference. */
    async releaseClaims(rows: ReadonlyArray<{ _id: string; reference_id: string }>): Promise<void> {
      if (rows.length > 0) await identifiers.deleteMany({ $or: rows.map((row) => ({ _id: row._id, reference_id: row.reference_id })) });
    },
    /** Inserts new references, each with the events `eventsOf` answers for it in its outbox (stored with it or not at all). */
    async insertNew(documents: ReferenceDocument[], eventsOf?: (document: ReferenceDocument) => OutboxEntry[]): Promise<void> {
      const token = stamp();
      if (documents.length === 0) return;
      const tenure = fence?.tenure();
      const stored = documents.map((document) => ({ ...document, ...token }));
      const numbers = forget(stored.map((document) => document._id));
      const written = stored.map((document) => {
        const events = eventsOf?.(document) ?? [];
        return events.length > 0 ? withOutbox(document, events) : document;
      });
      try {
        await references.insertMany(written as never[], { ordered: false });
      } catch (error) {
        // An id already stored (a retried chunk) is done; the stored document may differ, so none is kept.
        if (!isDuplicateKeyError(error)) throw error;
        return;
      }
      if (tenure !== undefined) keep(stored, numbers, tenure);
    },
    /**
     * Keeps the content of references just written with compact events (imports, decisions,
     * enhancements), for the relay to complete them without reading the documents (their content
     * only ever grows).
     */
    rememberUnrelayedContent(documents: readonly ReferenceContent[]): void {
      for (const document of documents) {
        unrelayedContent.delete(document._id);
        unrelayedContent.set(document._id, { _id: document._id, visibility: document.visibility, identifiers: document.identifiers, enhancements: document.enhancements });
      }
      keepNewest(unrelayedContent, UNRELAYED_CONTENT_LIMIT);
    },
    unrelayedContentOf(id: string): ReferenceContent | undefined {
      return unrelayedContent.get(id);
    },
    /** Drops every kept copy: another replica's relay publishes what this one wrote, from the documents. */
    forgetUnrelayedContent(): void {
      unrelayedContent.clear();
    },
    /** Drops the kept copy when it is still `content` (a later write keeps a newer one for its own entries). */
    releaseUnrelayedContent(id: string, content: ReferenceContent): void {
      if (unrelayedContent.get(id) === content) unrelayedContent.delete(id);
    },
    /**
     * Replaces fields of one reference if nobody changed it since `expectedVersion` was read, with
     * its events in the same single-document write.
     */
    async update(id: string, expectedVersion: number, set: Partial<ReferenceDocument>, events: OutboxEntry[] = [], extra: Document = {}): Promise<void> {
      const update: Document = { $set: { ...set, ...stamp(), ...(events.length > 0 ? { [OUTBOX_PENDING_FIELD]: true } : {}) }, ...extra };
      if (events.length > 0) update.$push = { ...(extra.$push as Document | undefined), ...pushToOutbox(events).$push };
      forget([id]);
      const result = await references.updateOne(fenced({ _id: id, version: expectedVersion }), update);
      if (result.matchedCount === 0) throw new ConcurrentChangeError(id);
    },
    /**
     * `update` for many references in one bulk write; answers the ids another writer changed since
     * their expected version (recognised by the absence of the write's `marker` enhancement id).
     * A write's `after` (the document as the write leaves it, outbox aside) is kept for
     * `getManyHeld` when every write matched.
     */
    async updateVersionedMany(
      writes: ReadonlyArray<{ id: string; expectedVersion: number; set: Partial<ReferenceDocument>; events: OutboxEntry[]; push: Document; marker: string; after?: ReferenceDocument }>,
    ): Promise<string[]> {
      if (writes.length === 0) return [];
      const numbers = forget(writes.map((write) => write.id));
      const token = stamp();
      const tenure = fence?.tenure();
      const result = await references.bulkWrite(
        writes.map((write) => {
          const outbox = pushToOutbox(write.events);
          return { updateOne: { filter: fenced({ _id: write.id, version: write.expectedVersion }), update: { $set: { ...write.set, ...token }, $push: { ...write.push, ...outbox.$push }, $max: outbox.$max } } };
        }),
        { ordered: false },
      );
      if (result.matchedCount === writes.length) {
        if (tenure !== undefined) keep(writes.flatMap((write) => (write.after ? [{ ...write.after, ...token }] : [])), numbers, tenure);
        return [];
      }
      const rows = await this.getMany(writes.map((write) => write.id));
      const written = new Set(rows.filter((row) => row.enhancements.some((enhancement) => enhancement.id === writes.find((write) => write.id === row._id)?.marker)).map((row) => row._id));
      return writes.map((write) => write.id).filter((id) => !written.has(id));
    },
    /**
     * Versioned single-reference updates in one bulk write, fenced and stamped; answers how many
     * matched. An operation's `after` (the document as the write leaves it, outbox aside) is kept
     * for `getManyHeld` when every operation matched: the next deduplication job meets the
     * canonicals this one decided among its candidates.
     */
    async updateMany(operations: ReadonlyArray<{ filter: Document; update: Document; after?: ReferenceDocument }>): Promise<number> {
      if (operations.length === 0) return 0;
      const ids = operations.map((operation) => operation.filter._id as unknown);
      let numbers = new Map<string, number>();
      if (ids.every((id) => typeof id === 'string')) numbers = forget(ids as string[]);
      else recentlyStored.clear();
      const token = stamp();
      const tenure = fence?.tenure();
      const result = await references.bulkWrite(
        operations.map((operation) => ({ updateOne: { filter: fenced(operation.filter), update: { ...operation.update, $set: { ...(operation.update.$set as Document | undefined), ...token } } } })),
        { ordered: false },
      );
      if (result.matchedCount === operations.length && tenure !== undefined) {
        keep(operations.flatMap((operation) => (operation.after ? [{ ...operation.after, ...token }] : [])), numbers, tenure);
      }
      return result.matchedCount;
    },
  };
}

export type ReferenceRepository = ReturnType<typeof createReferenceRepository>;
