// What a `reference.changed` event percolates (contract §13.2): whether it triggers automations at
// all, for which reference, with which pending-enhancement source, and the `{reference, changeset}`
// document evaluated against every stored query.
import {
  duplicateDecisionSource,
  identifierIdentityKey,
  PERCOLATION_EXCLUDED_ENHANCEMENT_TYPES,
  robotEnhancementBatchSource,
  type DeduplicatedReference,
  type ExternalIdentifier,
  type PercolationDocument,
  type ReferenceChangedEvent,
  type ReferenceDoc,
} from '@destiny/contracts';

export interface PercolationTask {
  event_id: string;
  /** The reference automations fire for. */
  reference_id: string;
  /** Pending-enhancement provenance (§12.1). */
  source: string;
  /** Robot whose own matches are skipped (§13.4 cycle check). */
  origin_robot_id: string | null;
  document: PercolationDocument;
}

export type PercolationDecision = { percolate: true; task: PercolationTask } | { percolate: false; reason: string };

const EXCLUDED_TYPES = new Set<string>(PERCOLATION_EXCLUDED_ENHANCEMENT_TYPES);

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') {
    for (const key in value) if (Object.hasOwn(value, key)) return false;
    return true;
  }
  return false;
}

/** Copies the non-empty values of `source` into `target` (all but `skipped`), in key order. */
function copyNonEmpty(target: Record<string, unknown>, source: Record<string, unknown>, skipped?: string): Record<string, unknown> {
  for (const key of Object.keys(source)) {
    const value = source[key];
    if (key !== skipped && !isEmpty(value)) target[key] = value;
  }
  return target;
}

function putNonEmpty(target: Record<string, unknown>, key: string, value: unknown): void {
  if (!isEmpty(value)) target[key] = value;
}

/** One enhancement as it appears in a ReferenceDoc, or null when its type is left out. */
export function percolationEnhancement(enhancement: Record<string, unknown>): Record<string, unknown> | null {
  const source = (enhancement.content ?? {}) as Record<string, unknown>;
  if (EXCLUDED_TYPES.has(String(source.enhancement_type))) return null;
  const content = copyNonEmpty({}, source, source.enhancement_type === 'bibliographic' ? 'pagination' : undefined);
  const out: Record<string, unknown> = {};
  putNonEmpty(out, 'id', enhancement.id);
  putNonEmpty(out, 'reference_id', enhancement.reference_id);
  putNonEmpty(out, 'visibility', enhancement.visibility);
  putNonEmpty(out, 'source', enhancement.source);
  putNonEmpty(out, 'robot_version', enhancement.robot_version);
  putNonEmpty(out, 'created_at', enhancement.created_at);
  putNonEmpty(out, 'content', content);
  return out;
}

/** The enhancements of a ReferenceDoc: excluded types left out. */
function percolationEnhancements(enhancements: readonly unknown[] | null | undefined): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const enhancement of enhancements ?? []) {
    const item = percolationEnhancement(enhancement as Record<string, unknown>);
    if (item !== null) out.push(item);
  }
  return out;
}

function percolationIdentifier(identifier: ExternalIdentifier, referenceId: string): Record<string, unknown> {
  const out: Record<string, unknown> = { reference_id: referenceId, identifier: String(identifier.identifier), identifier_type: identifier.identifier_type };
  if (identifier.identifier_type === 'other') out.other_identifier_name = identifier.other_identifier_name;
  return out;
}

/**
 * Owners of a deduplicated view's identifiers. The view lists the reference's own identifiers
 * first and its duplicates' after them, without owners; the changeset's identifiers carry theirs,
 * so the view's tail is matched against them (from the end) and everything else is the reference's.
 */
function identifierOwners(view: DeduplicatedReference, changeset: ReferenceDoc): string[] {
  const identifiers = view.identifiers ?? [];
  const owners = identifiers.map(() => view.id);
  const foreign = new Map<string, string[]>();
  for (const item of changeset.identifiers ?? []) {
    if (item.reference_id === view.id) continue;
    const key = identifierIdentityKey({ identifier: item.identifier, identifier_type: item.identifier_type, other_identifier_name: item.other_identifier_name } as ExternalIdentifier);
    foreign.set(key, [...(foreign.get(key) ?? []), item.reference_id]);
  }
  for (let index = identifiers.length - 1; index >= 0 && foreign.size > 0; index -= 1) {
    const key = identifierIdentityKey({ ...identifiers[index], identifier: String(identifiers[index].identifier) } as ExternalIdentifier);
    const candidates = foreign.get(key);
    if (!candidates) continue;
    owners[index] = candidates.pop() as string;
    if (candidates.length === 0) foreign.delete(key);
  }
  return owners;
}

