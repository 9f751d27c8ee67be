import type { Collection, Db, Document, Filter } from 'mongodb';
import type { Logger } from 'pino';
import { isDuplicateKeyError } from '../mongo/duplicate-key-error';
import { createRelayLease } from './outbox-relay.lease';

/** An event waiting inside the document whose change produced it. */
export interface OutboxEntry {
  event_id: string;
  exchange: string;
  routing_key: string;
  payload: unknown;
  created_at: Date;
}

export const OUTBOX_FIELD = '_outbox';

/**
 * Set with every outbox push and cleared by the relay once the document's outbox is empty, so the
 * relay finds waiting events through an index: the `_outbox.0` existence filter cannot use one, and
 * rescanning every document after each change slowed writes as a collection grew. Every collection
 * using the outbox should declare an index on it, e.g.
 * `{ collection, keys: { outbox_pending: 1 }, options: { name: 'outbox_pending' } }`.
 */
export const OUTBOX_PENDING_FIELD = 'outbox_pending';

/**
 * Update fragment that records events in the same single-document write as the state change,
 * so the change and its events are stored together or not at all. The flag is raised with `$max`
 * (true sorts above false and above a missing field) rather than `$set`, so a caller spreading the
 * fragment next to its own `$set` keeps both.
 */
export function pushToOutbox(entries: OutboxEntry[]): { $push: Document; $max: Document } {
  return { $push: { [OUTBOX_FIELD]: { $each: entries } }, $max: { [OUTBOX_PENDING_FIELD]: true } };
}

/** A new document carrying its first events, for an insert: the document and its events are stored together or not at all. */
export function withOutbox<T extends Document>(document: T, entries: OutboxEntry[]): T & { [OUTBOX_FIELD]: OutboxEntry[]; [OUTBOX_PENDING_FIELD]: true } {
  return { ...document, [OUTBOX_FIELD]: entries, [OUTBOX_PENDING_FIELD]: true };
}

export type OutboxPublisher = (entry: OutboxEntry) => Promise<void>;

/** Events the broker kept refusing while it took others, set aside with the error, for an operator to read. */
export const OUTBOX_DEAD_LETTERS_COLLECTION = 'outbox_dead_letters';
const DEFAULT_MAX_REFUSALS = 10;
/** Largest payload kept in a dead letter (its JSON); past it only the size is kept. */
const DEAD_LETTER_PAYLOAD_LIMIT = 1024 * 1024;

