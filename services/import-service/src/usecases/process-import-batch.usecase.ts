import type { ImportResultStatus } from '@destiny/contracts';
import { isTransientMongoError, OutboundRequestError, ServiceError, type Logger, type OutboundHttpClient } from '@destiny/platform';
import type { AnyBulkWriteOperation } from 'mongodb';
import { lineKey, type ImportBatchDocument, type ImportRepository, type ImportResultDocument } from '../data-access/import.repository';
import { TERMINAL_RESULT_STATUSES } from '../domain/batch-status';
import { importResultId } from '../domain/import-result.id';
import { validateImportLine } from '../domain/import-line.validator';
import { readLines, type FileLine } from '../domain/line-reader';

export interface IngestPort {
  ingest(request: {
    import_batch_id: string;
    collision_strategy: string;
    lines: Array<{ line_number: number; reference_json: string; import_result_id: string }>;
    /** Set when giving up on the lines: dedup-service finishes what earlier attempts stored and fails the rest for good. */
    give_up_failure_details?: string;
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

/** §8.5: a line whose ingest fails transiently is re-queued up to this many more times. */
export const INGEST_RETRIES = 3;
export const RETRIES_EXHAUSTED = 'Retries exhausted.';
const UNCAUGHT = 'Uncaught exception at the repository.';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** (attempt - 1));
}

function isRetryable(error: unknown): boolean {
  if (error instanceof OutboundRequestError) return error.reason === 'network' || error.reason === 'timeout';
  return !(error instanceof FatalFileError) && !(error instanceof ProcessingInterrupted);
}

/** dedup-service overloaded, too slow, or a write conflict there: worth another attempt. */
function isTransientIngestFailure(error: unknown): boolean {
  return error instanceof ServiceError && [409, 429, 504].includes(error.httpStatus);
}

/**
 * dedup-service (or its database) unavailable: not the lines' fault, so, as for import-service's own
 * database, the lines wait however long it lasts instead of using up their attempts (a restart of
 * dedup-service would otherwise fail whole chunks for good).
 */
function isUnavailable(error: unknown): boolean {
  return error instanceof ServiceError && error.httpStatus === 503;
}

interface Settled {
  status: ImportResultStatus;
  reference_id: string | null;
  failure_details: string | null;
}

interface LineToIngest {
  line: FileLine;
  json: string;
  partial: string | null;
}

/**
 * Streams a batch file and ingests its non-blank lines in chunks through dedup-service, recording
 * one result per line in its final state. Progress (`next_line`) is saved after each chunk's results; a
 * restart resumes there, and a chunk interrupted before its results were written is ingested
 * again under the same result ids (derived from batch and line), which dedup-service answers with
 * the outcomes it already recorded, so every line is processed exactly once.
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
  prepareEnhancementContent(items: LineToIngest[]): Promise<void>;
}) {
  const { repository, limits } = deps;

  /** Waits the back-off of the `step`th retry (capped); a service stopping meanwhile interrupts the batch. */
  async function backOff(step: number): Promise<void> {
    await sleep(backoffMs(Math.min(step, 16), limits.retryBaseMs, limits.retryMaxMs));
    if (deps.isStopping()) throw new ProcessingInterrupted('import-service is stopping');
  }

  /** Validates lines: failures settle at once, the rest go to dedup-service. */
  function prepareLines(lines: FileLine[], settled: Map<number, Settled>): LineToIngest[] {
    const toIngest: LineToIngest[] = [];
    for (const line of lines) {
      if (line.text === null) {
        settled.set(line.number, { status: 'failed', reference_id: null, failure_details: `Entry ${line.number}:\n\nLine exceeds the maximum line length of ${limits.maxLineBytes} bytes.` });
        continue;
      }
      const validated = validateImportLine(line.text, line.number);
      if (validated.kind === 'failed') settled.set(line.number, { status: 'failed', reference_id: null, failure_details: validated.failureDetails });
      else toIngest.push({ line, json: JSON.stringify(validated.reference), partial: validated.partialFailureDetails });
    }
    return toIngest;
  }