/** §13.2 ReferenceDoc of a deduplicated view (empty values omitted). */
export function referenceDocOf(view: DeduplicatedReference, changeset: ReferenceDoc): ReferenceDoc {
  const owners = identifierOwners(view, changeset);
  const identifiers = (view.identifiers ?? []).map((identifier, index) => percolationIdentifier(identifier, owners[index]));
  const enhancements = percolationEnhancements(view.enhancements);
  const doc: Record<string, unknown> = { visibility: view.visibility ?? 'public' };
  if (identifiers.length > 0) doc.identifiers = identifiers;
  if (enhancements.length > 0) doc.enhancements = enhancements;
  const determination = view.duplicate_decision?.duplicate_determination;
  if (determination) doc.duplicate_determination = determination;
  return doc as ReferenceDoc;
}

/** The changeset as the event carries it, normalised to the ReferenceDoc rules once more. */
function normaliseChangeset(changeset: ReferenceDoc, decisionCase: boolean): ReferenceDoc {
  const doc: Record<string, unknown> = { visibility: changeset.visibility ?? 'public' };
  const identifiers = decisionCase ? (changeset.identifiers ?? []).map((item) => copyNonEmpty({}, { ...item, identifier: String(item.identifier) })) : [];
  const enhancements = percolationEnhancements(changeset.enhancements);
  if (identifiers.length > 0 && decisionCase) doc.identifiers = identifiers;
  if (enhancements.length > 0) doc.enhancements = enhancements;
  if (decisionCase && changeset.duplicate_determination) doc.duplicate_determination = changeset.duplicate_determination;
  return doc as ReferenceDoc;
}

/** The decision behind a decision event; events of producers that predate the field fall back to the event id. */
function decisionIdOf(event: ReferenceChangedEvent): string {
  return event.duplicate_decision_id ?? event.event_id;
}

/** Whether (and how) an event percolates, per the trigger table of §13.2. */
export function planPercolation(event: ReferenceChangedEvent): PercolationDecision {
  const determination = event.duplicate_decision?.duplicate_determination ?? null;
  if (event.kind === 'imported') return { percolate: false, reason: 'imported references wait for their first decision' };
  // §13.2: an enhancement added to a duplicate fires on the duplicate only (its own `enhanced` event).
  if (event.kind === 'duplicate_enhanced') return { percolate: false, reason: 'a duplicate was enhanced; automations fire on the duplicate' };
  if (event.kind === 'enhanced') {
    const batchId = event.origin.robot_enhancement_batch_id;
    const requestId = event.origin.enhancement_request_id;
    // Enhancements that came with an import (merge strategies) have no robot and no provenance to give.
    if (!batchId && !requestId) return { percolate: false, reason: 'enhancements not stored from a robot result' };
    return {
      percolate: true,
      task: {
        event_id: event.event_id,
        reference_id: event.reference_id,
        source: batchId ? robotEnhancementBatchSource(batchId) : `EnhancementRequest:${requestId}`,
        origin_robot_id: event.origin.robot_id ?? null,
        document: { reference: referenceDocOf(event.reference, event.changeset), changeset: normaliseChangeset(event.changeset, false) },
      },
    };
  }
  if (determination === null) return { percolate: false, reason: 'no active decision' };
  if (determination === 'exact_duplicate') return { percolate: false, reason: 'exact duplicate' };
  // The duplicate's own event: its canonical's event (whose changeset is this duplicate) fires instead.
  if (determination === 'duplicate') return { percolate: false, reason: 'the canonical percolates the duplicate' };
  const changesetDetermination = event.changeset.duplicate_determination;
  if (changesetDetermination === undefined) return { percolate: false, reason: 'changeset carries no decision' };
  return {
    percolate: true,
    task: {
      event_id: event.event_id,
      reference_id: event.reference_id,
      source: duplicateDecisionSource(decisionIdOf(event)),
      origin_robot_id: null,
      document: { reference: referenceDocOf(event.reference, event.changeset), changeset: normaliseChangeset(event.changeset, true) },
    },
  };
}
