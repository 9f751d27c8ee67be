import { robotAuthHeaders, SingleEnhancementRequestIn, SingleRobotResult, uuidv7, validate, type SingleEnhancementRequestRead, type SingleEnhancementRequestStatus } from '@destiny/contracts';
import { OutboundRequestError, ServiceError, type EnhancementContentPreparer, type FullTextLinks, type Logger, type OutboundHttpClient, type OutboundResponse } from '@destiny/platform';
import type { Collection, Db } from 'mongodb';
import { COLLECTIONS, type RobotDocument, type SingleRequestDocument } from '../data-access/collections';
import { referenceFileRecord } from '../domain/full-text-redaction';
import { outcomeOfRobotAnswer } from '../domain/robot-answer';
import type { SecretCipher } from '../domain/secret-cipher';
import type { ReferenceStorePort } from './ports';

// Single enhancement requests (§14): the service calls the robot's base_url, the robot reports back.

const ROBOT_ANSWER_MAX_BYTES = 64 * 1024;
const BACKOFF_MS = 200;

export interface SingleRequestDeps {
  db: Db;
  cipher: SecretCipher;
  references: ReferenceStorePort;
  outbound: OutboundHttpClient;
  logger: Logger;
  callTimeoutMs: number;
  callAttempts: number;
  /** Full texts downloaded and stored, linked data validated before a result is stored (§6.6). */
  content: EnhancementContentPreparer;
  /** Signs stored full texts in the reference sent to the robot. */
  fullTextLinks: FullTextLinks;
}

function parseBody(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    throw ServiceError.unprocessable([{ type: 'json_invalid', loc: ['body'], msg: 'JSON decode error', input: json }]);
  }
}

function read(request: SingleRequestDocument): SingleEnhancementRequestRead {
  return {
    reference_id: request.reference_id,
    robot_id: request.robot_id,
    source: request.source,
    enhancement_parameters: request.enhancement_parameters,
    id: request._id,
    request_status: request.request_status,
    error: request.error,
  };
}

export function createSingleRequestUsecases(deps: SingleRequestDeps) {
  const requests: Collection<SingleRequestDocument> = deps.db.collection(COLLECTIONS.singleRequests);
  const robots: Collection<RobotDocument> = deps.db.collection(COLLECTIONS.robots);

  /**
   * One POST, retried only on network errors (refused, unreachable, reset): a timed-out call may
   * still be running at the robot, so it is not repeated. A repeat carries the same request id.
   */
  async function callRobot(robot: RobotDocument, url: string, body: string): Promise<OutboundResponse | null> {
    const secret = deps.cipher.decrypt(robot.secret);
    for (let attempt = 1; ; attempt += 1) {
      try {
        // Signed per attempt: the timestamp must be fresh when the robot checks it.
        const headers = { 'Content-Type': 'application/json', ...robotAuthHeaders({ secret, clientId: robot._id, body }) };
        return await deps.outbound.request({ url, method: 'POST', headers, body, timeoutMs: deps.callTimeoutMs, maxBytes: ROBOT_ANSWER_MAX_BYTES });
      } catch (error) {
        const retryable = error instanceof OutboundRequestError && error.reason === 'network';
        deps.logger.warn({ err: error, robot_id: robot._id, attempt }, 'single enhancement request: robot call failed');
        if (!retryable || attempt >= deps.callAttempts) return null;
        await new Promise((resolve) => setTimeout(resolve, BACKOFF_MS * 2 ** (attempt - 1)));
      }
    }
  }

  return {
    async create(json: string): Promise<SingleEnhancementRequestRead> {
      const parsed = validate(SingleEnhancementRequestIn, parseBody(json), 'body');
      if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
      const body = parsed.value;
      const reference = await deps.references.getReference(body.reference_id);
      if (!reference) throw ServiceError.unprocessable(`Reference with id ${body.reference_id} does not exist.`);
      const robot = await robots.findOne({ _id: body.robot_id });
      if (!robot) throw ServiceError.unprocessable(`Robot with id ${body.robot_id} does not exist.`);
      if (!robot.base_url) throw ServiceError.unprocessable('Robot has no base_url.');
      const now = new Date();
      const request: SingleRequestDocument = {
        _id: uuidv7(),
        reference_id: body.reference_id,
        robot_id: body.robot_id,
        source: body.source ?? null,
        enhancement_parameters: (body.enhancement_parameters ?? null) as Record<string, unknown> | null,
        request_status: 'received',
        error: null,
        created_at: now,
        updated_at: now,
      };
      await requests.insertOne(request);
      const shown = await deps.fullTextLinks.present(referenceFileRecord(reference, robot.entitlements));
      const robotRequest = JSON.stringify({ id: request._id, reference: shown, extra_fields: request.enhancement_parameters });
      const answer = await callRobot(robot, `${robot.base_url.replace(/\/+$/, '')}/single/`, robotRequest);
      const outcome = outcomeOfRobotAnswer(robot._id, answer);
      // A robot may report back before its 202 arrives here; its report wins.
      const updated = await requests.findOneAndUpdate(
        { _id: request._id, request_status: 'received' },
        { $set: { request_status: outcome.status, error: outcome.status === 'accepted' ? null : outcome.error, updated_at: new Date() } },
        { returnDocument: 'after' },
      );
      return read(updated ?? (await requests.findOne({ _id: request._id })) ?? request);
    },

    async get(id: string): Promise<SingleEnhancementRequestRead> {
      const request = await requests.findOne({ _id: id });
      if (!request) throw ServiceError.notFound('EnhancementRequest', id);
      return read(request);
    },

    /** §14.4; answers the request and whether an enhancement was stored (201) or an error recorded (200). */
    async submitResult(pathId: string, json: string): Promise<SingleEnhancementRequestRead> {
      const parsed = validate(SingleRobotResult, parseBody(json), 'body');
      if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
      const result = parsed.value;
      if (result.request_id !== pathId) throw ServiceError.badRequest('Request ID mismatch');
      const request = await requests.findOne({ _id: pathId });
      if (!request) throw ServiceError.notFound('EnhancementRequest', pathId);
      let status: SingleEnhancementRequestStatus;
      let error: string | null;
      if (result.error) {
        status = 'failed';
        error = result.error.message;
      } else {
        const enhancement = result.enhancement as NonNullable<typeof result.enhancement>;
        if (enhancement.reference_id !== request.reference_id) throw ServiceError.unprocessable('Enhancement is for a different reference than requested.');
        // dedup-service checks derived_from (each parent on the reference or one of its duplicates).
        const prepared = await deps.content.prepare(enhancement.content as Record<string, unknown>);
        if (!prepared.ok) throw ServiceError.unprocessable(prepared.message);
        const [outcome] = await deps.references.addEnhancements({ enhancements_json: [JSON.stringify({ ...enhancement, content: prepared.content })], robot_id: request.robot_id, robot_enhancement_batch_id: '', enhancement_request_id: request._id });
        if (!outcome || outcome.status === 'failed') throw ServiceError.unprocessable(outcome?.error || 'Enhancement could not be stored.');
        status = 'completed';
        error = null;
      }
      const updated = await requests.findOneAndUpdate({ _id: request._id }, { $set: { request_status: status, error, updated_at: new Date() } }, { returnDocument: 'after' });
      return read(updated ?? { ...request, request_status: status, error });
    },
  };
}

export type SingleRequestUsecases = ReturnType<typeof createSingleRequestUsecases>;