  /**
   * Ingests the lines; a transient failure marks them `retrying` and tries again after a back-off,
   * up to INGEST_RETRIES more times (attempts survive a restart on the stored results). While
   * dedup-service is unavailable they stay `retrying` without using up an attempt.
   */
  async function ingestWithRetries(batch: ImportBatchDocument, items: LineToIngest[], stored: Map<number, ImportResultDocument>, settled: Map<number, Settled>): Promise<void> {
    if (items.length === 0) return;
    const request = (giveUpFailureDetails?: string) => ({
      import_batch_id: batch._id,
      collision_strategy: batch.collision_strategy,
      lines: items.map((item) => ({ line_number: item.line.number, reference_json: item.json, import_result_id: stored.get(item.line.number)?._id ?? importResultId(batch._id, item.line.number) })),
      ...(giveUpFailureDetails !== undefined ? { give_up_failure_details: giveUpFailureDetails } : {}),
    });
    const range = lineRange(items);
    let attempts = Math.max(0, ...items.map((item) => stored.get(item.line.number)?.attempts ?? 0));
    let waits = 0;
    await markStarted(items.map((item) => stored.get(item.line.number)).filter((row): row is ImportResultDocument => row?.status === 'retrying'));
    for (;;) {
      try {
        return settleOutcomes(items, await deps.dedup.ingest(request()), settled);
      } catch (error) {
        if (isUnavailable(error)) {
          waits += 1;
          if (waits === 1) deps.logger.warn({ err: error, import_batch_id: batch._id, lines: range }, 'dedup-service is unavailable; lines are retrying until it is back');
          await markRetrying(batch, items.map((item) => item.line.number), attempts, stored);
          await backOff(waits);
          await markStarted(items.map((item) => stored.get(item.line.number) as ImportResultDocument));
          continue;
        }
        if (!isTransientIngestFailure(error)) {
          if (items.length > 1) {
            // Lines are independent (§8.5): one line's unexpected failure must not decide its
            // neighbours', so each half is ingested on its own until the failing lines stand alone.
            deps.logger.warn({ err: error, import_batch_id: batch._id, lines: range }, 'dedup-service failed to ingest lines; ingesting them in halves');
            const middle = Math.ceil(items.length / 2);
            await ingestWithRetries(batch, items.slice(0, middle), stored, settled);
            return ingestWithRetries(batch, items.slice(middle), stored, settled);
          }
          deps.logger.error({ err: error, import_batch_id: batch._id, lines: range }, 'dedup-service failed to ingest a line');
          return giveUp(batch, items, request(UNCAUGHT), settled);
        }
        attempts += 1;
        if (attempts > INGEST_RETRIES) {
          deps.logger.warn({ err: error, import_batch_id: batch._id, lines: range, attempts }, 'ingest retries exhausted');
          return giveUp(batch, items, request(RETRIES_EXHAUSTED), settled);
        }
        deps.logger.warn({ err: error, import_batch_id: batch._id, lines: range, attempts }, 'ingest failed transiently; lines are retrying');
        await markRetrying(batch, items.map((item) => item.line.number), attempts, stored);
        await backOff(attempts);
        await markStarted(items.map((item) => stored.get(item.line.number) as ImportResultDocument));
      }
    }
  }

  /**
   * A failed attempt may still have been stored by dedup-service (its answer was lost, or it is
   * still on its way there), so before the lines fail dedup-service is asked to finish what earlier
   * attempts stored and to fail the rest for good: the results then say what the store holds.
   */
  async function giveUp(batch: ImportBatchDocument, items: LineToIngest[], request: Parameters<IngestPort['ingest']>[0], settled: Map<number, Settled>): Promise<void> {
    let attempt = 0;
    let waits = 0;
    for (;;) {
      try {
        return settleOutcomes(items, await deps.dedup.ingest(request), settled);
      } catch (error) {
        // Unavailable: waited out, since only dedup-service can say what earlier attempts stored.
        if (isUnavailable(error)) {
          waits += 1;
          await backOff(waits);
          continue;
        }
        attempt += 1;
        if (!isTransientIngestFailure(error) || attempt > INGEST_RETRIES) {
          deps.logger.error({ err: error, import_batch_id: batch._id, lines: lineRange(items) }, 'dedup-service could not say what it stored of lines given up on; they are recorded failed');
          return settleAll(items, settled, request.give_up_failure_details ?? RETRIES_EXHAUSTED);
        }
        await backOff(attempt);
      }
    }
  }

