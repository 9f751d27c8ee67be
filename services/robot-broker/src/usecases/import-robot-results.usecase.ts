import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { parseRobotResultLine, serialiseJsonLine, uuidv7, type PendingEnhancementStatus, type RobotResultValidationEntry } from '@destiny/contracts';
import { ServiceError, withoutByteOrderMark, type BlobStorage, type EnhancementContentPreparer, type ForegroundPriorityGate, type Logger } from '@destiny/platform';
import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { BatchRepository } from '../data-access/batch.repository';
import { createBatchImportChunkRepository } from '../data-access/batch-import-chunk.repository';
import { COLLECTIONS, type ImportAttempt, type PendingEnhancementDocument, type RobotBatchDocument, type RobotDocument } from '../data-access/collections';
import type { IndexedVersionRepository } from '../data-access/indexed-version.repository';
import type { PendingEnhancementRepository } from '../data-access/pending-enhancement.repository';
import type { ReferenceStorePort } from './ports';

// §12.6: imports a robot's result file in the background. Each chunk of lines is recorded in its
// own document, then the batch's `next_line` moves past it, so a restarted import resumes after
// the last recorded line. The enhancements of an AddEnhancements call that may have landed before
// the crash are sent again with the ids recorded before the call, whichever chunk they fall into
// after the restart, so dedup-service answers them as stored, not twice.

export const IMPORT_MESSAGES = {
  notInBatch: 'Reference not in batch enhancement request.',
  duplicate: 'Duplicate reference ID in enhancement result.',
  rawNotEntitled: 'Robot is not entitled to return raw enhancements.',
  referenceMissing: 'Reference does not exist.',
  exactDuplicate: 'Exact duplicate enhancement already exists on reference.',
  addFailed: 'Failed to add enhancement to reference.',
  notInResult: 'Requested reference not in enhancement result.',
  importCrashed: 'Failed to import the robot result file.',
} as const;

/** The rows of an importing batch: `processing` (the batch carries the state) or `importing` (written by older versions). */
const IMPORTING: PendingEnhancementStatus[] = ['processing', 'importing'];

const LINES_BETWEEN_TURNS = 250;

interface QueuedEnhancement {
  reference_id: string;
  json: string;
  entryIndex: number;
}

async function* nonBlankLines(stream: Readable | null): AsyncGenerator<string> {
  if (!stream) return;
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  let first = true;
  for await (const read of lines) {
    const line = first ? withoutByteOrderMark(read) : read;
    first = false;
    if (line.trim() !== '') yield line;
  }
}

