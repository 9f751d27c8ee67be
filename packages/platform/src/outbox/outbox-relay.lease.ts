import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from '../mongo/duplicate-key-error';

/** Where the relays of every service keep their turn leases, one document per service. */
export const OUTBOX_RELAY_LEASES_COLLECTION = 'outbox_relay_leases';

const STANDBY_RECHECK_MS = 1000;

interface RelayLeaseDocument {
  _id: string;
  owner: string;
  expires_at: Date;
}

/**
 * Lets one replica's relay at a time drain a service's outboxes. Each pass reads every waiting
 * outbox, so two relays passing at once publish the same entries twice; the others stand by and
 * take over when the holder releases the lease on stop (within a second), or when it expires after a crash.
 */
export interface RelayLease {
  /** True while this relay holds the lease, renewing it when half its time is gone; false while another does. */
  acquire(): Promise<boolean>;
  release(): Promise<void>;
}

export function createRelayLease(db: Db, name: string, ttlMs: number): RelayLease {
  const leases: Collection<RelayLeaseDocument> = db.collection(OUTBOX_RELAY_LEASES_COLLECTION);
  const owner = randomUUID();
  // Until when this relay holds the lease by its own clock, and until when another one does.
  let heldUntil = 0;
  let standbyUntil = 0;

  return {
    async acquire() {
      const now = Date.now();
      if (heldUntil - now > ttlMs / 2) return true;
      if (heldUntil === 0 && now < standbyUntil) return false;
      try {
        // Upserting a lease another owner holds unexpired collides on _id instead of taking it.
        await leases.updateOne({ _id: name, $or: [{ owner }, { expires_at: { $lte: new Date(now) } }] }, { $set: { owner, expires_at: new Date(now + ttlMs) } }, { upsert: true });
        heldUntil = now + ttlMs;
        return true;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        heldUntil = 0;
        // Asked again once the holder's lease would expire, and at least every second meanwhile: a
        // holder that stops cleanly releases it early.
        const holder = await leases.findOne({ _id: name });
        standbyUntil = Math.min(holder ? holder.expires_at.getTime() : now, now + Math.min(ttlMs, STANDBY_RECHECK_MS));
        return false;
      }
    },
    async release() {
      if (heldUntil === 0) return;
      heldUntil = 0;
      await leases.updateOne({ _id: name, owner }, { $set: { expires_at: new Date(0) } });
    },
  };
}