  /** The chunk's first and last line numbers, for logs. */
  function lineRange(items: LineToIngest[]): string {
    return `${items[0].line.number}-${items[items.length - 1].line.number}`;
  }

  function settleAll(items: LineToIngest[], settled: Map<number, Settled>, failureDetails: string): void {
    for (const item of items) settled.set(item.line.number, { status: 'failed', reference_id: null, failure_details: failureDetails });
  }

  function settleOutcomes(items: LineToIngest[], outcomes: Awaited<ReturnType<IngestPort['ingest']>>, settled: Map<number, Settled>): void {
    const byLine = new Map(outcomes.map((outcome) => [outcome.line_number, outcome]));
    for (const item of items) {
      const outcome = byLine.get(item.line.number);
      if (!outcome) settled.set(item.line.number, { status: 'failed', reference_id: null, failure_details: UNCAUGHT });
      else if (outcome.status === 'failed') settled.set(item.line.number, { status: 'failed', reference_id: null, failure_details: outcome.failure_details || UNCAUGHT });
      // §8.6 `discard`: the line is ignored entirely, its invalid parts included.
      else if (!outcome.reference_id) settled.set(item.line.number, { status: 'completed', reference_id: null, failure_details: null });
      else settled.set(item.line.number, { status: item.partial ? 'partially_failed' : 'completed', reference_id: outcome.reference_id, failure_details: item.partial });
    }
  }

  async function markRetrying(batch: ImportBatchDocument, lineNumbers: number[], attempts: number, stored: Map<number, ImportResultDocument>): Promise<void> {
    const now = new Date();
    const rows = lineNumbers.map((lineNumber): ImportResultDocument => {
      const base = stored.get(lineNumber) ?? { _id: importResultId(batch._id, lineNumber), import_batch_id: batch._id, line_number: lineNumber, line_key: lineKey(batch._id, lineNumber), reference_id: null, failure_details: null, created_at: now };
      return { ...base, status: 'retrying', attempts, updated_at: now };
    });
    await repository.writeResults(
      rows.map((row) => {
        const { _id, status, attempts: count, updated_at, ...rest } = row;
        return { updateOne: { filter: { _id }, update: { $set: { status, attempts: count, updated_at }, $setOnInsert: rest }, upsert: true } };
      }),
    );
    for (const row of rows) stored.set(row.line_number, row);
  }

  /** `retrying` → `started` as a line is re-queued (§8.5 transitions). */
  async function markStarted(rows: ImportResultDocument[]): Promise<void> {
    if (rows.length === 0) return;
    await repository.results.updateMany({ _id: { $in: rows.map((row) => row._id) } }, { $set: { status: 'started', updated_at: new Date() } });
    for (const row of rows) row.status = 'started';
  }

  /** One write per line in its final state: inserted, or updated when an earlier attempt left a row. */
  async function recordResults(batch: ImportBatchDocument, lines: FileLine[], stored: Map<number, ImportResultDocument>, settled: Map<number, Settled>): Promise<void> {
    const now = new Date();
    const fresh: ImportResultDocument[] = [];
    const updates: AnyBulkWriteOperation<ImportResultDocument>[] = [];
    for (const line of lines) {
      const outcome = settled.get(line.number) as Settled;
      const row = stored.get(line.number);
      if (row) updates.push({ updateOne: { filter: { _id: row._id, status: { $nin: TERMINAL_RESULT_STATUSES as ImportResultStatus[] } }, update: { $set: { ...outcome, updated_at: now } } } });
      else fresh.push({ _id: importResultId(batch._id, line.number), import_batch_id: batch._id, line_number: line.number, line_key: lineKey(batch._id, line.number), ...outcome, created_at: now, updated_at: now });
    }
    // A line this attempt found no row for may still have one: a placeholder left by an attempt
    // whose read stopped past it (rows are looked up for the first chunk of a read only). Final rows
    // stay; placeholders get this outcome.
    for (const row of await repository.insertResults(fresh)) {
      updates.push({ updateOne: { filter: { line_key: row.line_key, status: { $nin: TERMINAL_RESULT_STATUSES as ImportResultStatus[] } }, update: { $set: { ...(settled.get(row.line_number) as Settled), updated_at: now } } } });
    }
    await repository.writeResults(updates);
  }

