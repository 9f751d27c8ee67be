import { Type, type Static } from '@sinclair/typebox';
import { Uuid, withCheck } from '../schemas/common.schema';
import { registerSchemaCheck, valueError, type RuleIssue } from '../validation/schema-rules';

// Work message of the `dedup-service.deduplication` queue: pending decisions to process.

/** `decision_ids[i]` is the pending decision of `reference_ids[i]`, so both lists have one length. */
export function checkParallelDecisionIds(value: unknown): RuleIssue[] {
  if (value === null || typeof value !== 'object') return [];
  const { reference_ids: referenceIds, decision_ids: decisionIds } = value as Record<string, unknown>;
  if (!Array.isArray(referenceIds) || !Array.isArray(decisionIds) || referenceIds.length === decisionIds.length) return [];
  return [valueError('decision_ids must have one entry per reference_ids entry')];
}
registerSchemaCheck('parallel-decision-ids', checkParallelDecisionIds);

export const DeduplicationJob = withCheck(
  Type.Object(
    {
      job_id: Uuid(),
      reference_ids: Type.Array(Uuid(), { minItems: 1 }),
      decision_ids: Type.Array(Uuid(), { minItems: 1 }),
    },
    { $id: 'DeduplicationJob' },
  ),
  'parallel-decision-ids',
);
export type DeduplicationJob = Static<typeof DeduplicationJob>;
