import { Type, type Static } from '@sinclair/typebox';
import { registerSchemaCheck, valueError, type RuleIssue } from '../validation/schema-rules';
import { Nullable, StringEnum, Uuid, withCheck } from './common.schema';
import { DecisionAuthority, DecisionTrigger, DuplicateDecisionOutcome } from './enums.schema';

// Manual and invoked deduplication (§15.6, §15.7).

export const CANONICAL_IFF_DUPLICATE_MESSAGE = 'canonical_reference_id must be populated if and only if duplicate_determination is DUPLICATE';

/** `canonical_reference_id` is set if and only if the determination is `duplicate`. */
export function checkCanonicalIffDuplicate(value: unknown): RuleIssue[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  const record = value as Record<string, unknown>;
  const hasCanonical = record.canonical_reference_id !== undefined && record.canonical_reference_id !== null;
  return hasCanonical === (record.duplicate_determination === 'duplicate') ? [] : [valueError(CANONICAL_IFF_DUPLICATE_MESSAGE)];
}
registerSchemaCheck('canonical-iff-duplicate', checkCanonicalIffDuplicate);

export const MakeDuplicateDecision = withCheck(
  Type.Object(
    {
      reference_id: Uuid(),
      duplicate_determination: StringEnum(['duplicate', 'canonical'] as const),
      canonical_reference_id: Type.Optional(Nullable(Uuid(), { default: null })),
      detail: Type.Optional(Nullable(Type.String(), { default: null })),
    },
    { $id: 'MakeDuplicateDecision' },
  ),
  'canonical-iff-duplicate',
);
export type MakeDuplicateDecision = Static<typeof MakeDuplicateDecision>;

/** Body of `POST /references/duplicate-decisions/`: 1–10 decisions, applied in order. */
export const MakeDuplicateDecisionsIn = Type.Array(MakeDuplicateDecision, { minItems: 1, maxItems: 10 });
export type MakeDuplicateDecisionsIn = Static<typeof MakeDuplicateDecisionsIn>;

export const MakeDuplicateDecisionResult = Type.Object(
  {
    id: Uuid(),
    reference_id: Uuid(),
    outcome: DuplicateDecisionOutcome,
    canonical_reference_id: Nullable(Uuid()),
    active_decision: Type.Boolean(),
    decision_authority: DecisionAuthority,
    decision_trigger: DecisionTrigger,
    detail: Nullable(Type.String()),
  },
  { $id: 'MakeDuplicateDecisionResult' },
);
export type MakeDuplicateDecisionResult = Static<typeof MakeDuplicateDecisionResult>;

export const MakeDuplicateDecisionResults = Type.Array(MakeDuplicateDecisionResult);

/** Body of `POST /references/duplicate-decisions/invoke/` (§15.6). */
export const InvokeDeduplicationIn = Type.Object({ reference_ids: Type.Array(Uuid()) }, { $id: 'InvokeDeduplicationIn' });
export type InvokeDeduplicationIn = Static<typeof InvokeDeduplicationIn>;

/**
 * Body of the read-only candidate evaluation `POST /references/deduplication/candidates/`. The
 * contract fixes only "unknown top-level key ⇒ 422"; the fields are our decision.
 */
export const DeduplicationCandidatesIn = Type.Object(
  { reference_ids: Type.Array(Uuid(), { minItems: 1, maxItems: 100 }) },
  { $id: 'DeduplicationCandidatesIn', additionalProperties: false },
);
export type DeduplicationCandidatesIn = Static<typeof DeduplicationCandidatesIn>;

export const DeduplicationCandidates = Type.Object(
  { reference_id: Uuid(), searchable: Type.Boolean(), candidate_canonical_ids: Type.Array(Uuid()) },
  { $id: 'DeduplicationCandidates' },
);
export type DeduplicationCandidates = Static<typeof DeduplicationCandidates>;
export const DeduplicationCandidatesResult = Type.Array(DeduplicationCandidates);
