import { uuidv7, type PendingEnhancementStatus } from '@destiny/contracts';
import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import { COLLECTIONS, isDuplicateKeyError, type PendingEnhancementDocument } from './collections';

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

export function createPendingEnhancementRepository(db: Db) {
  const pending: Collection<PendingEnhancementDocument> = db.collection(COLLECTIONS.pending);

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
      lease_expiry: null,
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
     * Claims the given rows for a batch; the filter makes each row's claim atomic, so a row taken
     * by a concurrent poll is simply not matched here.
     */
    async claim(candidates: ReadonlyArray<Pick<PendingEnhancementDocument, '_id' | 'reference_id'>>, batchId: string, expiresAt: Date): Promise<Array<Pick<PendingEnhancementDocument, '_id' | 'reference_id'>>> {
      if (candidates.length === 0) return [];
      const result = await pending.updateMany(
        { _id: { $in: candidates.map((candidate) => candidate._id) }, status: 'pending', robot_enhancement_batch_id: null },
        { $set: { status: 'processing', robot_enhancement_batch_id: batchId, expires_at: expiresAt, lease_expiry: expiresAt, queue_order: null } },
      );
      // Read back only when a concurrent poll took some of them.
      if (result.modifiedCount === candidates.length) return [...candidates];
      return pending.find({ robot_enhancement_batch_id: batchId }, { projection: { _id: 1, reference_id: 1 } }).toArray();
    },

    ofBatch(batchId: string): Promise<PendingEnhancementDocument[]> {
      return pending.find({ robot_enhancement_batch_id: batchId }).toArray();
    },

    statusesOfRequest(requestId: string): Promise<PendingEnhancementStatus[]> {
      return pending.distinct('status', { enhancement_request_id: requestId }) as Promise<PendingEnhancementStatus[]>;
    },

    async statusCountsOfRequest(requestId: string): Promise<Record<string, number>> {
      const rows = await pending.aggregate<{ _id: string; count: number }>([{ $match: { enhancement_request_id: requestId } }, { $group: { _id: '$status', count: { $sum: 1 } } }]).toArray();
      return Object.fromEntries(rows.map((row) => [row._id, row.count]));
    },

    /** Live leases of a batch get a new expiry; answers how many (§12.7). */
    async renew(batchId: string, now: Date, expiresAt: Date): Promise<number> {
      const result = await pending.updateMany(
        { robot_enhancement_batch_id: batchId, status: 'processing', lease_expiry: { $gt: now } },
        { $set: { expires_at: expiresAt, lease_expiry: expiresAt } },
      );
      return result.modifiedCount;
    },

    /** Moves rows of a batch between statuses; `liveOnly` excludes leases that have passed. */
    async transition(filter: { batchId?: string; ids?: readonly string[] }, from: readonly PendingEnhancementStatus[], to: PendingEnhancementStatus, now: Date, extra: Partial<PendingEnhancementDocument> = {}): Promise<number> {
      const query: Record<string, unknown> = { status: { $in: [...from] } };
      if (filter.batchId) query.robot_enhancement_batch_id = filter.batchId;
      if (filter.ids) query._id = { $in: [...filter.ids] };
      // A processing row whose lease has passed is expired, whether or not the sweep ran.
      if (from.length === 1 && from[0] === 'processing') query.lease_expiry = { $gt: now };
      else if (from.includes('processing')) query.$or = [{ status: { $ne: 'processing' } }, { lease_expiry: { $gt: now } }];
      const set: Record<string, unknown> = { status: to, ...extra };
      if (to !== 'processing') set.lease_expiry = null;
      const result = await pending.updateMany(query, { $set: set });
      return result.modifiedCount;
    },

    /**
     * Expires passed leases (§12.8): replacements first (idempotent by `retry:<id>`), then the
     * expired status, so a crash in between leaves nothing lost and nothing doubled.
     */
    async expireDue(now: Date, robotId?: string): Promise<number> {
      const filter: Record<string, unknown> = { lease_expiry: { $lte: now } };
      if (robotId) filter.robot_id = robotId;
      let total = 0;
      for (;;) {
        const due = await pending.find(filter).limit(5000).toArray();
        if (due.length === 0) return total;
        const replacements = due
          .filter((row) => row.status === 'processing' && row.retry_depth < MAX_RETRY_DEPTH)
          .map((row) => ({
            reference_id: row.reference_id,
            robot_id: row.robot_id,
            enhancement_request_id: row.enhancement_request_id,
            source: row.source,
            retry_of: row._id,
            retry_depth: row.retry_depth + 1,
            dedup_key: `retry:${row._id}`,
          }));
        await this.createMany(replacements);
        const operations: AnyBulkWriteOperation<PendingEnhancementDocument>[] = due.map((row) => ({
          updateOne: {
            filter: { _id: row._id, lease_expiry: { $lte: now } },
            update: row.status === 'processing' ? { $set: { status: 'expired' as const, lease_expiry: null } } : { $set: { lease_expiry: null } },
          },
        }));
        const result = await pending.bulkWrite(operations, { ordered: false });
        total += due.filter((row) => row.status === 'processing').length;
        if (result.modifiedCount === 0) return total;
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
