import { EVENTS_EXCHANGE, ROUTING_KEYS, uuidv7, type ChangeOrigin, type ReferenceChangedEvent, type ReferenceChangeKind, type ReferenceDoc } from '@destiny/contracts';
import type { OutboxEntry } from '@destiny/platform';
import { deduplicatedView, duplicateDecisionOut, enhancementChangeset, referenceDoc, type ReferenceContent, type ReferenceDocument, type TerminalDetermination } from './reference.model';

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

/** Where a compact entry's view and changeset come from: the first identifiers and enhancements of its document. */
interface OwnContentAt {
  identifiers: number;
  enhancements: number;
  /**
   * Set for an `enhanced` event: its changeset holds only the enhancements from this index up to
   * `enhancements` (those the change appended), not the whole reference.
   */
  added_from?: number;
}

const OWN_CONTENT_FIELD = 'own_content_at';

/**
 * An event about a reference's own import or decision whose view has no duplicates and whose
 * changeset is the reference itself, stored without them: both are exactly the document's content at that
 * moment, which stays recoverable because identifiers and enhancements are only ever appended.
 * The relay rebuilds them (`expandFromDocument`), so the outbox holds a few hundred bytes instead
 * of two copies of the reference, and the writer never builds them.
 */
export function compactOwnChangeEntry(input: { kind: ReferenceChangeKind; reference: ReferenceDocument; origin?: ChangeOrigin; duplicateDecisionId?: string; now?: Date }): OutboxEntry {
  const now = input.now ?? new Date();
  const at: OwnContentAt = { identifiers: input.reference.identifiers.length, enhancements: input.reference.enhancements.length };
  const payload = {
    event_id: uuidv7(),
    reference_id: input.reference._id,
    version: input.reference.version,
    kind: input.kind,
    duplicate_decision: duplicateDecisionOut(input.reference),
    ...(input.duplicateDecisionId ? { duplicate_decision_id: input.duplicateDecisionId } : {}),
    origin: input.origin ?? {},
    occurred_at: now.toISOString(),
    [OWN_CONTENT_FIELD]: at,
  };
  return { event_id: payload.event_id, exchange: EVENTS_EXCHANGE, routing_key: ROUTING_KEYS.referenceChanged, payload, created_at: now };
}

/**
 * An `enhanced` event about a reference without active duplicates, stored without its view and
 * changeset as `compactOwnChangeEntry` stores a decision's: the view is the reference's content
 * after the change and the changeset the enhancements it appended (less any that a later one of the
 * same change superseded), both recoverable from the document because they are only ever appended.
 * A reference's outbox write then carries its new enhancements once instead of three times (pushed,
 * in the view, in the changeset).
 */
export function compactEnhancedEntry(input: { reference: ReferenceDocument; addedFrom: number; origin?: ChangeOrigin; now?: Date }): OutboxEntry {
  const entry = compactOwnChangeEntry({ kind: 'enhanced', reference: input.reference, origin: input.origin, now: input.now });
  const payload = entry.payload as { [OWN_CONTENT_FIELD]: OwnContentAt };
  payload[OWN_CONTENT_FIELD].added_from = input.addedFrom;
  return entry;
}

/** The full event of a compact entry, from the document as it is now (a later state at most). */
export function expandFromDocument(entry: OutboxEntry, document: ReferenceDocument): OutboxEntry {
  const payload = entry.payload as ReferenceChangedEvent & { [OWN_CONTENT_FIELD]?: OwnContentAt };
  const at = payload[OWN_CONTENT_FIELD];
  if (!at) return entry;
  const { [OWN_CONTENT_FIELD]: _at, ...event } = payload;
  const enhancements = document.enhancements.slice(0, at.enhancements);
  const present = new Set(enhancements.map((enhancement) => enhancement.id));
  const decision = event.duplicate_decision;
  const snapshot: ReferenceDocument = {
    ...document,
    version: event.version,
    identifiers: document.identifiers.slice(0, at.identifiers),
    // A version that superseded one of these later was not there yet.
    enhancements: enhancements.map((enhancement) => (enhancement.superseded_by && !present.has(enhancement.superseded_by) ? { ...enhancement, superseded_by: null } : enhancement)),
    active_decision: decision
      ? { decision_id: event.duplicate_decision_id ?? '', duplicate_determination: decision.duplicate_determination as TerminalDetermination, canonical_reference_id: decision.canonical_reference_id ?? null, decision_authority: 'system' }
      : null,
  };
  const determination = (decision?.duplicate_determination as TerminalDetermination | undefined) ?? null;
  const full: ReferenceChangedEvent = {
    event_id: event.event_id,
    reference_id: event.reference_id,
    version: event.version,
    kind: event.kind,
    reference: deduplicatedView(snapshot, []),
    changeset: at.added_from === undefined ? referenceDoc([{ reference: snapshot }], snapshot.visibility, determination) : enhancementChangeset(snapshot.enhancements.slice(at.added_from).filter((enhancement) => !enhancement.superseded_by)),
    duplicate_decision: event.duplicate_decision,
    ...(event.duplicate_decision_id ? { duplicate_decision_id: event.duplicate_decision_id } : {}),
    origin: event.origin,
    occurred_at: event.occurred_at,
  };
  return { ...entry, payload: full };
}

/** Where a compact entry's own content ends; undefined for an entry stored whole. */
function ownContentAt(entry: OutboxEntry): OwnContentAt | undefined {
  return (entry.payload as { [OWN_CONTENT_FIELD]?: OwnContentAt })[OWN_CONTENT_FIELD];
}

/**
 * `expandFromDocument` from a copy of the document's content taken when the entry was written or
 * later (any such copy holds the prefix the entry names); null without one, so the document is read.
 */
export function expandFromContent(entry: OutboxEntry, content: ReferenceContent | undefined): OutboxEntry | null {
  const at = ownContentAt(entry);
  if (!at) return entry;
  if (!content || content.identifiers.length < at.identifiers || content.enhancements.length < at.enhancements) return null;
  return expandFromDocument(entry, content as ReferenceDocument);
}

/**
 * True when `content` ends exactly where the entry's own content does: no later write has added
 * to it, so once the entry is published the copy is needed by no other waiting entry.
 */
export function contentEndsWith(entry: OutboxEntry, content: ReferenceContent): boolean {
  const at = ownContentAt(entry);
  return at !== undefined && content.identifiers.length === at.identifiers && content.enhancements.length === at.enhancements;
}
