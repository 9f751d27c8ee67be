import { uuidv7, type ImportResultStatus } from '@destiny/contracts';
import { OutboundRequestError, type Logger, type OutboundHttpClient } from '@destiny/platform';
import type { AnyBulkWriteOperation } from 'mongodb';
import { isDuplicateKeyError } from '../data-access/errors';
import { lineKey, type ImportBatchDocument, type ImportRepository, type ImportResultDocument } from '../data-access/import.repository';
import { TERMINAL_RESULT_STATUSES } from '../domain/batch-status';
import { validateImportLine } from '../domain/import-line.validator';
import { readLines, type FileLine } from '../domain/line-reader';

export interface IngestPort {
  ingest(request: {
    import_batch_id: string;
    collision_strategy: string;
    lines: Array<{ line_number: number; reference_json: string; import_result_id: string }>;
  }): Promise<Array<{ line_number: number; status: string; reference_id: string; failure_details: string }>>;
}

export interface ImportLimits {
  maxFileBytes: number;
  maxLineBytes: number;
  chunkSize: number;
  downloadAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

/** The batch could not be finished now (service stopping, dependency down): try the job again later. */
export class ProcessingInterrupted extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProcessingInterrupted';
  }
}

class FatalFileError extends Error {}

const TERMINAL = new Set<ImportResultStatus>(TERMINAL_RESULT_STATUSES);

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** (attempt - 1));
}

function isRetryable(error: unknown): boolean {
  if (error instanceof OutboundRequestError) return error.reason === 'network' || error.reason === 'timeout';
  return !(error instanceof FatalFileError) && !(error instanceof ProcessingInterrupted);
}

/**
 * Streams a batch file, records one result per non-blank line and ingests valid lines in chunks
 * through dedup-service. Progress (`next_line`) is saved after each chunk, so a restart resumes
 * after the last recorded line and every line is processed exactly once.
 */
