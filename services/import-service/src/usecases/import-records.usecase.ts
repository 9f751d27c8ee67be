import {
  ImportBatchIn,
  ImportRecordIn,
  IMPORT_RESULT_STATUSES,
  ImportResultStatus,
  normaliseHttpUrl,
  IMPORT_RECORD_MISMATCH_DETAIL,
  OVERWRITE_REFUSED_DETAIL,
  QUEUES,
  toUtcTimestamp,
  uuidv7,
  validate,
  type ImportBatchJob,
  type ImportBatchRead,
  type ImportBatchSummary,
  type ImportRecordRead,
  type ImportResultCounts,
  type ImportResultRead,
} from '@destiny/contracts';
import { isDuplicateKeyError, replyPage, ServiceError, withOutbox, type OutboundHttpClient } from '@destiny/platform';
import type { ImportBatchDocument, ImportRecordDocument, ImportRepository, ImportResultDocument } from '../data-access/import.repository';
import { batchStatus } from '../domain/batch-status';
import { storageHostAllowed } from '../domain/storage-domain';

interface Deps {
  repository: ImportRepository;
  /** Wakes the outbox relay: a registered batch's job waits in the batch document until it is published. */
  notifyOutbox(): void;
  outbound: OutboundHttpClient;
  allowedDomains: readonly string[];
}

