import { deriveRequestStatus, EnhancementRequestIn, uuidv7, validate, type EnhancementRequestRead } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import type { Collection, Db } from 'mongodb';
import { COLLECTIONS, type EnhancementRequestDocument, type RobotDocument } from '../data-access/collections';
import type { IndexedVersionRepository } from '../data-access/indexed-version.repository';
import type { NewPendingEnhancement, PendingEnhancementRepository } from '../data-access/pending-enhancement.repository';
import type { ReferenceStorePort } from './ports';

// Enhancement requests by reference ids (§10) and pending enhancements for other producers.

/** References checked per call to dedup-service. */
const EXISTENCE_CHUNK = 1000;
/**
 * Calls to dedup-service in flight at once: its store reads the next chunk while it answers the
 * last. More gain nothing (dedup-service's own work is the bound) and crowd its other callers.
 */
const EXISTENCE_CALLS_IN_FLIGHT = 2;
/**
 * Pending enhancements written per insert: the driver encodes a whole insert in one go, so a
 * request of 100,000 references written at once held the process for seconds.
 */
const ROW_CHUNK = 2000;
/** Inserts in flight at once: the next chunk is encoded while the store writes the last. */
const ROW_WRITES_IN_FLIGHT = 2;

/**
 * Runs `work` over [0, length) in chunks of `size`, at most `inFlight` at once. After a failure no
 * chunk starts; the first failure is thrown once the chunks under way have ended.
 */
