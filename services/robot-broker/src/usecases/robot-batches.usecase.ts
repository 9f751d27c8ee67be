import {
  DEFAULT_LEASE,
  MAX_PENDING_ENHANCEMENTS_BATCH_SIZE,
  NOTHING_TO_RENEW_DETAIL,
  parseIsoDuration,
  QUEUES,
  RobotEnhancementBatchResult,
  uuidv7,
  validate,
  type RobotEnhancementBatch,
  type RobotEnhancementBatchRead,
  type RobotResultImportJob,
} from '@destiny/contracts';
import { pushToOutbox, ServiceError, type BlobStorage, type ForegroundPriorityGate, type FullTextLinks, type Logger } from '@destiny/platform';
import type { BatchRepository } from '../data-access/batch.repository';
import { UNREVEALED_BATCH_STATUSES, type PendingEnhancementDocument, type RobotBatchDocument, type RobotPollShape } from '../data-access/collections';
import type { PendingEnhancementRepository } from '../data-access/pending-enhancement.repository';
import type { RobotPollRepository } from '../data-access/robot-poll.repository';
import { referenceFileText } from '../domain/reference-file.writer';
import { pythonIsoformatUtc } from '../domain/python-isoformat';
import { SIGNED_URL_SECONDS, type ReferenceStorePort } from './ports';

// Robot enhancement batches (§12.2–§12.5, §12.7): poll, read, results, lease renewal.

export interface PollCaller {
  entitlements: string[];
}

const CLAIM_ROUNDS = 5;
/** A robot's unchanged kind of poll is written again at most this often (its `at` says it still polls). */
const POLL_RECORD_REFRESH_MS = 60_000;
/** Robots whose kind of poll is remembered in memory; a poll may name any robot id, so the memory is bounded. */
const RECORDED_POLLS_LIMIT = 10_000;
/** Work arriving for a robot one item at a time (automation matches) is looked at no more often than this. */
const ARRIVAL_CHECK_SPACING_MS = 1000;

const pollKey = (robotId: string, limit: number, fullText: boolean) => `${robotId}|${limit}|${fullText}`;

/**
 * The latest lease expiry: the end of year 9999, the last instant Python's `datetime` holds (the
 * reference implementation fails past it) and well inside what a JavaScript Date holds.
 */
const LATEST_LEASE_EXPIRY_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The lease in milliseconds, refused (422, before anything is written) unless it is a positive
 * duration whose expiry, counted from now, is a date no later than the end of year 9999.
 */
function leaseMilliseconds(lease: string | undefined): number {
  const text = lease === undefined || lease === '' || lease === 'undefined' ? DEFAULT_LEASE : lease;
  const ms = parseIsoDuration(text);
  if (ms === null || ms <= 0) {
    throw ServiceError.unprocessable([{ type: 'value_error', loc: ['query', 'lease'], msg: 'Value error, lease must be a positive ISO 8601 duration.', input: text }]);
  }
  if (!Number.isFinite(ms) || Date.now() + ms > LATEST_LEASE_EXPIRY_MS) {
    throw ServiceError.unprocessable([{ type: 'value_error', loc: ['query', 'lease'], msg: 'Value error, lease is too long: it would expire after the year 9999.', input: text }]);
  }
  return ms;
}

/** When a lease of `leaseMs` taken at `fromMs` expires; a lease checked a moment earlier still ends by year 9999. */
const leaseExpiry = (fromMs: number, leaseMs: number): Date => new Date(Math.min(fromMs + leaseMs, LATEST_LEASE_EXPIRY_MS));

function batchLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit) || limit === 0) return MAX_PENDING_ENHANCEMENTS_BATCH_SIZE;
  if (limit < 1) throw ServiceError.unprocessable([{ type: 'greater_than_equal', loc: ['query', 'limit'], msg: 'Input should be greater than or equal to 1', input: limit, ctx: { ge: 1 } }]);
  return Math.min(Math.floor(limit), MAX_PENDING_ENHANCEMENTS_BATCH_SIZE);
}

function leaseLive(batch: RobotBatchDocument, now: Date): boolean {
  return batch.status === 'processing' && batch.lease_expiry !== null && batch.lease_expiry !== undefined && batch.lease_expiry > now;
}

/** The status a pending enhancement is really in: a `processing` row is in its batch's state, and a passed lease is expired even before the sweep. */
function effectiveStatus(row: Pick<PendingEnhancementDocument, 'status'>, batch: RobotBatchDocument, now: Date): string {
  if (row.status !== 'processing') return row.status;
  if (batch.status === 'importing' || batch.status === 'failed') return batch.status;
  return leaseLive(batch, now) ? 'processing' : 'expired';
}