  /**
   * Validates and ingests a chunk and returns the writes that record its results, which the caller
   * runs after those of the previous chunk. `stored` holds the rows earlier attempts left for these
   * lines (looked up on the first chunk after a start; later chunks begin with none).
   */
  async function ingestChunk(batch: ImportBatchDocument, lines: FileLine[], stored: Map<number, ImportResultDocument>): Promise<() => Promise<void>> {
    const to = lines[lines.length - 1].number;
    const open = lines.filter((line) => !TERMINAL.has(stored.get(line.number)?.status as ImportResultStatus));
    const settled = new Map<number, Settled>();
    const validating = performance.now();
    const toIngest = prepareLines(open, settled);
    await deps.prepareEnhancementContent(toIngest);
    const ingesting = performance.now();
    await ingestWithRetries(batch, toIngest, stored, settled);
    const ingested = performance.now();
    return async () => {
      const recording = performance.now();
      await recordResults(batch, open, stored, settled);
      await repository.setBatch(batch._id, { next_line: to + 1 });
      batch.next_line = to + 1;
      deps.logger.debug(
        { import_batch_id: batch._id, lines: lines.length, results_ms: performance.now() - recording, validate_ms: ingesting - validating, ingest_ms: ingested - ingesting },
        'import chunk recorded',
      );
    };
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
    let firstChunk = true;
    const storedRows = async (lines: FileLine[]) => {
      if (!firstChunk) return new Map<number, ImportResultDocument>();
      firstChunk = false;
      return new Map((await repository.resultsForLines(batch._id, lines.map((line) => line.number))).map((row) => [row.line_number, row]));
    };
    // A chunk's results are written while the next chunk is read, validated and ingested; one
    // chunk's writes at a time and in order, so `next_line` only ever moves past recorded lines.
    // (A crash in between re-ingests the unrecorded chunks under the same result ids.)
    let recording: Promise<void> = Promise.resolve();
    const flush = async (lines: FileLine[]) => {
      if (lines.length === 0) return;
      const write = await ingestChunk(batch, lines, await storedRows(lines));
      await recording;
      recording = write();
      recording.catch(() => undefined);
    };
    try {
      for await (const line of readLines(response.body, limits.maxLineBytes)) {
        last = line.number;
        if (line.number < batch.next_line) continue;
        if (line.text !== null && line.text.trim() === '') continue;
        chunk.push(line);
        if (chunk.length >= limits.chunkSize) {
          if (deps.isStopping()) throw new ProcessingInterrupted('import-service is stopping');
          await flush(chunk);
          chunk = [];
        }
      }
    } catch (error) {
      // Lines read whole before the transfer broke (or outgrew the limit, or stopped decoding) are
      // ingested now: the next attempt resumes after them, and if the file fails they still have
      // their results, as the chunks before them do.
      if (error instanceof OutboundRequestError && chunk.length > 0 && !deps.isStopping()) await flush(chunk);
      throw error;
    } finally {
      if (!response.body.destroyed) response.body.destroy();
      await recording.catch(() => undefined);
    }
    await flush(chunk);
    await recording;
    batch.next_line = Math.max(last + 1, batch.next_line);
    await repository.setBatch(batch._id, { next_line: batch.next_line, file_state: 'done' });
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
      await repository.setBatch(batch._id, { file_state: 'reading' });
      batch.file_state = 'reading';
    }
    if (batch.file_state === 'reading') {
      const started = performance.now();
      deps.logger.info({ import_batch_id: batch._id, from_line: batch.next_line }, 'import batch file reading');
      for (let attempt = 1; ; attempt += 1) {
        try {
          await readOnce(batch);
          break;
        } catch (error) {
          // The database away is not the file's fault: the batch job is delivered again later and
          // resumes after the last recorded line, however long the outage, without using up the
          // download's attempts (which would fail the batch as unfetchable once they ran out).
          if (error instanceof ProcessingInterrupted || isTransientMongoError(error)) throw error;
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
          await backOff(attempt);
        }
      }
      deps.logger.info({ import_batch_id: batch._id, file_state: batch.file_state, lines: batch.next_line - 1, duration_ms: Math.round(performance.now() - started) }, 'import batch file read');
    }
    await deps.afterBatch(batch);
  };
}
