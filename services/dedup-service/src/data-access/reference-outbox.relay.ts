import { OUTBOX_FIELD, type Logger, type OutboxEntry, type OutboxPublisher, type OutboxRelay } from '@destiny/platform';
import type { Db, Document } from 'mongodb';
import { COLLECTIONS } from './collections';

/**
 * Set together with every outbox push on a reference and cleared once its outbox is empty, so the
 * relay finds waiting events through an index instead of scanning every reference.
 */
export const OUTBOX_PENDING_FIELD = 'outbox_pending';

/**
 * The outbox relay of the references collection: like the platform's `startOutboxRelay` (publish
 * with confirms, then `$pull`; a crash in between publishes again and consumers deduplicate by
 * event id), but it selects documents by the indexed `outbox_pending` flag. The generic relay's
 * `_outbox.0` existence filter cannot use an index, and rescanning 100k large references after
 * every change made imports slow down as the store grew.
 */
export function startReferenceOutboxRelay(options: { db: Db; publish: OutboxPublisher; logger: Logger; intervalMs?: number; batchSize?: number }): OutboxRelay {
  const collection = options.db.collection(COLLECTIONS.references);
  const intervalMs = options.intervalMs ?? 500;
  const batchSize = options.batchSize ?? 500;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let wakeRequested = false;

  async function drainAll(): Promise<number> {
    let published = 0;
    for (;;) {
      const documents = await collection
        .find({ [OUTBOX_PENDING_FIELD]: true }, { projection: { [OUTBOX_FIELD]: 1 } })
        .limit(batchSize)
        .toArray();
      if (documents.length === 0) return published;
      let progressed = false;
      for (const document of documents) {
        const entries = (document[OUTBOX_FIELD] ?? []) as OutboxEntry[];
        const done: string[] = [];
        for (const entry of entries) {
          try {
            await options.publish(entry);
            done.push(entry.event_id);
          } catch (error) {
            options.logger.warn({ err: error, event_id: entry.event_id }, 'outbox publish failed; will retry');
            return published;
          }
        }
        if (done.length > 0) {
          await collection.updateOne({ _id: document._id }, { $pull: { [OUTBOX_FIELD]: { event_id: { $in: done } } } } as Document);
          published += done.length;
        }
        // Cleared only when nothing arrived meanwhile; a newer event keeps the flag for the next pass.
        const cleared = await collection.updateOne({ _id: document._id, [`${OUTBOX_FIELD}.0`]: { $exists: false } }, { $set: { [OUTBOX_PENDING_FIELD]: false } });
        progressed ||= done.length > 0 || cleared.modifiedCount > 0;
      }
      if (!progressed || documents.length < batchSize) return published;
    }
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
    },
  };
}
