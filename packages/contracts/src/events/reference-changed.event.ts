import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, Uuid } from '../schemas/common.schema';
import { ActiveDuplicateDecision, Reference } from '../schemas/reference.schema';
import { ReferenceDoc } from '../schemas/percolation.schema';

// `reference.changed` (producer dedup-service; consumers search-request-service, percolator).

/**
 * `duplicate_enhanced`: a canonical's deduplicated view changed because one of its duplicates was
 * enhanced; the search index takes it, automations do not (they fire on the duplicate's `enhanced`).
 */
export const REFERENCE_CHANGE_KINDS = ['imported', 'duplicate_decision_changed', 'enhanced', 'duplicate_enhanced'] as const;
export const ReferenceChangeKind = StringEnum(REFERENCE_CHANGE_KINDS, { $id: 'ReferenceChangeKind' });
export type ReferenceChangeKind = Static<typeof ReferenceChangeKind>;

/** The deduplicated view of §6.9 plus its active decision (null before the first decision). */
export const DeduplicatedReference = Type.Object(
  {
    visibility: Reference.properties.visibility,
    id: Uuid(),
    identifiers: Reference.properties.identifiers,
    enhancements: Reference.properties.enhancements,
    duplicate_decision: Nullable(ActiveDuplicateDecision),
  },
  { $id: 'DeduplicatedReference' },
);
export type DeduplicatedReference = Static<typeof DeduplicatedReference>;

/** What caused the change, for the percolator's cycle check (§13.4). */
export const ChangeOrigin = Type.Object(
  {
    robot_id: Type.Optional(Uuid()),
    enhancement_request_id: Type.Optional(Uuid()),
    robot_enhancement_batch_id: Type.Optional(Uuid()),
  },
  { $id: 'ChangeOrigin' },
);
export type ChangeOrigin = Static<typeof ChangeOrigin>;

export const ReferenceChangedEvent = Type.Object(
  {
    event_id: Uuid(),
    reference_id: Uuid(),
    /** Per-reference version; only grows, so consumers drop an event older than what they hold. */
    version: Type.Integer({ minimum: 1 }),
    kind: ReferenceChangeKind,
    reference: DeduplicatedReference,
    changeset: ReferenceDoc,
    duplicate_decision: Nullable(ActiveDuplicateDecision),
    /**
     * On `duplicate_decision_changed`: the duplicate decision whose activation this event reports
     * (for a canonical whose group changed, the joining or leaving duplicate's), the
     * `DuplicateDecision:<id>` source of the pending enhancements automations create (§13.4).
     */
    duplicate_decision_id: Type.Optional(Uuid()),
    origin: ChangeOrigin,
    occurred_at: DateTime(),
  },
  { $id: 'ReferenceChangedEvent' },
);
export type ReferenceChangedEvent = Static<typeof ReferenceChangedEvent>;

/** True when an event at `incoming` version should replace state held at `current` (or none). */
export function isNewerReferenceVersion(current: number | null | undefined, incoming: number): boolean {
  return current === null || current === undefined || incoming > current;
}
