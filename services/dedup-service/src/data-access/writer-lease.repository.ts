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

export interface WriterLease {
  /** Runs `work` alone among all replicas (and in this process), holding the lease throughout. */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
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
  let tail: Promise<unknown> = Promise.resolve();
  let waiting = 0;
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

  async function run<T>(work: () => Promise<T>): Promise<T> {
    try {
      if (held && (Date.now() > held.deadline || Date.now() - held.since > maxHoldMs)) {
        // Lost, or held long enough: let a waiting replica in before taking it again.
        const handOver = Date.now() <= held.deadline;
        await release();
        if (handOver) await delay(pollMs * 3, undefined, { ref: false });
      }
      if (!held) await acquire();
      return await work();
    } finally {
      waiting -= 1;
      // Nothing more queued here: free the lease for the other replicas.
      if (waiting === 0) await release();
    }
  }

  return {
    exclusive<T>(work: () => Promise<T>): Promise<T> {
      waiting += 1;
      const result = tail.then(() => run(work));
      tail = result.catch(() => undefined);
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
      await tail;
      await release();
    },
  };
}