export interface OutboxRelay {
  /** Wakes the relay now instead of at its next interval. */
  notify(): void;
  /** One pass over every collection; resolves with the number of events published. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Publishes outbox entries with confirms, then removes them. A crash between the two publishes
 * the entry again after restart, so consumers deduplicate by event id.
 */
export function startOutboxRelay(options: {
  db: Db;
  collections: readonly string[];
  publish: OutboxPublisher;
  logger: Logger;
  intervalMs?: number;
  batchSize?: number;
  /**
   * Completes an entry stored in a compact form from the document that holds it; when given, the
   * relay reads whole documents instead of their outboxes only.
   */
  expand?(entry: OutboxEntry, document: Document): OutboxEntry;
  /**
   * Completes an entry (as `expand` would) from what the writer kept in memory, or answers null; when
   * given, the relay reads outboxes only and whole documents only where an entry answered null.
   * `last` tells the document's last waiting entry, after which the writer's copy is no longer needed.
   */
  expandFromMemory?(entry: OutboxEntry, documentId: unknown, last: boolean): OutboxEntry | null;
  /** Runs each page when it is background work's turn (see ForegroundPriorityGate); at once when absent. */
  inBackgroundTurn?<T>(step: () => Promise<T>): Promise<T>;
  /**
   * Replicas of one service relay in turn under a lease of this name (see RelayLease): one drains
   * every outbox, the others stand by. Without it every replica's relay drains, and their passes
   * overlapping publish entries twice.
   */
  lease?: { name: string; ttlMs?: number };
  /** Called when another replica's relay holds the lease: this one will not use what it kept for `expandFromMemory`. */
  onStandby?(): void;
  /** Refusals of one event, while the broker takes others, after which it is set aside (default 10). */
  maxRefusals?: number;
}): OutboxRelay {
  const intervalMs = options.intervalMs ?? 500;
  const batchSize = options.batchSize ?? 200;
  const maxRefusals = options.maxRefusals ?? DEFAULT_MAX_REFUSALS;
  /** Publishes accepted so far, and per failing event its refusals and that count at its last failure. */
  let accepted = 0;
  const refusals = new Map<string, { count: number; acceptedThen: number }>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let wakeRequested = false;
  const lease = options.lease ? createRelayLease(options.db, options.lease.name, options.lease.ttlMs ?? 10_000) : undefined;
  /** Whether this relay may drain now: it holds the lease, or there is none. */
  const mayDrain = async (): Promise<boolean> => {
    if (!lease || (await lease.acquire())) return true;
    options.onStandby?.();
    return false;
  };

  /**
   * Raises the flag on documents whose events were pushed before the flag existed; one unindexed
   * scan per collection at start-up instead of one per pass.
   */
  const flagged = new Set<string>();
  async function flagLegacyEntries(name: string): Promise<void> {
    if (flagged.has(name)) return;
    await options.db.collection(name).updateMany({ [`${OUTBOX_FIELD}.0`]: { $exists: true }, [OUTBOX_PENDING_FIELD]: { $ne: true } } as Filter<Document>, { $set: { [OUTBOX_PENDING_FIELD]: true } });
    flagged.add(name);
  }

  /**
   * Publishes a document's entries in order; returns the ids done (published, or set aside) before
   * any failure.
   */
  async function publishEntries(collection: string, documentId: unknown, entries: OutboxEntry[]): Promise<string[]> {
    const done: string[] = [];
    for (const entry of entries) {
      try {
        await options.publish(entry);
        accepted += 1;
        refusals.delete(entry.event_id);
        done.push(entry.event_id);
      } catch (error) {
        if (!(await setAsideIfRefused(collection, documentId, entry, error))) break;
        done.push(entry.event_id);
      }
    }
    return done;
  }

  /**
   * Counts a failed publish, and once one event has failed `maxRefusals` times while the broker
   * took other events in between (so it is this event, not the broker, e.g. one over the broker's
   * message size), stores it in `outbox_dead_letters` and reports it done, so the entries behind
   * it and the pages after it are not held up for good. A broker that takes nothing counts nothing.
   */
  async function setAsideIfRefused(collection: string, documentId: unknown, entry: OutboxEntry, error: unknown): Promise<boolean> {
    const previous = refusals.get(entry.event_id);
    const count = !previous ? 1 : previous.count + (accepted > previous.acceptedThen ? 1 : 0);
    refusals.set(entry.event_id, { count, acceptedThen: accepted });
    if (count < maxRefusals) {
      options.logger.warn({ err: error, event_id: entry.event_id }, 'outbox publish failed; will retry');
      return false;
    }
    const payloadJson = JSON.stringify(entry.payload) ?? 'null';
    const record = {
      _id: entry.event_id,
      collection,
      document_id: documentId,
      exchange: entry.exchange,
      routing_key: entry.routing_key,
      created_at: entry.created_at,
      // A payload too large to keep beside it is what a later change of the document republishes anyway.
      ...(Buffer.byteLength(payloadJson) <= DEAD_LETTER_PAYLOAD_LIMIT ? { payload_json: payloadJson } : { payload_bytes: Buffer.byteLength(payloadJson) }),
      error: error instanceof Error ? error.message : String(error),
      refusals: count,
      dead_lettered_at: new Date(),
    };
    try {
      await options.db.collection(OUTBOX_DEAD_LETTERS_COLLECTION).insertOne(record as never);
    } catch (insertError) {
      if (!isDuplicateKeyError(insertError)) throw insertError;
    }
    refusals.delete(entry.event_id);
    options.logger.error({ err: error, event_id: entry.event_id, collection, refusals: count }, `outbox event set aside in ${OUTBOX_DEAD_LETTERS_COLLECTION} after the broker refused it ${count} times while taking others`);
    return true;
  }

  const outboxOf = (document: Document) => (document[OUTBOX_FIELD] ?? []) as OutboxEntry[];

  /** Each document's entries as stored and as published: completed from memory where possible, else from the whole document. */
  async function completeEntries(collection: Collection<Document>, documents: Document[]): Promise<Array<{ document: Document; entries: OutboxEntry[]; toPublish: OutboxEntry[] }>> {
    const { expand, expandFromMemory } = options;
    if (!expand) return documents.map((document) => ({ document, entries: outboxOf(document), toPublish: outboxOf(document) }));
    const fromMemory = new Map<unknown, OutboxEntry[]>();
    if (expandFromMemory) {
      for (const document of documents) {
        const entries = outboxOf(document);
        const completed = entries.map((entry, index) => expandFromMemory(entry, document._id, index === entries.length - 1));
        if (completed.every((entry) => entry !== null)) fromMemory.set(document._id, completed as OutboxEntry[]);
      }
    }
    const unread = documents.filter((document) => !fromMemory.has(document._id)).map((document) => document._id);
    const whole = !expandFromMemory ? documents : unread.length === 0 ? [] : await collection.find({ _id: { $in: unread } }).toArray();
    const wholeById = new Map(whole.map((document) => [document._id, document]));
    return documents.map((document) => {
      const completed = fromMemory.get(document._id);
      if (completed) return { document, entries: outboxOf(document), toPublish: completed };
      // A document gone since the first read has nothing left to publish.
      const current = wholeById.get(document._id) ?? { _id: document._id };
      return { document: current, entries: outboxOf(current), toPublish: outboxOf(current).map((entry) => expand(entry, current)) };
    });
  }

  /** Publishes and clears one page of waiting documents; `more` when another page may be waiting. */
  async function drainPage(collection: Collection<Document>): Promise<{ published: number; more: boolean }> {
    const documents = await collection
      .find({ [OUTBOX_PENDING_FIELD]: true } as Filter<Document>, options.expand && !options.expandFromMemory ? {} : { projection: { [OUTBOX_FIELD]: 1 } })
      .limit(batchSize)
      .toArray();
    if (documents.length === 0) return { published: 0, more: false };
    const outcomes = await Promise.all((await completeEntries(collection, documents)).map(async ({ document, entries, toPublish }) => ({ document, entries, done: await publishEntries(collection.collectionName, document._id, toPublish) })));
    // All in one command: a document whose outbox still holds exactly the entries read is emptied
    // and unflagged at once; otherwise the published ones are pulled and the flag stays for the
    // next pass. "Exactly" is the last entry read still last, at its index: entries are only
    // appended, so a later one would sit past it; a length check alone is not enough when another
    // replica's relay pulled entries meanwhile (an entry appended since would fill the freed
    // place and be cleared unpublished). Documents whose outboxes held as many entries share one
    // statement (usually one for the whole page): the store compiles one filter instead of one per
    // document; event ids are unique, so one document's last id cannot match another's.
    const complete = outcomes.filter((item) => item.done.length === item.entries.length);
    const completeByLength = new Map<number, { ids: unknown[]; lastEventIds: string[] }>();
    for (const { document, entries } of complete) {
      const group = completeByLength.get(entries.length) ?? { ids: [], lastEventIds: [] };
      group.ids.push(document._id);
      // An outbox a pull emptied (its flag still up) has no last entry: it is unflagged if still empty.
      if (entries.length > 0) group.lastEventIds.push(entries[entries.length - 1].event_id);
      completeByLength.set(entries.length, group);
    }
    const clears = [...completeByLength].map(([length, { ids, lastEventIds }]) => ({
      updateMany: {
        filter: { _id: { $in: ids }, ...(length > 0 ? { [`${OUTBOX_FIELD}.${length - 1}.event_id`]: { $in: lastEventIds } } : {}), [`${OUTBOX_FIELD}.${length}`]: { $exists: false } },
        update: { $set: { [OUTBOX_FIELD]: [], [OUTBOX_PENDING_FIELD]: false } },
      },
    }));
    const cleared = clears.length > 0 ? (await collection.bulkWrite(clears as never, { ordered: false })).matchedCount : 0;
    // What the clear left (an entry appended meanwhile, a publish that failed midway) is pulled by
    // event id, in one statement for the page: ids are unique, so each document loses only its own
    // published entries, and one the clear emptied no longer matches. (Which documents the clear
    // matched is not reported, so every one with published entries is named.)
    const pulled = outcomes.filter((item) => item.done.length > 0 && (item.done.length < item.entries.length || cleared < complete.length));
    if (pulled.length > 0) {
      const eventIds = pulled.flatMap((item) => item.done);
      await collection.updateMany({ _id: { $in: pulled.map((item) => item.document._id) }, [`${OUTBOX_FIELD}.event_id`]: { $in: eventIds } } as Filter<Document>, { $pull: { [OUTBOX_FIELD]: { event_id: { $in: eventIds } } } } as never);
    }
    const published = outcomes.reduce((sum, item) => sum + item.done.length, 0);
    // A failed publish, or a full page that changed nothing (every document refilled meanwhile), waits for the next pass.
    return { published, more: complete.length === outcomes.length && cleared > 0 && documents.length === batchSize };
  }

  async function drainCollection(name: string): Promise<number> {
    await flagLegacyEntries(name);
    const collection = options.db.collection(name);
    const turn = options.inBackgroundTurn ?? (<T>(step: () => Promise<T>) => step());
    let published = 0;
    for (;;) {
      // A pass can outlast the lease: each page checks it (renewing it as it runs low).
      if (!(await mayDrain())) return published;
      const page = await turn(() => drainPage(collection));
      published += page.published;
      if (!page.more) return published;
    }
  }

  async function drainAll(): Promise<number> {
    if (!(await mayDrain())) return 0;
    let total = 0;
    for (const name of options.collections) total += await drainCollection(name);
    return total;
  }

  function schedule(delay: number) {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => void tick(), delay);
  }

  async function tick(): Promise<void> {
    if (running) {
      wakeRequested = true;
      return;
    }
    running = drainAll().catch((error: unknown) => {
      options.logger.warn({ err: error }, 'outbox relay pass failed');
      return 0;
    });
    await running;
    running = undefined;
    if (wakeRequested) {
      wakeRequested = false;
      schedule(0);
    } else schedule(intervalMs);
  }

  schedule(0);
  return {
    notify: () => schedule(0),
    async drain() {
      while (running) await running;
      return drainAll();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      if (running) await running;
      // Another replica's relay takes over at its next pass instead of when the lease expires.
      await lease?.release().catch((error: unknown) => options.logger.warn({ err: error }, 'outbox relay lease not released; it expires instead'));
    },
  };
}
