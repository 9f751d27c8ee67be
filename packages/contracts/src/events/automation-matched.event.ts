import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Uuid } from '../schemas/common.schema';

// `automation.matched` (producer percolator; consumer robot-broker creates pending enhancements).

/** Pending-enhancement provenance: `DuplicateDecision:<id>` or `RobotEnhancementBatch:<id>` (§13.4). */
export const AUTOMATION_SOURCE_PATTERN = '^(DuplicateDecision|RobotEnhancementBatch|EnhancementRequest):[0-9a-f-]{36}$';

export const AutomationMatchedEvent = Type.Object(
  {
    event_id: Uuid(),
    automation_id: Uuid(),
    robot_id: Uuid(),
    reference_id: Uuid(),
    source: Type.String({ pattern: AUTOMATION_SOURCE_PATTERN }),
    occurred_at: DateTime(),
  },
  { $id: 'AutomationMatchedEvent' },
);
export type AutomationMatchedEvent = Static<typeof AutomationMatchedEvent>;

export function duplicateDecisionSource(decisionId: string): string {
  return `DuplicateDecision:${decisionId}`;
}

export function robotEnhancementBatchSource(batchId: string): string {
  return `RobotEnhancementBatch:${batchId}`;
}
