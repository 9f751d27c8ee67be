import { Type, type Static } from '@sinclair/typebox';
import { canonicalUuid } from '../validation/uuid';
import { registerSchemaCheck, valueError, type RuleIssue } from '../validation/schema-rules';
import { JsonObject, Nullable, Uuid, withCheck } from './common.schema';
import { Enhancement } from './enhancement.schema';
import { EnhancementRequestStatus, type PendingEnhancementStatus, SearchStatus, SingleEnhancementRequestStatus } from './enums.schema';

// Enhancement requests: by reference ids (§10), by search (§11), automations (§13.1) and single
// requests (§14).

/** Exact message of the duplicate-ids validator (§10.1). */
export const DUPLICATE_REFERENCE_IDS_MESSAGE = 'reference_ids must not contain duplicate ids.';

/** `reference_ids` must not repeat an id (compared in canonical form). */
export function checkUniqueReferenceIds(value: unknown): RuleIssue[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  for (const item of value) {
    const key = canonicalUuid(item) ?? String(item);
    if (seen.has(key)) return [valueError(DUPLICATE_REFERENCE_IDS_MESSAGE)];
    seen.add(key);
  }
  return [];
}
registerSchemaCheck('unique-reference-ids', checkUniqueReferenceIds);

export const EnhancementRequestIn = Type.Object(
  {
    robot_id: Uuid(),
    reference_ids: withCheck(Type.Array(Uuid()), 'unique-reference-ids'),
    source: Type.Optional(Nullable(Type.String(), { default: null })),
  },
  { $id: 'EnhancementRequestIn' },
);
export type EnhancementRequestIn = Static<typeof EnhancementRequestIn>;

export const EnhancementRequestRead = Type.Object(
  {
    robot_id: Uuid(),
    reference_ids: Type.Array(Uuid()),
    source: Nullable(Type.String()),
    id: Uuid(),
    request_status: EnhancementRequestStatus,
    reference_data_url: Nullable(Type.String()),
    result_storage_url: Nullable(Type.String()),
    validation_result_url: Nullable(Type.String()),
    error: Nullable(Type.String()),
  },
  { $id: 'EnhancementRequestRead' },
);
export type EnhancementRequestRead = Static<typeof EnhancementRequestRead>;

export const EnhancementRequestPathParams = Type.Object({ enhancement_request_id: Uuid() });
export type EnhancementRequestPathParams = Static<typeof EnhancementRequestPathParams>;

export const SearchEnhancementRequestIn = Type.Object(
  {
    robot_id: Uuid(),
    search_query: Type.String(),
    source: Type.Optional(Nullable(Type.String(), { default: null })),
    // D12: extension; a dry run if either this or the query parameter is true.
    dry_run: Type.Optional(Type.Boolean({ default: false })),
  },
  { $id: 'SearchEnhancementRequestIn' },
);
export type SearchEnhancementRequestIn = Static<typeof SearchEnhancementRequestIn>;

/** `?dry_run=` accepts true/false, 1/0, yes/no, on/off, t/f, y/n, any case (§11.1). */
export const SearchEnhancementRequestQuery = Type.Object({ dry_run: Type.Optional(Type.Boolean({ default: false })) });
export type SearchEnhancementRequestQuery = Static<typeof SearchEnhancementRequestQuery>;

export const EnhancementStatusCounts = Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { $id: 'EnhancementStatusCounts' });
export type EnhancementStatusCounts = Partial<Record<PendingEnhancementStatus, number>>;

export const SearchEnhancementRequestRead = Type.Object(
  {
    id: Uuid(),
    robot_id: Uuid(),
    source: Nullable(Type.String()),
    search_status: SearchStatus,
    request_status: EnhancementRequestStatus,
    n_matched: Nullable(Type.Integer()),
    n_enhancements_requested: Type.Integer({ default: 0 }),
    enhancement_status_counts: EnhancementStatusCounts,
    error: Nullable(Type.String()),
  },
  { $id: 'SearchEnhancementRequestRead' },
);
export type SearchEnhancementRequestRead = Static<typeof SearchEnhancementRequestRead>;