function parseBody(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    throw ServiceError.unprocessable([{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error' }]);
  }
}

function recordRead(record: ImportRecordDocument, batches: ImportBatchRead[] | null = null): ImportRecordRead {
  return {
    search_string: record.search_string,
    searched_at: record.searched_at,
    processor_name: record.processor_name,
    processor_version: record.processor_version,
    notes: record.notes,
    expected_reference_count: record.expected_reference_count,
    source_name: record.source_name,
    id: record._id,
    status: record.status,
    batches,
  };
}

function resultRead(result: ImportResultDocument): ImportResultRead {
  return { id: result._id, import_batch_id: result.import_batch_id, status: result.status, reference_id: result.reference_id, failure_details: result.failure_details, import_batch: null };
}

export function createImportRecordUsecases(deps: Deps) {
  const { repository } = deps;

  async function getRecordDocument(id: string): Promise<ImportRecordDocument> {
    const record = await repository.records.findOne({ _id: id });
    if (!record) throw ServiceError.notFound('ImportRecord', id);
    return record;
  }

  async function getBatchDocument(recordId: string, batchId: string): Promise<ImportBatchDocument> {
    await getRecordDocument(recordId);
    const batch = await repository.batches.findOne({ _id: batchId, import_record_id: recordId });
    if (!batch) throw ServiceError.notFound('ImportBatch', batchId);
    return batch;
  }

  async function batchRead(batch: ImportBatchDocument): Promise<ImportBatchRead> {
    return {
      storage_url: batch.storage_url,
      callback_url: batch.callback_url,
      collision_strategy: batch.collision_strategy as ImportBatchRead['collision_strategy'],
      id: batch._id,
      status: batchStatus(await repository.resultStatuses(batch._id), batch.file_state),
      import_record_id: batch.import_record_id,
      import_record: null,
      import_results: null,
    };
  }

  async function summary(batch: ImportBatchDocument): Promise<ImportBatchSummary> {
    return summaryWith(batch, await repository.failureDetails(batch._id));
  }

  /** The summary with these failure details (after the file's failure, when there is one). */
  async function summaryWith(batch: ImportBatchDocument, details: string[]): Promise<ImportBatchSummary> {
    const counts = await repository.resultCounts(batch._id);
    const results = Object.fromEntries(IMPORT_RESULT_STATUSES.map((status) => [status, counts.get(status) ?? 0])) as ImportResultCounts;
    const statuses = new Set([...counts.keys()]);
    return {
      storage_url: batch.storage_url,
      callback_url: batch.callback_url,
      collision_strategy: batch.collision_strategy as ImportBatchSummary['collision_strategy'],
      id: batch._id,
      import_batch_id: batch._id,
      import_batch_status: batchStatus(statuses, batch.file_state),
      results,
      failure_details: batch.file_failure ? [batch.file_failure, ...details] : details,
    };
  }

  return {
    summaryOf: summary,
    async createRecord(json: string): Promise<ImportRecordRead> {
      const parsed = validate(ImportRecordIn, parseBody(json), 'body');
      if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
      const body = parsed.value;
      const record: ImportRecordDocument = {
        _id: uuidv7(),
        search_string: body.search_string ?? null,
        searched_at: body.searched_at ? toUtcTimestamp(body.searched_at) : new Date().toISOString().replace('.000Z', 'Z'),
        processor_name: body.processor_name,
        processor_version: body.processor_version,
        notes: body.notes ?? null,
        expected_reference_count: body.expected_reference_count,
        source_name: body.source_name,
        status: 'created',
        created_at: new Date(),
      };
      await repository.records.insertOne(record);
      return recordRead(record);
    },
    async getRecord(id: string): Promise<ImportRecordRead> {
      return recordRead(await getRecordDocument(id));
    },
    /**
     * Up to `limit` records, newest first (after `beforeId` when given), as JSON, stopping once the
     * page holds `maxBytes` (always at least one record): records have no size limit of their own,
     * so the caller reads the next page after `lastId` while `more`.
     */
    async listRecordsPage(limit: number, beforeId: string, maxBytes: number): Promise<{ json: string[]; more: boolean; lastId: string }> {
      // A cursor, not toArray: a page of large records stops reading at the budget.
      const cursor = repository.records.find(beforeId ? { _id: { $lt: beforeId } } : {}).sort({ _id: -1 }).limit(limit > 0 ? limit : 1000);
      try {
        const page = await replyPage(
          cursor,
          async (record) => JSON.stringify(recordRead(record, await Promise.all((await repository.batches.find({ import_record_id: record._id }).sort({ _id: 1 }).toArray()).map(batchRead)))),
          maxBytes,
        );
        return { json: page.texts, more: page.more, lastId: page.last?._id ?? '' };
      } finally {
        await cursor.close();
      }
    },
    async finalise(id: string): Promise<void> {
      const result = await repository.records.updateOne({ _id: id }, { $set: { status: 'completed' } });
      if (result.matchedCount === 0) throw ServiceError.notFound('ImportRecord', id);
    },
    async registerBatch(recordId: string, json: string): Promise<ImportBatchRead> {
      await getRecordDocument(recordId);
      const parsed = validate(ImportBatchIn, parseBody(json), 'body');
      if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
      const body = parsed.value;
      if (body.import_record_id !== undefined && body.import_record_id !== recordId) throw ServiceError.unprocessable(IMPORT_RECORD_MISMATCH_DETAIL);
      if (body.collision_strategy === 'overwrite') throw ServiceError.unprocessable(OVERWRITE_REFUSED_DETAIL);
      const storageUrl = normaliseHttpUrl(body.storage_url);
      const host = new URL(storageUrl).hostname;
      if (!host) throw new ServiceError(403, 'storage_url has no hostname.');
      if (!storageHostAllowed(host, deps.allowedDomains)) throw new ServiceError(403, 'storage_url hostname is not allowed.');
      try {
        await deps.outbound.check(storageUrl);
      } catch (error) {
        throw ServiceError.unprocessable(`storage_url is not allowed: ${(error as Error).message}`);
      }
      const callbackUrl = body.callback_url ? normaliseHttpUrl(body.callback_url) : null;
      if (callbackUrl) {
        try {
          await deps.outbound.check(callbackUrl);
        } catch (error) {
          throw ServiceError.unprocessable(`callback_url is not allowed: ${(error as Error).message}`);
        }
      }
      const batch: ImportBatchDocument = {
        _id: uuidv7(),
        import_record_id: recordId,
        storage_url: storageUrl,
        callback_url: callbackUrl,
        collision_strategy: body.collision_strategy ?? 'fail',
        next_line: 1,
        file_state: 'pending',
        file_failure: null,
        callback_lease: null,
        callback_attempts: 0,
        callback_in_flight: false,
        callback_outcome: null,
        created_at: new Date(),
      };
      const job: ImportBatchJob = { job_id: uuidv7(), import_batch_id: batch._id };
      // The batch and its job are one write: a broker out of reach, or a process dying right after,
      // cannot leave a batch that is never read (and whose storage_url would refuse the retry).
      try {
        await repository.batches.insertOne(withOutbox(batch, [{ event_id: job.job_id, exchange: '', routing_key: QUEUES.importServiceImportBatch, payload: job, created_at: batch.created_at }]));
      } catch (error) {
        if (isDuplicateKeyError(error)) {
          throw ServiceError.conflict(`Unable to perform operation on ImportBatch. Violation: Key (import_record_id, storage_url)=(${recordId}, ${storageUrl}) already exists.`);
        }
        throw error;
      }
      deps.notifyOutbox();
      return batchRead(batch);
    },
    async listBatches(recordId: string): Promise<ImportBatchRead[]> {
      await getRecordDocument(recordId);
      return Promise.all((await repository.batches.find({ import_record_id: recordId }).sort({ _id: 1 }).toArray()).map(batchRead));
    },
    async getBatch(recordId: string, batchId: string): Promise<ImportBatchRead> {
      return batchRead(await getBatchDocument(recordId, batchId));
    },
    /**
     * The summary with its failure details cut once they hold `maxBytes` (always at least one): a
     * batch may fail hundreds of thousands of lines, so the caller reads the rest with
     * `listFailureDetailsPage` after `lastLine` while `more`.
     */
    async getSummaryPage(recordId: string, batchId: string, maxBytes: number): Promise<{ summary: ImportBatchSummary; more: boolean; lastLine: number }> {
      const batch = await getBatchDocument(recordId, batchId);
      const page = await repository.failureDetailsPage(batch._id, 0, maxBytes);
      return { summary: await summaryWith(batch, page.details), more: page.more, lastLine: page.lastLine };
    },
    async listFailureDetailsPage(recordId: string, batchId: string, afterLine: number, maxBytes: number): Promise<{ details: string[]; more: boolean; lastLine: number }> {
      await getBatchDocument(recordId, batchId);
      return repository.failureDetailsPage(batchId, afterLine, maxBytes);
    },
    /**
     * The batch's results in line order (after line `afterLine` when given), as JSON, stopping once
     * the page holds `maxBytes` (always at least one result): a large batch file has hundreds of
     * thousands of results, so the caller reads the next page after `lastLine` while `more`.
     */
    async listResultsPage(recordId: string, batchId: string, status: string, afterLine: number, maxBytes: number): Promise<{ json: string[]; more: boolean; lastLine: number }> {
      await getBatchDocument(recordId, batchId);
      if (status) {
        const parsed = validate(ImportResultStatus, status, 'query');
        if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
      }
      const page = await repository.resultTextPage(batchId, { afterLine, maxBytes, filter: status ? { status: status as ImportResultDocument['status'] } : {}, textOf: (row) => JSON.stringify(resultRead(row)) });
      return { json: page.texts, more: page.more, lastLine: page.lastLine };
    },
  };
}

export type ImportRecordUsecases = ReturnType<typeof createImportRecordUsecases>;