export function createImportRobotResults(deps: {
  db: Db;
  batches: BatchRepository;
  pending: PendingEnhancementRepository;
  indexed: IndexedVersionRepository;
  blob: BlobStorage;
  references: ReferenceStorePort;
  logger: Logger;
  chunkSize: number;
  /** The chunk while robots are polling: smaller, so a poll waits behind less of it. */
  chunkSizeWhilePolling: number;
  /** Full texts downloaded and stored, linked data validated (§6.6); a rejection is that reference's error. */
  content: EnhancementContentPreparer;
  /** How long a stored enhancement may wait for its reference version to be indexed. */
  indexingDeadlineMs: number;
  /** Chunks take turns behind polls: robots wait on polls, nobody waits on this import. */
  pollPriority: ForegroundPriorityGate;
  /** Test hook: runs after each recorded chunk. */
  afterChunk?(batchId: string, throughLine: number): Promise<void>;
}) {
  const robots: Collection<RobotDocument> = deps.db.collection(COLLECTIONS.robots);
  const chunks = createBatchImportChunkRepository(deps.db);

  /** What the batch's recorded chunks say (and what older versions recorded in the batch document itself). */
  async function recordedOutcomes(batch: RobotBatchDocument): Promise<{ attempts: Record<string, ImportAttempt>; entries: RobotResultValidationEntry[] }> {
    const attempts: Record<string, ImportAttempt> = { ...batch.import.attempts };
    const entries: RobotResultValidationEntry[] = [...batch.import.entries];
    for (const chunk of await chunks.recordedBelow(batch._id, batch.import.next_line)) {
      Object.assign(attempts, chunk.attempts);
      entries.push(...chunk.entries);
    }
    return { attempts, entries };
  }

  async function openResults(key: string): Promise<Readable | null> {
    try {
      return await deps.blob.get(key);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'NoSuchKey' || code === 'NotFound') return null;
      throw error;
    }
  }

  async function finish(batch: RobotBatchDocument, recorded: { attempts: Record<string, ImportAttempt>; entries: RobotResultValidationEntry[] }): Promise<void> {
    const attempts = recorded.attempts;
    const entries = [...recorded.entries];
    for (const referenceId of batch.reference_ids) if (!attempts[referenceId]) entries.push({ reference_id: referenceId, error: IMPORT_MESSAGES.notInResult });
    const validationKey = `robot-batches/${batch._id}/validation.jsonl`;
    await deps.blob.put(validationKey, Buffer.from(entries.map((entry) => `${serialiseJsonLine(entry)}\n`).join(''), 'utf8'), 'application/x-ndjson');
    // One updateMany per outcome (and stored version) instead of one update per row; the rows are
    // still `processing` (their batch is importing) or, from older versions, `importing`.
    const deadline = new Date(Date.now() + deps.indexingDeadlineMs);
    const rowOf = new Map<string, string>();
    if (batch.pending_ids) batch.reference_ids.forEach((referenceId, index) => rowOf.set(referenceId, batch.pending_ids![index]));
    else for (const row of await deps.pending.ofBatch(batch._id)) rowOf.set(row.reference_id, row._id);
    const groups = new Map<string, { set: Partial<PendingEnhancementDocument>; ids: string[] }>();
    for (const [referenceId, rowId] of rowOf) {
      const attempt = attempts[referenceId];
      const set: Partial<PendingEnhancementDocument> =
        attempt?.status === 'stored'
          ? { status: 'indexing', index_version: attempt.version ?? 0, indexing_deadline: deadline, ...(attempt.index_reference_id ? { index_reference_id: attempt.index_reference_id } : {}) }
          : { status: attempt?.status === 'discarded' ? 'discarded' : 'failed' };
      const key = `${set.status}|${set.index_version ?? ''}|${set.index_reference_id ?? ''}`;
      const group = groups.get(key) ?? { set, ids: [] };
      group.ids.push(rowId);
      groups.set(key, group);
    }
    const operations: AnyBulkWriteOperation<PendingEnhancementDocument>[] = [...groups.values()].map(({ set, ids }) => ({
      updateMany: { filter: { _id: { $in: ids }, status: { $in: IMPORTING } }, update: { $set: set } },
    }));
    if (operations.length > 0) await deps.pending.collection.bulkWrite(operations, { ordered: false });
    // Announcements that arrived before the rows reached `indexing` complete them now.
    const stored = Object.entries(attempts).filter(([, attempt]) => attempt.status === 'stored').map(([id, attempt]) => attempt.index_reference_id ?? id);
    const versions = await deps.indexed.current([...new Set(stored)]);
    await deps.pending.completeIndexed([...versions].map(([reference_id, version]) => ({ reference_id, version })));
    await deps.batches.collection.updateOne({ _id: batch._id, status: 'importing' }, { $set: { status: 'imported', validation_key: validationKey } });
    await chunks.dropBatch(batch._id);
  }

  async function run(batchId: string): Promise<void> {
    // Even the import's first reads (the batch, the result file) wait for polls in flight.
    await deps.pollPriority.inBackgroundTurn(async () => undefined);
    const batch = await deps.batches.get(batchId);
    if (!batch || batch.status !== 'importing') return;
    const robot = await robots.findOne({ _id: batch.robot_id }, { projection: { entitlements: 1 } });
    const rawAllowed = robot?.entitlements.includes('raw_enhancement_writer') ?? false;
    const expected = new Set(batch.reference_ids);
    const state = batch.import;
    const recorded = await recordedOutcomes(batch);
    // Ids sent in a call that may have landed before a crash, for references not recorded since:
    // whatever chunk such a reference falls into now (chunk sizes change with polling and with
    // configuration), it is sent again under the same id, so dedup-service answers it as stored.
    const carried: Record<string, string> = { ...(state.in_flight?.enhancement_ids ?? {}) };
    const seen = new Set(Object.keys(recorded.attempts));
    let recordedThrough = state.next_line;

    let entries: RobotResultValidationEntry[] = [];
    let attempts: Record<string, ImportAttempt> = {};
    let queued: QueuedEnhancement[] = [];

    const flush = async (throughLine: number) => {
      if (queued.length > 0) {
        const enhancementIds = Object.fromEntries(queued.map((item) => [item.reference_id, carried[item.reference_id] ?? uuidv7()]));
        await deps.batches.collection.updateOne({ _id: batchId }, { $set: { 'import.in_flight': { from_line: recordedThrough, enhancement_ids: { ...carried, ...enhancementIds } } } });
        let outcomes;
        try {
          outcomes = await deps.pollPriority.inBackgroundTurn(() =>
            deps.references.addEnhancements({
              enhancements_json: queued.map((item) => item.json),
              enhancement_ids: queued.map((item) => enhancementIds[item.reference_id]),
              robot_id: batch.robot_id,
              robot_enhancement_batch_id: batchId,
              enhancement_request_id: '',
            }),
          );
        } catch (error) {
          if (!(error instanceof ServiceError) || error.httpStatus !== 422) throw error;
          outcomes = queued.map((item) => ({ reference_id: item.reference_id, status: 'failed', enhancement_id: '', error: IMPORT_MESSAGES.addFailed, reference_version: 0, index_reference_id: '', index_version: 0 }));
        }
        queued.forEach((item, index) => {
          const outcome = outcomes[index];
          const status = outcome?.status ?? 'failed';
          if (status === 'stored') {
            // A duplicate becomes searchable through its canonical's entry (an older dedup-service names none).
            const entry = outcome.index_reference_id && outcome.index_reference_id !== item.reference_id ? { index_reference_id: outcome.index_reference_id } : {};
            attempts[item.reference_id] = { status: 'stored', version: outcome.index_version || outcome.reference_version, ...entry };
            entries[item.entryIndex] = { reference_id: item.reference_id };
          } else if (status === 'discarded') {
            attempts[item.reference_id] = { status: 'discarded' };
            entries[item.entryIndex] = { reference_id: item.reference_id, error: IMPORT_MESSAGES.exactDuplicate };
          } else {
            attempts[item.reference_id] = { status: 'failed' };
            const missing = outcome?.error?.startsWith('Reference with id') || outcome?.error === IMPORT_MESSAGES.referenceMissing;
            entries[item.entryIndex] = { reference_id: item.reference_id, error: missing ? IMPORT_MESSAGES.referenceMissing : IMPORT_MESSAGES.addFailed };
          }
        });
      }
      if (throughLine === recordedThrough) return;
      for (const item of queued) delete carried[item.reference_id];
      const stillCarried = Object.keys(carried).length > 0;
      await chunks.record(batchId, recordedThrough, throughLine, attempts, entries);
      const inFlight = stillCarried ? { from_line: throughLine, enhancement_ids: { ...carried } } : null;
      await deps.batches.collection.updateOne({ _id: batchId, 'import.next_line': recordedThrough }, { $set: { 'import.next_line': throughLine, 'import.in_flight': inFlight } });
      Object.assign(recorded.attempts, attempts);
      recorded.entries.push(...entries);
      recordedThrough = throughLine;
      entries = [];
      attempts = {};
      queued = [];
      await deps.afterChunk?.(batchId, throughLine);
    };

    let lineNumber = 0;
    for await (const text of nonBlankLines(await openResults(batch.result_key))) {
      lineNumber += 1;
      if (lineNumber <= state.next_line) continue;
      // Reading and checking a chunk's lines is background work too: it starts when polls let it.
      if (queued.length === 0 && lineNumber % LINES_BETWEEN_TURNS === 1) await deps.pollPriority.inBackgroundTurn(async () => undefined);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        entries.push({ error: `Entry ${lineNumber} could not be parsed: ${(error as Error).message}.` });
        continue;
      }
      const parsed = parseRobotResultLine(value);
      if (parsed.kind === 'invalid') {
        entries.push({ error: `Entry ${lineNumber} could not be parsed: ${parsed.reason}.` });
        continue;
      }
      const referenceId = parsed.kind === 'enhancement' ? parsed.enhancement.reference_id : parsed.error.reference_id;
      if (!expected.has(referenceId)) {
        entries.push({ reference_id: referenceId, error: IMPORT_MESSAGES.notInBatch });
        continue;
      }
      if (seen.has(referenceId)) {
        entries.push({ reference_id: referenceId, error: IMPORT_MESSAGES.duplicate });
        continue;
      }
      seen.add(referenceId);
      if (parsed.kind === 'error') {
        attempts[referenceId] = { status: 'failed' };
        entries.push({ reference_id: referenceId, error: parsed.error.message });
        continue;
      }
      const enhancement = parsed.enhancement;
      if (enhancement.content.enhancement_type === 'raw' && !rawAllowed) {
        attempts[referenceId] = { status: 'failed' };
        entries.push({ reference_id: referenceId, error: IMPORT_MESSAGES.rawNotEntitled });
        continue;
      }
      const prepared = await deps.content.prepare(enhancement.content as Record<string, unknown>);
      if (!prepared.ok) {
        attempts[referenceId] = { status: 'failed' };
        entries.push({ reference_id: referenceId, error: prepared.message });
        continue;
      }
      // The service assigns id and created_at (§12.6).
      const { id: _id, created_at: _created, ...input } = enhancement as typeof enhancement & { id?: unknown; created_at?: unknown };
      queued.push({ reference_id: referenceId, json: JSON.stringify({ ...input, content: prepared.content }), entryIndex: entries.length });
      entries.push({ reference_id: referenceId });
      if (queued.length >= (deps.pollPriority.foregroundWithin() ? deps.chunkSizeWhilePolling : deps.chunkSize)) await flush(lineNumber);
    }
    await flush(lineNumber);
    const refreshed = await deps.batches.get(batchId);
    if (refreshed && refreshed.status === 'importing') await finish(refreshed, recorded);
  }

  return {
    run,
    /** The import failed for good: the batch error is set and its pending enhancements fail (§12.6). */
    async fail(batchId: string): Promise<void> {
      await deps.pending.transition(batchId, IMPORTING, 'failed');
      await deps.batches.collection.updateOne({ _id: batchId, status: 'importing' }, { $set: { status: 'failed', error: IMPORT_MESSAGES.importCrashed } });
      await chunks.dropBatch(batchId);
    },
  };
}

export type ImportRobotResults = ReturnType<typeof createImportRobotResults>;