export function createProcessImportBatch(deps: {
  repository: ImportRepository;
  outbound: OutboundHttpClient;
  dedup: IngestPort;
  limits: ImportLimits;
  logger: Logger;
  isStopping(): boolean;
  afterBatch(batch: ImportBatchDocument): Promise<void>;
  /** Downloads full texts and validates linked data of the lines about to be ingested (§6.6). */
  prepareEnhancementContent(items: Array<{ line: FileLine; json: string; partial: string | null }>): Promise<void>;
}) {
  const { repository, limits } = deps;

  async function flush(batch: ImportBatchDocument, lines: FileLine[]): Promise<void> {
    if (lines.length === 0) return;
    const started = performance.now();
    const from = lines[0].number;
    const to = lines[lines.length - 1].number;
    const now = new Date();
    const numbers = lines.map((line) => line.number);
    let existing = new Map((await repository.resultsForLines(batch._id, numbers)).map((row) => [row.line_number, row]));
    const fresh: ImportResultDocument[] = lines
      .filter((line) => !existing.has(line.number))
      .map((line) => ({ _id: uuidv7(), import_batch_id: batch._id, line_number: line.number, line_key: lineKey(batch._id, line.number), status: 'created', reference_id: null, failure_details: null, created_at: now, updated_at: now }));
    if (fresh.length > 0) {
      try {
        await repository.results.insertMany(fresh, { ordered: false });
        for (const row of fresh) existing.set(row.line_number, row);
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        existing = new Map((await repository.resultsForLines(batch._id, numbers)).map((row) => [row.line_number, row]));
      }
    }
    const open = lines.filter((line) => !TERMINAL.has((existing.get(line.number) as ImportResultDocument).status));
    if (open.length > 0) {
      await repository.results.updateMany({ _id: { $in: open.map((line) => (existing.get(line.number) as ImportResultDocument)._id) } }, { $set: { status: 'started', updated_at: now } });
    }
    const operations: AnyBulkWriteOperation<ImportResultDocument>[] = [];
    const terminal = (line: FileLine, status: ImportResultStatus, referenceId: string | null, failureDetails: string | null) => {
      const id = (existing.get(line.number) as ImportResultDocument)._id;
      operations.push({ updateOne: { filter: { _id: id }, update: { $set: { status, reference_id: referenceId, failure_details: failureDetails, updated_at: new Date() } } } });
    };
    const toIngest: Array<{ line: FileLine; json: string; partial: string | null }> = [];
    const validating = performance.now();
    for (const line of open) {
      if (line.text === null) {
        terminal(line, 'failed', null, `Entry ${line.number}:\n\nLine exceeds the maximum line length of ${limits.maxLineBytes} bytes.`);
        continue;
      }
      const validated = validateImportLine(line.text, line.number);
      if (validated.kind === 'failed') terminal(line, 'failed', null, validated.failureDetails);
      else toIngest.push({ line, json: JSON.stringify(validated.reference), partial: validated.partialFailureDetails });
    }
    await deps.prepareEnhancementContent(toIngest);
    const ingesting = performance.now();
    if (toIngest.length > 0) {
      let outcomes;
      try {
        outcomes = await deps.dedup.ingest({
          import_batch_id: batch._id,
          collision_strategy: batch.collision_strategy,
          lines: toIngest.map((item) => ({ line_number: item.line.number, reference_json: item.json, import_result_id: (existing.get(item.line.number) as ImportResultDocument)._id })),
        });
      } catch (error) {
        throw new ProcessingInterrupted(`dedup-service could not ingest lines ${from}-${to}: ${(error as Error).message}`);
      }
      const byLine = new Map(outcomes.map((outcome) => [outcome.line_number, outcome]));
      for (const item of toIngest) {
        const outcome = byLine.get(item.line.number);
        if (!outcome) terminal(item.line, 'failed', null, 'Uncaught exception at the repository.');
        else if (outcome.status === 'failed') terminal(item.line, 'failed', null, outcome.failure_details || 'Uncaught exception at the repository.');
        else terminal(item.line, item.partial ? 'partially_failed' : 'completed', outcome.reference_id || null, item.partial);
      }
    }
    const recording = performance.now();
    await repository.writeResults(operations);
    await repository.setBatch(batch._id, { next_line: to + 1 });
    batch.next_line = to + 1;
    const done = performance.now();
    deps.logger.debug(
      { import_batch_id: batch._id, lines: lines.length, results_ms: validating - started + (done - recording), validate_ms: ingesting - validating, ingest_ms: recording - ingesting },
      'import chunk recorded',
    );
  }

  async function readOnce(batch: ImportBatchDocument): Promise<void> {
    const response = await deps.outbound.stream({ url: batch.storage_url, maxBytes: limits.maxFileBytes });
    if (response.status < 200 || response.status >= 300) {
      response.body.resume();
      const message = `storage_url answered HTTP ${response.status}`;
      if (response.status >= 500) throw new OutboundRequestError('network', message);
      throw new FatalFileError(message);
    }
    let chunk: FileLine[] = [];
    let last = batch.next_line - 1;
    try {
      for await (const line of readLines(response.body, limits.maxLineBytes)) {
        last = line.number;
        if (line.number < batch.next_line) continue;
        if (line.text !== null && line.text.trim() === '') continue;
        chunk.push(line);
        if (chunk.length >= limits.chunkSize) {
          if (deps.isStopping()) throw new ProcessingInterrupted('import-service is stopping');
          await flush(batch, chunk);
          chunk = [];
        }
      }
    } finally {
      if (!response.body.destroyed) response.body.destroy();
    }
    await flush(batch, chunk);
    await repository.setBatch(batch._id, { next_line: Math.max(last + 1, batch.next_line), file_state: 'done' });
    batch.file_state = 'done';
  }

  async function failFile(batch: ImportBatchDocument, message: string) {
    deps.logger.warn({ import_batch_id: batch._id, reason: message }, 'import batch file failed');
    await repository.setBatch(batch._id, { file_state: 'failed', file_failure: message });
    batch.file_state = 'failed';
    batch.file_failure = message;
  }

  return async function processBatch(batchId: string): Promise<void> {
    const batch = await repository.batches.findOne({ _id: batchId });
    if (!batch) return;
    if (batch.file_state === 'pending') {
      for (let attempt = 1; ; attempt += 1) {
        try {
          await readOnce(batch);
          break;
        } catch (error) {
          if (error instanceof ProcessingInterrupted) throw error;
          if (error instanceof OutboundRequestError && error.reason === 'too_large') {
            await failFile(batch, `The file at storage_url is larger than the limit of ${limits.maxFileBytes} bytes.`);
            break;
          }
          if (!isRetryable(error) || attempt >= limits.downloadAttempts) {
            const suffix = isRetryable(error) ? ` (gave up after ${attempt} attempts)` : '';
            await failFile(batch, `The file at storage_url could not be fetched: ${(error as Error).message}${suffix}`);
            break;
          }
          deps.logger.info({ import_batch_id: batch._id, attempt, err: error }, 'batch file transfer failed; resuming after the last recorded line');
          await sleep(backoffMs(attempt, limits.retryBaseMs, limits.retryMaxMs));
          if (deps.isStopping()) throw new ProcessingInterrupted('import-service is stopping');
        }
      }
    }
    await deps.afterBatch(batch);
  };
}
