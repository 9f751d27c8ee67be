// The writer lease: one MongoDB document that lets one dedup-service replica at a time run the
// work that reads references, decides and writes (ingestion, enhancements, duplicate decisions).
// A holder renews it while it works; a crashed holder's lease simply expires. Every acquisition
// increments a fencing token, and reference writes carry it in their filter (`fencedFilter`), so a
// holder that lost its lease without noticing (paused past the expiry) cannot overwrite what a
// newer holder wrote.
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Collection, Db, Document } from 'mongodb';
import { COLLECTIONS } from './collections';

interface LeaseDocument {
  _id: string;
  owner: string | null;
  token: number;
  expires_at: Date;
}

const LEASE_ID = 'dedup-service.writer';

/** Thrown when work would write without holding the lease (lost, expired or never taken); retryable. */
export class WriterLeaseLostError extends Error {
  constructor(detail: string) {
    super(`the dedup-service writer lease is not held: ${detail}`);
    this.name = 'WriterLeaseLostError';
  }
}

export interface WriterLeaseOptions {
  /** How long a lease lasts without renewal; a crashed holder blocks the others this long at most. */
  ttlMs: number;
  /** Identifies this replica in the lease document. */
  owner?: string;
  /** Pause between attempts while another replica holds the lease. */
  pollMs?: number;
  /** Longest continuous hold while work keeps queueing here, before the lease is offered to the others. */
  maxHoldMs?: number;
}

/**
 * Work of one lane runs one at a time, in order. The two lanes run side by side under the one
 * lease: `references` changes reference content (ingestion, enhancements), `decisions` decides
 * duplicates. Where both write one document (a reference's version, its outbox) the write is
 * conditional on the version read, so a clash fails one of them, and its caller retries.
 */
export type WriterLane = 'references' | 'decisions';

export interface WriterLease {
  /** Runs `work` while this replica alone holds the lease, after the earlier work of its lane. */
  exclusive<T>(work: () => Promise<T>, lane?: WriterLane): Promise<T>;
  /** The fencing token of the lease held now; throws when it is not held or may have expired. */
  token(): number;
  /**
   * Changes whenever another replica may have held the lease since this one last did (a token
   * that is not the previous one plus one); the same while only this replica has written.
   */
  tenure(): number;
  /** `filter` plus the condition that no newer holder has written the document. */
  fencedFilter(filter: Document): Document;
  /** The field that records the token of a document's last writer. */
  readonly tokenField: string;
  stop(): Promise<void>;
}

export const WRITER_TOKEN_FIELD = 'writer_token';

