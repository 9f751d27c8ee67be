import { uuidv7, type PendingEnhancementStatus } from '@destiny/contracts';
import type { Collection, Db, Filter } from 'mongodb';
import { COLLECTIONS, isDuplicateKeyError, UNREVEALED_BATCH_STATUSES, type BatchStatus, type PendingEnhancementDocument, type RobotBatchDocument } from './collections';

/** Replacements are made while the chain behind an expired one is shorter than this (§12.8). */
export const MAX_RETRY_DEPTH = 3;

export interface NewPendingEnhancement {
  reference_id: string;
  robot_id: string;
  enhancement_request_id: string | null;
  source: string | null;
  dedup_key?: string;
  retry_of?: string | null;
  retry_depth?: number;
}

const queueOrder = (robotId: string, id: string) => `${robotId}|${id}`;

/**
 * What a row still marked `processing` is, as request statuses count it: its batch carries the
 * later states. An expired batch's rows count as processing until their replacements exist.
 */
export function leasedRowStatus(batchStatus: BatchStatus | undefined): PendingEnhancementStatus {
  if (batchStatus !== undefined && UNREVEALED_BATCH_STATUSES.includes(batchStatus)) return 'pending';
  return batchStatus === 'importing' || batchStatus === 'failed' ? batchStatus : 'processing';
}

/** Due leases handled per sweep read. */
const EXPIRY_PAGE = 100;

