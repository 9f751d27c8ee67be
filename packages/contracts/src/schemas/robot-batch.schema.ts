import { Type, type Static } from '@sinclair/typebox';
import { registerSchemaCheck, valueError, type RuleIssue } from '../validation/schema-rules';
import { parseIsoDuration } from '../validation/iso-duration';
import { HttpUrl, IsoDuration, JsonObject, Nullable, Uuid, withCheck } from './common.schema';
import { RobotError } from './enhancement-request.schema';

// Robot enhancement batches (§12).

export const MAX_PENDING_ENHANCEMENTS_BATCH_SIZE = 10000;
export const DEFAULT_LEASE = 'PT10M';

/** A lease must be a positive duration (§12.2; zero is not positive, negatives fail the format). */
export function checkPositiveDuration(value: unknown): RuleIssue[] {
  const ms = parseIsoDuration(value);
  return ms === 0 ? [valueError('lease duration must be positive')] : [];
}
registerSchemaCheck('positive-duration', checkPositiveDuration);

const Lease = withCheck(IsoDuration({ default: DEFAULT_LEASE }), 'positive-duration');

/** Poll query: `limit` defaults to and is capped at 10000 (capped, not rejected); `lease` PT10M. */
export const RobotEnhancementBatchPollQuery = Type.Object({
  robot_id: Uuid(),
  limit: Type.Optional(Type.Integer({ minimum: 1, default: MAX_PENDING_ENHANCEMENTS_BATCH_SIZE, 'x-destiny-cap': MAX_PENDING_ENHANCEMENTS_BATCH_SIZE })),
  lease: Type.Optional(Lease),
});
export type RobotEnhancementBatchPollQuery = Static<typeof RobotEnhancementBatchPollQuery>;

export const RenewLeaseQuery = Type.Object({ lease: Type.Optional(Lease) });
export type RenewLeaseQuery = Static<typeof RenewLeaseQuery>;

export const RobotEnhancementBatchPathParams = Type.Object({ robot_enhancement_batch_id: Uuid() });
export type RobotEnhancementBatchPathParams = Static<typeof RobotEnhancementBatchPathParams>;

export const RobotEnhancementBatch = Type.Object(
  {
    id: Uuid(),
    reference_storage_url: HttpUrl(),
    result_storage_url: HttpUrl(),
    extra_fields: Nullable(JsonObject()),
  },
  { $id: 'RobotEnhancementBatch' },
);
export type RobotEnhancementBatch = Static<typeof RobotEnhancementBatch>;

export const RobotEnhancementBatchResult = Type.Object(
  { request_id: Uuid(), error: Type.Optional(Nullable(RobotError, { default: null })) },
  { $id: 'RobotEnhancementBatchResult' },
);
export type RobotEnhancementBatchResult = Static<typeof RobotEnhancementBatchResult>;

export const RobotEnhancementBatchRead = Type.Object(
  {
    robot_id: Uuid(),
    source: Nullable(Type.String()),
    id: Uuid(),
    reference_data_url: Nullable(Type.String()),
    result_storage_url: Nullable(Type.String()),
    validation_result_url: Nullable(Type.String()),
    error: Nullable(Type.String()),
  },
  { $id: 'RobotEnhancementBatchRead' },
);
export type RobotEnhancementBatchRead = Static<typeof RobotEnhancementBatchRead>;

/** 409 detail of a renewal with nothing to renew (§12.7). */
export const NOTHING_TO_RENEW_DETAIL = 'This batch has no pending enhancements. They may have already expired or been completed.';