async function inChunks(length: number, size: number, inFlight: number, work: (start: number, end: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < length) {
      const start = next;
      next += size;
      try {
        await work(start, Math.min(start + size, length));
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const outcomes = await Promise.allSettled(Array.from({ length: Math.min(inFlight, Math.ceil(length / size)) }, worker));
  const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
  if (failure) throw failure.reason;
}

export function createEnhancementRequestUsecases(deps: {
  db: Db;
  pending: PendingEnhancementRepository;
  indexed: Pick<IndexedVersionRepository, 'announced'>;
  references: ReferenceStorePort;
  /** Told which robots got new pending enhancements (their next batch is prepared ahead). */
  workArrived(robotIds: Iterable<string>): void;
}) {
  const requests: Collection<EnhancementRequestDocument> = deps.db.collection(COLLECTIONS.requests);
  const robots: Collection<RobotDocument> = deps.db.collection(COLLECTIONS.robots);

  function requestRead(request: EnhancementRequestDocument, status: EnhancementRequestRead['request_status']): EnhancementRequestRead {
    return {
      robot_id: request.robot_id,
      reference_ids: request.reference_ids,
      source: request.source,
      id: request._id,
      request_status: status,
      reference_data_url: null,
      result_storage_url: null,
      validation_result_url: null,
      error: request.error,
    };
  }

  async function read(request: EnhancementRequestDocument): Promise<EnhancementRequestRead> {
    return requestRead(request, deriveRequestStatus(await deps.pending.statusesOfRequest(request._id), request.request_status));
  }

  /**
   * The ids that name no reference, in the order given. References the search index has announced
   * exist (none is ever deleted); only the others are looked up in dedup-service, a few chunks at
   * a time.
   */
  async function missingReferences(ids: readonly string[]): Promise<string[]> {
    const found = await deps.indexed.announced(ids);
    const unknown = found.size === 0 ? ids : ids.filter((id) => !found.has(id));
    await inChunks(unknown.length, EXISTENCE_CHUNK, EXISTENCE_CALLS_IN_FLIGHT, async (start, end) => {
      for (const id of await deps.references.storedReferenceIds(unknown.slice(start, end))) found.add(id);
    });
    return unknown.filter((id) => !found.has(id));
  }

  /** Writes the rows a chunk at a time: no single insert holds the process (or the store) for long. */
  async function createRows(rows: readonly NewPendingEnhancement[]): Promise<number> {
    let created = 0;
    await inChunks(rows.length, ROW_CHUNK, ROW_WRITES_IN_FLIGHT, async (start, end) => {
      created += await deps.pending.createMany(rows.slice(start, end));
    });
    if (created > 0) deps.workArrived(new Set(rows.map((row) => row.robot_id)));
    return created;
  }

  return {
    /** Pending enhancements already keyed by their caller (an automation match's event id, say). */
    createPendingRows: createRows,

    async create(json: string): Promise<EnhancementRequestRead> {
      let value: unknown;
      try {
        value = JSON.parse(json);
      } catch {
        throw ServiceError.unprocessable([{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: json }]);
      }
      const parsed = validate(EnhancementRequestIn, value, 'body');
      if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
      const body = parsed.value;
      if (!(await robots.findOne({ _id: body.robot_id }, { projection: { _id: 1 } }))) throw ServiceError.unprocessable(`Robot with id ${body.robot_id} does not exist.`);
      const missing = await missingReferences(body.reference_ids);
      if (missing.length > 0) throw ServiceError.unprocessable(`Reference with id [${missing.join(', ')}] does not exist.`);
      const request: EnhancementRequestDocument = {
        _id: uuidv7(),
        robot_id: body.robot_id,
        reference_ids: body.reference_ids,
        source: body.source ?? null,
        request_status: 'received',
        error: null,
        created_at: new Date(),
      };
      await requests.insertOne(request);
      await createRows(
        body.reference_ids.map((referenceId) => ({ reference_id: referenceId, robot_id: body.robot_id, enhancement_request_id: request._id, source: request.source, dedup_key: `${request._id}:${referenceId}` })),
      );
      // A request just accepted is `received` whatever its rows say (§10.2): nothing to count.
      return requestRead(request, 'received');
    },

    async get(id: string): Promise<EnhancementRequestRead> {
      const request = await requests.findOne({ _id: id });
      if (request) return read(request);
      // Search-based requests live in search-request-service; their pending enhancements are here.
      const sample = await deps.pending.collection.findOne({ enhancement_request_id: id });
      if (!sample) throw ServiceError.notFound('EnhancementRequest', id);
      return read({ _id: id, robot_id: sample.robot_id, reference_ids: [], source: sample.source, request_status: 'received', error: null, created_at: sample.created_at });
    },

    /** Status counts of a request's pending enhancements (search requests show them, §11.3). */
    async statusCounts(id: string): Promise<Record<string, number>> {
      return deps.pending.statusCountsOfRequest(id);
    },

    /**
     * Pending enhancements for a chunk of references (search scans, automations): one per
     * (request, reference) when a request is given, else one per (chunk, reference), so a
     * retried chunk adds nothing.
     */
    async createPending(input: { robot_id: string; reference_ids: string[]; enhancement_request_id: string; source: string; chunk_key: string }): Promise<number> {
      if (!input.robot_id) throw ServiceError.unprocessable('robot_id is required.');
      const requestId = input.enhancement_request_id || null;
      const source = input.source || null;
      if (!requestId && !source) throw ServiceError.unprocessable('Either enhancement_request_id or source is required.');
      const keyOf = (referenceId: string): string | undefined => {
        if (requestId) return `${requestId}:${referenceId}`;
        if (input.chunk_key) return `chunk:${input.chunk_key}:${referenceId}`;
        return undefined;
      };
      const rows: NewPendingEnhancement[] = [...new Set(input.reference_ids)].map((referenceId) => ({
        reference_id: referenceId,
        robot_id: input.robot_id,
        enhancement_request_id: requestId,
        source,
        dedup_key: keyOf(referenceId),
      }));
      return createRows(rows);
    },

    /**
     * Pending enhancements of many (robot, reference, source) items in one bulk write (automation
     * matches of a percolation batch): one per (request, reference) when a request is given, else
     * one per (source, robot, reference), so a redelivered event adds nothing.
     */
    async createPendingItems(items: ReadonlyArray<{ reference_id: string; robot_id: string; enhancement_request_id: string; source: string }>): Promise<number> {
      const rows = new Map<string, NewPendingEnhancement>();
      for (const item of items) {
        if (!item.robot_id || !item.reference_id) throw ServiceError.unprocessable('robot_id and reference_id are required.');
        const requestId = item.enhancement_request_id || null;
        const source = item.source || null;
        if (!requestId && !source) throw ServiceError.unprocessable('Either enhancement_request_id or source is required.');
        const key = requestId ? `${requestId}:${item.reference_id}` : `source:${source}:${item.robot_id}:${item.reference_id}`;
        rows.set(key, { reference_id: item.reference_id, robot_id: item.robot_id, enhancement_request_id: requestId, source, dedup_key: key });
      }
      return createRows([...rows.values()]);
    },
  };
}

export type EnhancementRequestUsecases = ReturnType<typeof createEnhancementRequestUsecases>;