export function createPendingEnhancementRepository(db: Db) {
  const pending: Collection<PendingEnhancementDocument> = db.collection(COLLECTIONS.pending);
  const batches: Collection<RobotBatchDocument> = db.collection(COLLECTIONS.batches);

  function document(input: NewPendingEnhancement, now: Date): PendingEnhancementDocument {
    const id = uuidv7(now.getTime());
    return {
      _id: id,
      reference_id: input.reference_id,
      robot_id: input.robot_id,
      enhancement_request_id: input.enhancement_request_id,
      robot_enhancement_batch_id: null,
      status: 'pending',
      source: input.source,
      expires_at: null,
      retry_of: input.retry_of ?? null,
      retry_depth: input.retry_depth ?? 0,
      created_at: now,
      dedup_key: input.dedup_key ?? id,
      queue_order: queueOrder(input.robot_id, id),
    };
  }

  async function settleIndexing(items: ReadonlyArray<{ reference_id: string; version: number }>, status: 'completed' | 'indexing_failed'): Promise<number> {
    if (items.length === 0) return 0;
    const update = { $set: { status, indexing_deadline: null } };
    // Rows wait for their own reference's entry or (duplicates) for the one named in index_reference_id.
    const result = await pending.bulkWrite(
      items.flatMap((item) => [
        { updateMany: { filter: { reference_id: item.reference_id, index_reference_id: { $exists: false }, status: 'indexing' as const, index_version: { $lte: item.version } }, update } },
        { updateMany: { filter: { index_reference_id: item.reference_id, status: 'indexing' as const, index_version: { $lte: item.version } }, update } },
      ]),
      { ordered: false },
    );
    return result.modifiedCount;
  }

  /**
   * A request's rows counted by status, processing rows by the status their batches give them. One
   * read of the rows: counting statuses and leased rows apart let a batch's rows move on in between
   * and vanish from both counts.
   */
  async function statusCounts(requestId: string): Promise<Map<PendingEnhancementStatus, number>> {
    const groups = await pending
      .aggregate<{ _id: { status: PendingEnhancementStatus; batch: string | null }; count: number }>([
        { $match: { enhancement_request_id: requestId } },
        { $group: { _id: { status: '$status', batch: { $cond: [{ $eq: ['$status', 'processing'] }, { $ifNull: ['$robot_enhancement_batch_id', null] }, null] } }, count: { $sum: 1 } } },
      ])
      .toArray();
    const ids = groups.map((group) => group._id.batch).filter((id): id is string => id !== null);
    const batchStatuses = ids.length === 0 ? new Map<string, BatchStatus>() : new Map((await batches.find({ _id: { $in: ids } }, { projection: { status: 1 } }).toArray()).map((batch) => [batch._id, batch.status]));
    const counts = new Map<PendingEnhancementStatus, number>();
    for (const group of groups) {
      const status = group._id.status === 'processing' ? leasedRowStatus(group._id.batch === null ? undefined : batchStatuses.get(group._id.batch)) : group._id.status;
      counts.set(status, (counts.get(status) ?? 0) + group.count);
    }
    return counts;
  }

  return {
    collection: pending,

    /** Inserts what is not there yet (by dedup key); answers how many were new. */
    async createMany(inputs: readonly NewPendingEnhancement[]): Promise<number> {
      if (inputs.length === 0) return 0;
      const now = new Date();
      try {
        const result = await pending.insertMany(inputs.map((input) => document(input, now)), { ordered: false });
        return result.insertedCount;
      } catch (error) {
        if (!isDuplicateKeyError(error) && !(error as { writeErrors?: unknown }).writeErrors) throw error;
        const inserted = (error as { result?: { insertedCount?: number }; insertedCount?: number }).insertedCount ?? (error as { result?: { insertedCount?: number } }).result?.insertedCount;
        const writeErrors = ((error as { writeErrors?: Array<{ code?: number }> | { code?: number } }).writeErrors ?? []) as Array<{ code?: number }> | { code?: number };
        const list = Array.isArray(writeErrors) ? writeErrors : [writeErrors];
        if (list.some((entry) => entry.code !== undefined && entry.code !== 11000)) throw error;
        return inserted ?? inputs.length - list.length;
      }
    },

    /** Oldest pollable pending enhancements of a robot (§12.2 step 1), at most `limit`. */
    candidates(robotId: string, limit: number): Promise<Array<Pick<PendingEnhancementDocument, '_id' | 'reference_id'>>> {
      return pending
        .find({ queue_order: { $gte: `${robotId}|`, $lt: `${robotId}}` } }, { projection: { _id: 1, reference_id: 1 } })
        .sort({ queue_order: 1 })
        .limit(limit)
        .toArray();
    },

    /**
     * Claims the given rows for a batch (whose document, holding the lease, exists already); the
     * filter makes each row's claim atomic, so a row taken by a concurrent poll is not matched here.
     */
    async claim(candidates: ReadonlyArray<Pick<PendingEnhancementDocument, '_id' | 'reference_id'>>, batchId: string): Promise<Array<Pick<PendingEnhancementDocument, '_id' | 'reference_id'>>> {
      if (candidates.length === 0) return [];
      const result = await pending.updateMany(
        { _id: { $in: candidates.map((candidate) => candidate._id) }, status: 'pending', robot_enhancement_batch_id: null },
        { $set: { status: 'processing', robot_enhancement_batch_id: batchId, queue_order: null } },
      );
      // Read back only when a concurrent poll took some of them.
      if (result.modifiedCount === candidates.length) return [...candidates];
      return pending.find({ robot_enhancement_batch_id: batchId }, { projection: { _id: 1, reference_id: 1 } }).toArray();
    },

    /** Gives a batch's claimed rows back to the queue, each at its old place; answers how many. */
    async releaseRows(batchId: string): Promise<number> {
      const rows = await pending.find({ robot_enhancement_batch_id: batchId, status: 'processing' }, { projection: { _id: 1, robot_id: 1 } }).toArray();
      if (rows.length === 0) return 0;
      const result = await pending.bulkWrite(
        rows.map((row) => ({
          updateOne: {
            filter: { _id: row._id, status: 'processing' as const, robot_enhancement_batch_id: batchId },
            update: { $set: { status: 'pending' as const, robot_enhancement_batch_id: null, queue_order: queueOrder(row.robot_id, row._id) } },
          },
        })),
        { ordered: false },
      );
      return result.modifiedCount;
    },

    /**
     * Gives back a batch no robot was answered with (prepared ahead and not handed out, or a claim
     * that failed before its answer): it becomes `releasing` where `condition` (its status included)
     * still holds, the one write a hand-out races with; then its rows return to their queue places
     * and it is deleted. A batch already `releasing` is finished. False when a hand-out (or another
     * release) took it first.
     */
    async releaseBatch(batchId: string, condition: Filter<RobotBatchDocument>): Promise<boolean> {
      const taken = await batches.updateOne({ ...condition, _id: batchId }, { $set: { status: 'releasing' } });
      if (taken.modifiedCount === 0 && (await batches.findOne({ _id: batchId }, { projection: { status: 1 } }))?.status !== 'releasing') return false;
      await this.releaseRows(batchId);
      await batches.deleteOne({ _id: batchId, status: 'releasing' });
      return true;
    },

    ofBatch(batchId: string): Promise<Array<Pick<PendingEnhancementDocument, '_id' | 'reference_id' | 'status'>>> {
      return pending.find({ robot_enhancement_batch_id: batchId }, { projection: { _id: 1, reference_id: 1, status: 1 } }).toArray();
    },

    async statusesOfRequest(requestId: string): Promise<PendingEnhancementStatus[]> {
      return [...(await statusCounts(requestId)).keys()];
    },

    async statusCountsOfRequest(requestId: string): Promise<Record<string, number>> {
      return Object.fromEntries(await statusCounts(requestId));
    },

    /** Moves a batch's rows between statuses; answers how many moved. */
    async transition(batchId: string, from: readonly PendingEnhancementStatus[], to: PendingEnhancementStatus): Promise<number> {
      const result = await pending.updateMany({ robot_enhancement_batch_id: batchId, status: { $in: [...from] } }, { $set: { status: to } });
      return result.modifiedCount;
    },

    /**
     * Expires passed leases (§12.8), a batch at a time: the batch becomes `expired` first (the one
     * write a submission races with, so exactly one of them wins), then its rows get their
     * replacements (idempotent by `retry:<id>`), then the `expired` status, and last the batch
     * leaves the sweep. A crash in between repeats harmlessly. Answers how many batches it saw
     * through, including ones a concurrent sweep had started: their replacements exist on return.
     * A batch prepared ahead that no poll took by its deadline is released instead (no replacement).
     */
    async expireDue(now: Date, robotId?: string): Promise<number> {
      // The lower bound keeps the walk off the batches whose lease is over (null sorts before dates).
      const filter: Record<string, unknown> = { lease_expiry: { $gte: new Date(0), $lte: now } };
      if (robotId) filter.robot_id = robotId;
      let total = 0;
      for (;;) {
        const due = await batches.find(filter, { projection: { _id: 1, status: 1 } }).limit(EXPIRY_PAGE).toArray();
        let expired = 0;
        for (const batch of due) {
          if (UNREVEALED_BATCH_STATUSES.includes(batch.status)) {
            // Prepared ahead and not taken in time: its rows go back where they were.
            if (await this.releaseBatch(batch._id, { status: { $in: ['preparing', 'prepared'] }, lease_expiry: { $lte: now } })) expired += 1;
            continue;
          }
          if (batch.status === 'processing') {
            const claimed = await batches.updateOne({ _id: batch._id, status: 'processing', lease_expiry: { $lte: now } }, { $set: { status: 'expired' } });
            // A concurrent sweep that won the batch may still be making its replacements; making
            // them here too (the retry key makes that idempotent) means none is missing on return.
            if (claimed.modifiedCount === 0 && (await batches.findOne({ _id: batch._id }, { projection: { status: 1 } }))?.status !== 'expired') continue;
          } else if (batch.status !== 'expired') continue;
          const rows = await pending.find({ robot_enhancement_batch_id: batch._id, status: 'processing' }).toArray();
          await this.createMany(
            rows
              .filter((row) => row.retry_depth < MAX_RETRY_DEPTH)
              .map((row) => ({
                reference_id: row.reference_id,
                robot_id: row.robot_id,
                enhancement_request_id: row.enhancement_request_id,
                source: row.source,
                retry_of: row._id,
                retry_depth: row.retry_depth + 1,
                dedup_key: `retry:${row._id}`,
              })),
          );
          await this.transition(batch._id, ['processing'], 'expired');
          await batches.updateOne({ _id: batch._id, status: 'expired' }, { $set: { lease_expiry: null } });
          expired += 1;
        }
        total += expired;
        if (due.length < EXPIRY_PAGE || expired === 0) return total;
      }
    },

    /**
     * Batches leased before the lease moved to the batch document take their rows' lease (run at
     * start, before any sweep); their rows already `importing` stay so and are handled as such.
     */
    async adoptRowLeases(): Promise<void> {
      const legacy = await batches.find({ status: 'processing', lease_expiry: { $exists: false } }, { projection: { _id: 1 } }).toArray();
      for (const batch of legacy) {
        const row = await pending.findOne({ robot_enhancement_batch_id: batch._id, status: 'processing' }, { projection: { lease_expiry: 1 } });
        await batches.updateOne({ _id: batch._id, lease_expiry: { $exists: false } }, { $set: { lease_expiry: row?.lease_expiry ?? new Date(0) } });
      }
    },

    /** Indexing rows waiting for an announced version (or an older one) complete. */
    async completeIndexed(items: ReadonlyArray<{ reference_id: string; version: number }>): Promise<number> {
      return settleIndexing(items, 'completed');
    },

    /** Indexing rows waiting for a version the search index refused (or an older one) fail. */
    async failIndexed(items: ReadonlyArray<{ reference_id: string; version: number }>): Promise<number> {
      return settleIndexing(items, 'indexing_failed');
    },

    /** Indexing rows whose version was not announced by their deadline fail. */
    async failOverdueIndexing(now: Date): Promise<number> {
      const result = await pending.updateMany({ indexing_deadline: { $lte: now }, status: 'indexing' }, { $set: { status: 'indexing_failed', indexing_deadline: null } });
      return result.modifiedCount;
    },
  };
}

export type PendingEnhancementRepository = ReturnType<typeof createPendingEnhancementRepository>;