function transitionError(from: string, to: string): ServiceError {
  return ServiceError.unprocessable(`Cannot process results: Cannot transition from status '${from}' to '${to}'`);
}

/** A batch handed out now with a lease, or prepared ahead of the robot's next poll until a deadline. */
type ClaimMode = { leaseMs: number } | { aheadMs: number };

export function createRobotBatchUsecases(deps: {
  pending: PendingEnhancementRepository;
  batches: BatchRepository;
  polls: RobotPollRepository;
  blob: BlobStorage;
  references: ReferenceStorePort;
  notifyOutbox(): void;
  fullTextLinks: FullTextLinks;
  pollPriority: ForegroundPriorityGate;
  /** How long a batch prepared ahead waits for the robot's next poll; 0 prepares nothing ahead. */
  prepareAheadMs: number;
  logger: Pick<Logger, 'warn'>;
}) {
  const { pending, batches, blob } = deps;
  // Preparations running in this process, by the poll they are for.
  const inPreparation = new Map<string, Promise<void>>();
  // The kind of poll each robot last made here, and the arrival checks running, by robot.
  const recordedPolls = new Map<string, RobotPollShape>();
  const arrivalChecks = new Map<string, { again: boolean; done: Promise<void> }>();
  let stopping = false;

  async function urls(batch: RobotBatchDocument) {
    const [references, results, validation] = await Promise.all([
      blob.signedGetUrl(batch.reference_key, SIGNED_URL_SECONDS),
      blob.signedPutUrl(batch.result_key, SIGNED_URL_SECONDS),
      batch.validation_key ? blob.signedGetUrl(batch.validation_key, SIGNED_URL_SECONDS) : Promise.resolve(null),
    ]);
    return { references, results, validation };
  }

  async function batchRead(batch: RobotBatchDocument): Promise<RobotEnhancementBatchRead> {
    const signed = await urls(batch);
    return {
      robot_id: batch.robot_id,
      source: null,
      id: batch._id,
      reference_data_url: signed.references,
      result_storage_url: signed.results,
      validation_result_url: signed.validation,
      error: batch.error,
    };
  }

  /** A batch as clients may see it: one prepared ahead and not handed out does not exist yet. */
  async function visible(id: string): Promise<RobotBatchDocument | null> {
    const batch = await batches.get(id);
    return batch && !UNREVEALED_BATCH_STATUSES.includes(batch.status) ? batch : null;
  }

  async function load(id: string): Promise<RobotBatchDocument> {
    const batch = await visible(id);
    if (!batch) throw ServiceError.notFound('RobotEnhancementBatch', id);
    return batch;
  }

  /** The 422 of a submission the batch's state refuses, naming the first row that cannot move (§12.5). */
  async function refusal(batchId: string, allowed: readonly string[], to: string): Promise<ServiceError> {
    const batch = await load(batchId);
    const now = new Date();
    const rows = await pending.ofBatch(batchId);
    const blocked = rows.map((row) => effectiveStatus(row, batch, now)).find((status) => !allowed.includes(status));
    return transitionError(blocked ?? 'expired', to);
  }

  /**
   * §12.2 steps 1–5: claims up to `limit` of the robot's oldest pending enhancements and writes
   * their reference file. Ahead of a poll only a full batch is prepared; it ends `prepared` and
   * nothing is answered.
   */
  async function claimBatch(caller: PollCaller, robotId: string, limit: number, mode: ClaimMode): Promise<{ batch: RobotEnhancementBatch; size: number } | null> {
    const ahead = 'aheadMs' in mode;
    const fullText = caller.entitlements.includes('full_text');
    // The sweep of this robot's passed leases runs beside the first candidates read: replacements
    // join the back of the queue, so only a read that came back short has to look again for them.
    const [expired, firstCandidates] = await Promise.all([pending.expireDue(new Date(), robotId), pending.candidates(robotId, limit)]);
    const batchId = uuidv7();
    const batch: RobotBatchDocument = {
      _id: batchId,
      robot_id: robotId,
      status: ahead ? 'preparing' : 'processing',
      lease_expiry: leaseExpiry(Date.now(), 'aheadMs' in mode ? mode.aheadMs : mode.leaseMs),
      ...(ahead ? { prepared: { limit, full_text: fullText } } : {}),
      error: null,
      reference_ids: [],
      reference_key: `robot-batches/${batchId}/references.jsonl`,
      result_key: `robot-batches/${batchId}/results.jsonl`,
      validation_key: null,
      created_at: new Date(),
      import: { next_line: 0, attempts: {}, entries: [], in_flight: null },
    };
    let inserted = false;
    let claimed: Array<Pick<PendingEnhancementDocument, '_id' | 'reference_id'>> = [];
    let lines: ReturnType<ReferenceStorePort['referenceFileLines']> = Promise.resolve([]);
    // Ahead of a poll, a contested claim is not retried: the poll itself will claim.
    for (let round = 0; round < (ahead ? 1 : CLAIM_ROUNDS) && claimed.length === 0; round += 1) {
      const candidates = round === 0 && (expired === 0 || firstCandidates.length === limit) ? firstCandidates : await pending.candidates(robotId, limit);
      if (candidates.length === 0) break;
      const perReference = new Map<string, Pick<PendingEnhancementDocument, '_id' | 'reference_id'>>();
      for (const candidate of candidates) if (!perReference.has(candidate.reference_id)) perReference.set(candidate.reference_id, candidate);
      if (ahead && perReference.size < limit) break;
      // The lines are read while the claim runs (a poll is uncontested far more often than
      // not); a contested claim just uses the lines of what it got.
      lines = deps.references.referenceFileLines([...perReference.keys()], fullText);
      lines.catch(() => undefined);
      // The batch holds the lease, so it exists before any row is claimed: rows claimed by a
      // poll that dies here still expire with it.
      if (!inserted) {
        batch.reference_ids = [...perReference.keys()];
        batch.pending_ids = [...perReference.values()].map((row) => row._id);
        await batches.insert(batch);
        inserted = true;
      }
      claimed = await pending.claim([...perReference.values()], batchId);
    }
    if (claimed.length === 0 || (ahead && claimed.length < limit)) {
      if (inserted) await pending.releaseBatch(batchId, { status: batch.status });
      return null;
    }
    let signed: Awaited<ReturnType<typeof urls>>;
    try {
      let mine = new Set(batch.reference_ids);
      if (claimed.length !== mine.size || claimed.some((row) => !mine.has(row.reference_id))) {
        batch.reference_ids = claimed.map((row) => row.reference_id);
        batch.pending_ids = claimed.map((row) => row._id);
        mine = new Set(batch.reference_ids);
        await batches.collection.updateOne({ _id: batchId }, { $set: { reference_ids: batch.reference_ids, pending_ids: batch.pending_ids } });
      }
      const file = await referenceFileText((await lines).filter((item) => mine.has(item.id)), deps.fullTextLinks);
      const upload = blob.put(batch.reference_key, Buffer.from(file, 'utf8'), 'application/x-ndjson');
      if (ahead) {
        // A batch prepared ahead gets its URLs when it is handed out.
        await upload;
        await batches.collection.updateOne({ _id: batchId, status: 'preparing' }, { $set: { status: 'prepared' } });
        return null;
      }
      [signed] = await Promise.all([urls(batch), upload]);
    } catch (error) {
      await pending.releaseBatch(batchId, { status: batch.status });
      throw error;
    }
    return { batch: { id: batchId, reference_storage_url: signed.references, result_storage_url: signed.results, extra_fields: null }, size: claimed.length };
  }

  /** Gives the robot a batch prepared for this poll, its lease starting now. */
  async function handOut(robotId: string, limit: number, fullText: boolean, leaseMs: number): Promise<RobotEnhancementBatch | null> {
    const now = new Date();
    const ready = await batches.collection.findOneAndUpdate(
      { status: 'prepared', robot_id: robotId, 'prepared.limit': limit, 'prepared.full_text': fullText, lease_expiry: { $gt: now } },
      { $set: { status: 'processing', lease_expiry: leaseExpiry(now.getTime(), leaseMs), created_at: now }, $unset: { prepared: '' } },
      { returnDocument: 'after', projection: { _id: 1, reference_key: 1, result_key: 1, validation_key: 1 } },
    );
    if (!ready) return null;
    const signed = await urls(ready);
    return { id: ready._id, reference_storage_url: signed.references, result_storage_url: signed.results, extra_fields: null };
  }

  /**
   * Releases the robot's batches prepared for polls of another kind (a robot restarted with another
   * limit, say); answers how many. A concurrent hand-out of one of them wins over this.
   */
  async function releasePreparedForOtherPolls(robotId: string, limit: number, fullText: boolean): Promise<number> {
    const others = await batches.collection
      .find({ status: 'prepared', robot_id: robotId, $or: [{ 'prepared.limit': { $ne: limit } }, { 'prepared.full_text': { $ne: fullText } }] }, { projection: { _id: 1 } })
      .toArray();
    let released = 0;
    for (const other of others) if (await pending.releaseBatch(other._id, { status: 'prepared' })) released += 1;
    return released;
  }

  /**
   * After a full batch, the robot's next one is claimed and written while it works on this one, so
   * its next poll only takes it; at most one preparation per kind of poll runs in this process.
   */
  function prepareAhead(caller: PollCaller, robotId: string, limit: number, key: string): void {
    if (deps.prepareAheadMs === 0 || stopping || inPreparation.has(key)) return;
    const preparation = deps.pollPriority
      .inForeground(() => claimBatch(caller, robotId, limit, { aheadMs: deps.prepareAheadMs }))
      .then(
        () => undefined,
        (error: unknown) => deps.logger.warn({ err: error, robot_id: robotId }, 'preparing the next robot batch failed; the next poll claims its own'),
      )
      .finally(() => inPreparation.delete(key));
    inPreparation.set(key, preparation);
  }

  /** Remembers the kind of poll a robot makes, so work arriving for it later is prepared for that poll. */
  function notePoll(robotId: string, limit: number, fullText: boolean): void {
    const known = recordedPolls.get(robotId);
    const now = new Date();
    if (known && known.limit === limit && known.full_text === fullText && now.getTime() - known.at.getTime() < POLL_RECORD_REFRESH_MS) return;
    const shape: RobotPollShape = { limit, full_text: fullText, at: now };
    if (!known && recordedPolls.size >= RECORDED_POLLS_LIMIT) recordedPolls.clear();
    recordedPolls.set(robotId, shape);
    deps.polls.record(robotId, shape).catch((error: unknown) => deps.logger.warn({ err: error, robot_id: robotId }, 'recording the kind of a robot poll failed'));
  }

  /**
   * A robot that polled within the prepare-ahead time has a full batch of newly arrived work
   * prepared for a poll like its last, unless one is already prepared or being prepared for it.
   */
  async function prepareForArrivedWork(robotId: string): Promise<void> {
    const fresh = (shape: RobotPollShape | null | undefined): shape is RobotPollShape => !!shape && Date.now() - shape.at.getTime() <= deps.prepareAheadMs;
    // This process's record is the newest unless the robot has since polled at another instance.
    const local = recordedPolls.get(robotId);
    const shape = fresh(local) ? local : await deps.polls.lastPoll(robotId);
    if (!fresh(shape)) return;
    const key = pollKey(robotId, shape.limit, shape.full_text);
    if (inPreparation.has(key)) return;
    const waiting = await batches.collection.findOne(
      { status: { $in: ['preparing', 'prepared'] }, robot_id: robotId, 'prepared.limit': shape.limit, 'prepared.full_text': shape.full_text },
      { projection: { _id: 1 } },
    );
    if (waiting || stopping) return;
    prepareAhead({ entitlements: shape.full_text ? ['full_text'] : [] }, robotId, shape.limit, key);
    await inPreparation.get(key);
  }

  return {
    /**
     * Pending enhancements were just created for these robots: each robot's next batch is prepared
     * in the background, so the first poll after work arrives is as quick as the ones that follow.
     * Arrivals during a check are looked at once more after it (at most once a second per robot).
     */
    workArrived(robotIds: Iterable<string>): void {
      if (deps.prepareAheadMs === 0 || stopping) return;
      for (const robotId of new Set(robotIds)) {
        const running = arrivalChecks.get(robotId);
        if (running) {
          running.again = true;
          continue;
        }
        const check = { again: true, done: Promise.resolve() };
        check.done = (async () => {
          while (check.again && !stopping) {
            check.again = false;
            await prepareForArrivedWork(robotId).catch((error: unknown) => deps.logger.warn({ err: error, robot_id: robotId }, 'preparing a batch for arrived work failed; the next poll claims its own'));
            if (check.again && !stopping) await new Promise((resolve) => setTimeout(resolve, ARRIVAL_CHECK_SPACING_MS));
          }
        })().finally(() => arrivalChecks.delete(robotId));
        arrivalChecks.set(robotId, check);
      }
    },

    /** §12.2: null when there is nothing to lease (the gateway answers 204). */
    poll(caller: PollCaller, robotId: string, limitInput: number | undefined, leaseInput: string | undefined): Promise<RobotEnhancementBatch | null> {
      const limit = batchLimit(limitInput);
      const leaseMs = leaseMilliseconds(leaseInput);
      const fullText = caller.entitlements.includes('full_text');
      const key = pollKey(robotId, limit, fullText);
      notePoll(robotId, limit, fullText);
      return deps.pollPriority.inForeground(async () => {
        // A preparation under way for this poll is nearer its end than a claim started now.
        await inPreparation.get(key);
        const prepared = await handOut(robotId, limit, fullText, leaseMs);
        if (prepared) {
          prepareAhead(caller, robotId, limit, key);
          return prepared;
        }
        let claimed = await claimBatch(caller, robotId, limit, { leaseMs });
        if (claimed === null) {
          // A preparation started by a concurrent poll may hold the rows this claim found taken.
          await inPreparation.get(key);
          const late = await handOut(robotId, limit, fullText, leaseMs);
          if (late) {
            prepareAhead(caller, robotId, limit, key);
            return late;
          }
          // Rows held for another kind of poll go back rather than leave this one empty.
          if ((await releasePreparedForOtherPolls(robotId, limit, fullText)) === 0) return null;
          claimed = await claimBatch(caller, robotId, limit, { leaseMs });
          if (claimed === null) return null;
        }
        if (claimed.size === limit) prepareAhead(caller, robotId, limit, key);
        return claimed.batch;
      });
    },

    /** Lets the preparations under way finish and starts no more (the service is stopping). */
    async drain(): Promise<void> {
      stopping = true;
      await Promise.all([...arrivalChecks.values()].map((check) => check.done));
      await Promise.all(inPreparation.values());
    },

    /** §12.3, plus `validation_result_url` once the results are imported (extension). */
    async get(id: string): Promise<RobotEnhancementBatch & { validation_result_url: string | null }> {
      const batch = await load(id);
      const signed = await urls(batch);
      return { id: batch._id, reference_storage_url: signed.references, result_storage_url: signed.results, extra_fields: null, validation_result_url: signed.validation };
    },

    /** §12.5. */
    async submitResult(pathId: string, json: string): Promise<RobotEnhancementBatchRead> {
      let value: unknown;
      try {
        value = JSON.parse(json);
      } catch {
        throw ServiceError.unprocessable([{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: json }]);
      }
      const parsed = validate(RobotEnhancementBatchResult, value, 'body');
      if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
      const body = parsed.value;
      if (body.request_id !== pathId) throw ServiceError.badRequest('Request ID mismatch');
      const batch = await load(pathId);
      const now = new Date();
      // One conditional write to the batch moves all its rows: a row still `processing` is in its batch's state.
      if (body.error) {
        const failed = await batches.collection.updateOne(
          { _id: batch._id, $or: [{ status: 'importing' }, { status: 'processing', lease_expiry: { $gt: now } }] },
          { $set: { status: 'failed', error: body.error.message, lease_expiry: null } },
        );
        if (failed.matchedCount === 0) throw await refusal(batch._id, ['processing', 'importing'], 'failed');
        await pending.transition(batch._id, ['processing', 'importing'], 'failed');
        return batchRead({ ...batch, status: 'failed', error: body.error.message });
      }
      const job: RobotResultImportJob = { job_id: uuidv7(), robot_enhancement_batch_id: batch._id };
      // The state change and the job are one write: the import cannot be lost to a crash.
      const accepted = await batches.collection.updateOne(
        { _id: batch._id, status: 'processing', lease_expiry: { $gt: now } },
        { $set: { status: 'importing', lease_expiry: null }, ...pushToOutbox([{ event_id: job.job_id, exchange: '', routing_key: QUEUES.robotBrokerRobotResultImport, payload: job, created_at: now }]) },
      );
      if (accepted.matchedCount === 0) throw await refusal(batch._id, ['processing'], 'importing');
      deps.notifyOutbox();
      return batchRead({ ...batch, status: 'importing' });
    },

    /** §12.7: the new expiry as a Python isoformat string. */
    async renewLease(id: string, leaseInput: string | undefined): Promise<string> {
      const leaseMs = leaseMilliseconds(leaseInput);
      const batch = await visible(id);
      if (!batch) throw ServiceError.unprocessable(`RobotEnhancementBatch with id [${id}] does not exist.`);
      const now = new Date();
      const expiresAt = leaseExpiry(now.getTime(), leaseMs);
      if (!(await batches.renew(batch._id, now, expiresAt))) throw ServiceError.conflict(NOTHING_TO_RENEW_DETAIL);
      return pythonIsoformatUtc(expiresAt);
    },
  };
}

export type RobotBatchUsecases = ReturnType<typeof createRobotBatchUsecases>;
