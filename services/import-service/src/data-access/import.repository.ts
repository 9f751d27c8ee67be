import { IMPORT_RESULT_STATUSES, type ImportResultStatus } from '@destiny/contracts';
import { isDuplicateKeyError, replyPage, type IndexDeclaration } from '@destiny/platform';
import type { AnyBulkWriteOperation, Db, Document, Filter } from 'mongodb';
import type { FileState } from '../domain/batch-status';

export const COLLECTIONS = { records: 'import_records', batches: 'import_batches', results: 'import_results' } as const;

export const IMPORT_INDEXES: IndexDeclaration[] = [
  { collection: COLLECTIONS.batches, keys: { import_record_id: 1, storage_url: 1 }, options: { unique: true, name: 'record_storage_url' } },
  // Batch jobs wait in their batch's outbox until the broker confirms them.
  { collection: COLLECTIONS.batches, keys: { outbox_pending: 1 }, options: { name: 'batch_outbox_pending' } },
  // (batch id, line number) as one unique key: chunk lookups are point lookups, not a range over the batch.
  { collection: COLLECTIONS.results, keys: { line_key: 1 }, options: { unique: true, name: 'batch_line' } },
  { collection: COLLECTIONS.results, keys: { import_batch_id: 1, status: 1 }, options: { name: 'batch_status' } },
];

export interface ImportRecordDocument {
  _id: string;
  search_string: string | null;
  searched_at: string;
  processor_name: string;
  processor_version: string;
  notes: string | null;
  expected_reference_count: number;
  source_name: string;
  status: 'created' | 'started' | 'completed';
  created_at: Date;
}

export interface ImportBatchDocument {
  _id: string;
  import_record_id: string;
  storage_url: string;
  callback_url: string | null;
  collision_strategy: string;
  /** Next physical line to process: every line before it has its result recorded. */
  next_line: number;
  file_state: FileState;
  /** Why the file could not be read to the end (download failure, size limit). */
  file_failure: string | null;
  /**
   * The process sending the callback and until when it may (renewed before each attempt): one
   * process at a time sends it, and another takes over once a dead sender's lease has run out.
   */
  callback_lease: { owner: string; expires_at: Date } | null;
  /** Callback POSTs started so far. */
  callback_attempts: number;
  /** A POST was started and its answer not yet recorded: if its sender died, it may have arrived. */
  callback_in_flight: boolean;
  /** How the callback ended; null until it was answered 2xx or given up on. */
  callback_outcome: 'delivered' | 'dropped' | null;
  created_at: Date;
}

export interface ImportResultDocument {
  _id: string;
  import_batch_id: string;
  line_number: number;
  /** `<import_batch_id>:<line_number>`, unique. */
  line_key: string;
  status: ImportResultStatus;
  reference_id: string | null;
  failure_details: string | null;
  /** Ingest attempts that failed transiently (`retrying`); absent when the first attempt settled it. */
  attempts?: number;
  created_at: Date;
  updated_at: Date;
}

export function lineKey(batchId: string, lineNumber: number): string {
  return `${batchId}:${lineNumber}`;
}

export function createImportRepository(db: Db) {
  const records = db.collection<ImportRecordDocument>(COLLECTIONS.records);
  const batches = db.collection<ImportBatchDocument>(COLLECTIONS.batches);
  const results = db.collection<ImportResultDocument>(COLLECTIONS.results);
  /**
   * Results per status (statuses without any left out): one count per status, each answered from
   * the `batch_status` index's keys (a COUNT_SCAN), where grouping by status would read every result.
   */
  async function resultCounts(batchId: string): Promise<Map<ImportResultStatus, number>> {
    const counts = await Promise.all(IMPORT_RESULT_STATUSES.map(async (status) => [status, await results.countDocuments({ import_batch_id: batchId, status })] as const));
    return new Map(counts.filter(([, count]) => count > 0));
  }
  /**
   * Results of a batch after line `afterLine` in line order, each as the text `textOf` makes of it
   * (null leaves it out), stopping once the page holds `maxBytes` (always at least one): a batch
   * may hold hundreds of thousands of results, more than one reply can carry.
   */
  async function resultTextPage(
    batchId: string,
    options: { afterLine: number; maxBytes: number; filter?: Filter<ImportResultDocument>; projection?: Document; textOf(row: ImportResultDocument): string | null },
  ): Promise<{ texts: string[]; more: boolean; lastLine: number }> {
    // A cursor, not toArray: the page stops reading at the budget.
    const cursor = results.find({ ...options.filter, import_batch_id: batchId, line_number: { $gt: options.afterLine } }, options.projection ? { projection: options.projection } : {}).sort({ line_number: 1 });
    try {
      const page = await replyPage(cursor, options.textOf, options.maxBytes);
      return { texts: page.texts, more: page.more, lastLine: page.last?.line_number ?? options.afterLine };
    } finally {
      await cursor.close();
    }
  }
  /** The failure details of the failed and partially failed results, paged as `resultTextPage`. */
  async function failureDetailsPage(batchId: string, afterLine: number, maxBytes: number): Promise<{ details: string[]; more: boolean; lastLine: number }> {
    const page = await resultTextPage(batchId, {
      afterLine,
      maxBytes,
      filter: { status: { $in: ['failed', 'partially_failed'] } },
      projection: { failure_details: 1, line_number: 1 },
      textOf: (row) => (typeof row.failure_details === 'string' ? row.failure_details : null),
    });
    return { details: page.texts, more: page.more, lastLine: page.lastLine };
  }
  return {
    records,
    batches,
    results,
    async resultStatuses(batchId: string): Promise<Set<ImportResultStatus>> {
      return new Set((await resultCounts(batchId)).keys());
    },
    resultCounts,
    async failureDetails(batchId: string): Promise<string[]> {
      return (await failureDetailsPage(batchId, 0, Infinity)).details;
    },
    failureDetailsPage,
    resultTextPage,
    async resultsForLines(batchId: string, lineNumbers: readonly number[]): Promise<ImportResultDocument[]> {
      return results.find({ line_key: { $in: lineNumbers.map((line) => lineKey(batchId, line)) } }).toArray();
    },
    async writeResults(operations: AnyBulkWriteOperation<ImportResultDocument>[]): Promise<void> {
      if (operations.length > 0) await results.bulkWrite(operations, { ordered: false });
    },
    /**
     * Inserts results and answers those whose line already had a row: one an earlier attempt at
     * the same line wrote under the same id, final or a placeholder (`retrying`, `started`) of an
     * attempt that stopped before recording it.
     */
    async insertResults(documents: ImportResultDocument[]): Promise<ImportResultDocument[]> {
      if (documents.length === 0) return [];
      try {
        await results.insertMany(documents, { ordered: false });
        return [];
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const failed = (error as { writeErrors?: Array<{ index: number }> }).writeErrors;
        // A lone duplicate-key error without write errors names no document: every one may exist.
        return Array.isArray(failed) ? failed.map((item) => documents[item.index]) : documents;
      }
    },
    async setBatch(id: string, fields: Partial<ImportBatchDocument>, filter: Document = {}): Promise<boolean> {
      const result = await batches.updateOne({ _id: id, ...filter }, { $set: fields });
      return result.modifiedCount === 1;
    },
  };
}

export type ImportRepository = ReturnType<typeof createImportRepository>;