export function createWriterLease(db: Db, options: WriterLeaseOptions): WriterLease {
  const leases: Collection<LeaseDocument> = db.collection(COLLECTIONS.leases);
  const owner = options.owner ?? randomUUID();
  const pollMs = options.pollMs ?? 20;
  const maxHoldMs = options.maxHoldMs ?? 2000;
  // The local deadline stops writes a safety margin before the stored expiry (clock drift, pauses).
  const marginMs = Math.max(50, Math.floor(options.ttlMs / 5));
  let held: { token: number; since: number; deadline: number } | null = null;
  let lastToken: number | null = null;
  let tenure = 0;
  let renewal: NodeJS.Timeout | undefined;
  const tails = new Map<WriterLane, Promise<unknown>>();
  /** Work queued or running, in every lane: the lease is released when none is left. */
  let waiting = 0;
  /** Work running now, in every lane. */
  let running = 0;
  let whenIdle: (() => void) | null = null;
  /** An acquisition or hand-over in progress: new work waits for it. */
  let changing: Promise<void> | null = null;
  let stopped = false;

  async function tryAcquire(): Promise<boolean> {
    const now = Date.now();
    try {
      const row = await leases.findOneAndUpdate(
        { _id: LEASE_ID, $or: [{ owner: null }, { expires_at: { $lte: new Date(now) } }] },
        { $set: { owner, expires_at: new Date(now + options.ttlMs) }, $inc: { token: 1 } },
        { upsert: true, returnDocument: 'after' },
      );
      if (!row) return false;
      held = { token: row.token, since: now, deadline: now + options.ttlMs - marginMs };
      if (lastToken === null || row.token !== lastToken + 1) tenure += 1;
      lastToken = row.token;
      return true;
    } catch (error) {
      // The upsert collides with the existing document when another replica holds the lease.
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  async function acquire(): Promise<void> {
    while (!(await tryAcquire())) {
      if (stopped) throw new WriterLeaseLostError('the service is stopping');
      await delay(pollMs + Math.floor(Math.random() * pollMs), undefined, { ref: false });
    }
    renewal = setInterval(() => void renew(), Math.max(10, Math.floor(options.ttlMs / 3)));
    renewal.unref();
  }

  async function renew(): Promise<void> {
    const current = held;
    if (!current) return;
    const now = Date.now();
    try {
      const row = await leases.findOneAndUpdate({ _id: LEASE_ID, owner, token: current.token }, { $set: { expires_at: new Date(now + options.ttlMs) } }, { returnDocument: 'after' });
      if (held !== current) return;
      // Taken over (we were paused past the expiry): from now on every fenced write of ours fails.
      if (!row) held = { ...current, deadline: 0 };
      else current.deadline = now + options.ttlMs - marginMs;
    } catch {
      // A failed renewal leaves the deadline where it was; the lease runs out unless a later one succeeds.
    }
  }

  async function release(): Promise<void> {
    const current = held;
    held = null;
    clearInterval(renewal);
    renewal = undefined;
    if (!current) return;
    await leases.updateOne({ _id: LEASE_ID, owner, token: current.token }, { $set: { owner: null, expires_at: new Date(0) } }).catch(() => undefined);
  }

  const due = (lease: NonNullable<typeof held>) => Date.now() > lease.deadline || Date.now() - lease.since > maxHoldMs;

  /**
   * Waits until work may run under the lease. The lease changes hands only while no work runs
   * (work that began under one token never goes on under the next), so a lost or long-held
   * lease first lets the running work of the other lane finish.
   */
  async function enter(): Promise<void> {
    for (;;) {
      if (changing) {
        await changing;
        continue;
      }
      if (held && !due(held)) {
        running += 1;
        return;
      }
      changing = (async () => {
        if (running > 0) await new Promise<void>((resolve) => (whenIdle = resolve));
        if (held && due(held)) {
          // Lost, or held long enough: let a waiting replica in before taking it again.
          const handOver = Date.now() <= held.deadline;
          await release();
          if (handOver) await delay(pollMs * 3, undefined, { ref: false });
        }
        if (!held) await acquire();
      })().finally(() => {
        changing = null;
      });
      await changing;
    }
  }

  function leave(): void {
    running -= 1;
    if (running === 0 && whenIdle) {
      const resolve = whenIdle;
      whenIdle = null;
      resolve();
    }
  }

  async function run<T>(work: () => Promise<T>): Promise<T> {
    let entered = false;
    try {
      await enter();
      entered = true;
      return await work();
    } finally {
      if (entered) leave();
      waiting -= 1;
      // Nothing more queued here: free the lease for the other replicas.
      if (waiting === 0) await release();
    }
  }

  return {
    exclusive<T>(work: () => Promise<T>, lane: WriterLane = 'references'): Promise<T> {
      waiting += 1;
      const result = (tails.get(lane) ?? Promise.resolve()).then(() => run(work));
      tails.set(
        lane,
        result.catch(() => undefined),
      );
      return result;
    },
    token() {
      if (!held) throw new WriterLeaseLostError('no lease is held');
      if (Date.now() > held.deadline) throw new WriterLeaseLostError('the lease may have expired');
      return held.token;
    },
    tenure() {
      this.token();
      return tenure;
    },
    fencedFilter(filter) {
      const token = this.token();
      return { $and: [filter, { $or: [{ [WRITER_TOKEN_FIELD]: { $exists: false } }, { [WRITER_TOKEN_FIELD]: { $lte: token } }] }] };
    },
    tokenField: WRITER_TOKEN_FIELD,
    async stop() {
      stopped = true;
      await Promise.all(tails.values());
      await release();
    },
  };
}
