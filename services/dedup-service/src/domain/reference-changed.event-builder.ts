import { EVENTS_EXCHANGE, ROUTING_KEYS, uuidv7, type ChangeOrigin, type ReferenceChangedEvent, type ReferenceChangeKind, type ReferenceDoc } from '@destiny/contracts';
import type { OutboxEntry } from '@destiny/platform';
import { deduplicatedView, duplicateDecisionOut, type ReferenceDocument } from './reference.model';

/** One `reference.changed` event (§13.2 changeset, §6.9 view) as an outbox entry. */
export function referenceChangedEntry(input: {
  kind: ReferenceChangeKind;
  reference: ReferenceDocument;
  duplicates: ReferenceDocument[];
  changeset: ReferenceDoc;
  origin?: ChangeOrigin;
  /** The duplicate decision a `duplicate_decision_changed` event reports (percolation source, §13.4). */
  duplicateDecisionId?: string;
  now?: Date;
}): OutboxEntry {
  const now = input.now ?? new Date();
  const event: ReferenceChangedEvent = {
    event_id: uuidv7(),
    reference_id: input.reference._id,
    version: input.reference.version,
    kind: input.kind,
    reference: deduplicatedView(input.reference, input.duplicates),
    changeset: input.changeset,
    duplicate_decision: duplicateDecisionOut(input.reference),
    ...(input.duplicateDecisionId ? { duplicate_decision_id: input.duplicateDecisionId } : {}),
    origin: input.origin ?? {},
    occurred_at: now.toISOString(),
  };
  return { event_id: event.event_id, exchange: EVENTS_EXCHANGE, routing_key: ROUTING_KEYS.referenceChanged, payload: event, created_at: now };
}