export const RobotAutomationIn = Type.Object(
  { robot_id: Uuid(), query: JsonObject({ description: 'Elasticsearch query DSL without a top-level `query` wrapper' }) },
  { $id: 'RobotAutomationIn' },
);
export type RobotAutomationIn = Static<typeof RobotAutomationIn>;

export const RobotAutomation = Type.Object(
  { robot_id: Uuid(), query: JsonObject(), id: Uuid() },
  { $id: 'RobotAutomation' },
);
export type RobotAutomation = Static<typeof RobotAutomation>;

export const AutomationPathParams = Type.Object({ automation_id: Uuid() });
export type AutomationPathParams = Static<typeof AutomationPathParams>;

export const SingleEnhancementRequestIn = Type.Object(
  {
    reference_id: Uuid(),
    robot_id: Uuid(),
    source: Type.Optional(Nullable(Type.String(), { default: null })),
    enhancement_parameters: Type.Optional(Nullable(JsonObject(), { default: null })),
  },
  { $id: 'SingleEnhancementRequestIn' },
);
export type SingleEnhancementRequestIn = Static<typeof SingleEnhancementRequestIn>;

export const SingleEnhancementRequestRead = Type.Object(
  {
    reference_id: Uuid(),
    robot_id: Uuid(),
    source: Nullable(Type.String()),
    enhancement_parameters: Nullable(JsonObject()),
    id: Uuid(),
    request_status: SingleEnhancementRequestStatus,
    error: Nullable(Type.String()),
  },
  { $id: 'SingleEnhancementRequestRead' },
);
export type SingleEnhancementRequestRead = Static<typeof SingleEnhancementRequestRead>;

export const SingleRequestPathParams = Type.Object({ request_id: Uuid() });
export type SingleRequestPathParams = Static<typeof SingleRequestPathParams>;

export const RobotError = Type.Object({ message: Type.String() }, { $id: 'RobotError' });
export type RobotError = Static<typeof RobotError>;

export const EXACTLY_ONE_RESULT_MESSAGE = 'exactly one of error or enhancement must be set';

/** SingleRobotResult: exactly one of `error` / `enhancement` (§14.4). */
export function checkExactlyOneResult(value: unknown): RuleIssue[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const record = value as Record<string, unknown>;
  const hasError = record.error !== undefined && record.error !== null;
  const hasEnhancement = record.enhancement !== undefined && record.enhancement !== null;
  return hasError === hasEnhancement ? [valueError(EXACTLY_ONE_RESULT_MESSAGE)] : [];
}
registerSchemaCheck('exactly-one-result', checkExactlyOneResult);

export const SingleRobotResult = withCheck(
  Type.Object(
    {
      request_id: Uuid(),
      error: Type.Optional(Nullable(RobotError, { default: null })),
      enhancement: Type.Optional(Nullable(Enhancement, { default: null })),
    },
    { $id: 'SingleRobotResult' },
  ),
  'exactly-one-result',
);
export type SingleRobotResult = Static<typeof SingleRobotResult>;

/** What the service POSTs to `{robot base_url}/single/` (§14.3). */
export const SingleRobotRequest = Type.Object(
  { id: Uuid(), reference: JsonObject(), extra_fields: Nullable(JsonObject()) },
  { $id: 'RobotRequest' },
);
export type SingleRobotRequest = Static<typeof SingleRobotRequest>;

/** Legacy `RobotClient.send_robot_result` body (§10.5; optional route). */
export const LegacyRobotResult = Type.Object(
  { request_id: Uuid(), error: Type.Optional(Nullable(RobotError, { default: null })) },
  { $id: 'RobotResult' },
);
export type LegacyRobotResult = Static<typeof LegacyRobotResult>;
