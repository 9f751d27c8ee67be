import {
  identifierIdentityKey,
  PERCOLATION_EXCLUDED_ENHANCEMENT_TYPES,
  type DeduplicatedReference,
  type ExternalIdentifier,
  type ReferenceDoc,
} from '@destiny/contracts';
import type { DedupRecord } from './deduplication-engine.port';

// How dedup-service stores references and builds the views of §6.9 and the ReferenceDoc of §13.2.

export type TerminalDetermination = 'duplicate' | 'exact_duplicate' | 'canonical' | 'unsearchable';

export interface StoredEnhancement {
  id: string;
  reference_id: string;
  source: string;
  visibility: string;
  robot_version: string | null;
  derived_from: string[] | null;
  content: Record<string, unknown>;
  created_at: string;
  /** Set when a later version (merge_aggressive) replaces this one in every view; kept as history. */
  superseded_by: string | null;
  fingerprint: string;
}

export interface ActiveDecision {
  decision_id: string;
  duplicate_determination: TerminalDetermination;
  canonical_reference_id: string | null;
  decision_authority: 'unclassified' | 'person' | 'system';
}

export interface ReferenceDocument {
  _id: string;
  visibility: string;
  identifiers: ExternalIdentifier[];
  enhancements: StoredEnhancement[];
  active_decision: ActiveDecision | null;
  /** Grows with every emitted change, so consumers can drop stale events. */
  version: number;
  /** The import result that created it (a retried chunk finds it again). */
  import_result_id: string | null;
  /** Import results already merged into it (a retried chunk does not merge twice). */
  merged_import_results: string[];
  /** The pending decision created with it on import (inserted again, idempotently, by a retried chunk). */
  import_decision_id: string | null;
  created_at: Date;
  /**
   * The engine's comparison record of its current content, written with every content change, so
   * a decision reads candidates' records and group state without their whole documents. Absent on
   * references stored before it existed.
   */
  dedup_record?: StoredDedupRecord | null;
}

/** A comparison record as kept on its reference, tagged with the engine's record format. */
export interface StoredDedupRecord {
  format: number;
  record: DedupRecord;
}

/** What a decision needs of a reference it only compares against: group state, version and record. */
export type ReferenceSummary = Pick<ReferenceDocument, '_id' | 'active_decision' | 'version' | 'dedup_record'>;

/** A reference's content: what its views and changesets are built from. */
export type ReferenceContent = Pick<ReferenceDocument, '_id' | 'visibility' | 'identifiers' | 'enhancements'>;

export function currentEnhancements(reference: Pick<ReferenceDocument, 'enhancements'>): StoredEnhancement[] {
  return reference.enhancements.filter((enhancement) => enhancement.superseded_by === null);
}

export function enhancementOut(enhancement: StoredEnhancement): Record<string, unknown> {
  return {
    id: enhancement.id,
    reference_id: enhancement.reference_id,
    source: enhancement.source,
    visibility: enhancement.visibility,
    robot_version: enhancement.robot_version,
    derived_from: enhancement.derived_from,
    content: enhancement.content,
    created_at: enhancement.created_at,
  };
}

export function duplicateDecisionOut(reference: Pick<ReferenceDocument, 'active_decision'>): DeduplicatedReference['duplicate_decision'] {
  const active = reference.active_decision;
  return active ? { duplicate_determination: active.duplicate_determination, canonical_reference_id: active.canonical_reference_id } : null;
}

/** The reference as stored (§7.1): own identifiers and current enhancements. */
export function storedView(reference: ReferenceDocument): DeduplicatedReference {
  return {
    visibility: reference.visibility as DeduplicatedReference['visibility'],
    id: reference._id,
    identifiers: reference.identifiers,
    enhancements: currentEnhancements(reference).map(enhancementOut) as DeduplicatedReference['enhancements'],
    duplicate_decision: duplicateDecisionOut(reference),
  };
}

/** §6.9: own identifiers and enhancements followed by those of every active duplicate. */
export function deduplicatedView(reference: ReferenceDocument, duplicates: ReferenceDocument[]): DeduplicatedReference {
  const view = storedView(reference);
  for (const duplicate of duplicates) {
    view.identifiers = [...(view.identifiers ?? []), ...duplicate.identifiers];
    view.enhancements = [...(view.enhancements ?? []), ...(currentEnhancements(duplicate).map(enhancementOut) as NonNullable<DeduplicatedReference['enhancements']>)];
  }
  return view;
}

export function isCanonicalLike(reference: Pick<ReferenceDocument, 'active_decision'>): boolean {
  return reference.active_decision?.duplicate_determination !== 'duplicate';
}

/** The canonical of the group a decided reference belongs to (itself when canonical); null outside any group. */
export function groupCanonicalId(reference: Pick<ReferenceDocument, '_id' | 'active_decision'> | undefined): string | null {
  const active = reference?.active_decision;
  if (active?.duplicate_determination === 'canonical') return reference?._id ?? null;
  if (active?.duplicate_determination === 'duplicate') return active.canonical_reference_id;
  return null;
}

const EXCLUDED_TYPES = new Set<string>(PERCOLATION_EXCLUDED_ENHANCEMENT_TYPES);

function percolationEnhancement(enhancement: Record<string, unknown>): Record<string, unknown> | null {
  const content = { ...(enhancement.content as Record<string, unknown>) };
  if (EXCLUDED_TYPES.has(String(content.enhancement_type))) return null;
  if (content.enhancement_type === 'bibliographic') delete content.pagination;
  const out: Record<string, unknown> = {
    id: enhancement.id,
    reference_id: enhancement.reference_id,
    visibility: enhancement.visibility,
    source: enhancement.source,
    content: dropEmpty(content),
  };
  if (enhancement.robot_version) out.robot_version = enhancement.robot_version;
  if (enhancement.created_at) out.created_at = enhancement.created_at;
  return out;
}

function dropEmpty(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === null || item === undefined) continue;
    if (Array.isArray(item) && item.length === 0) continue;
    if (typeof item === 'object' && !Array.isArray(item) && Object.keys(item as object).length === 0) continue;
    out[key] = item;
  }
  return out;
}

/**
 * The ReferenceDoc of §13.2 built from views whose identifiers belong to the given owners (a
 * view's identifiers come in owner order, so each carries its own reference id).
 */
export function referenceDoc(
  parts: Array<{ reference: Pick<ReferenceDocument, '_id' | 'identifiers' | 'enhancements'> }>,
  visibility: string,
  determination: TerminalDetermination | null,
): ReferenceDoc {
  const identifiers = parts.flatMap(({ reference }) =>
    reference.identifiers.map((identifier) => {
      const out: Record<string, unknown> = { reference_id: reference._id, identifier: String(identifier.identifier), identifier_type: identifier.identifier_type };
      if (identifier.identifier_type === 'other') out.other_identifier_name = identifier.other_identifier_name;
      return out;
    }),
  );
  const enhancements = parts.flatMap(({ reference }) =>
    currentEnhancements(reference)
      .map((enhancement) => percolationEnhancement(enhancementOut(enhancement)))
      .filter((item): item is Record<string, unknown> => item !== null),
  );
  const doc: Record<string, unknown> = { visibility };
  if (identifiers.length > 0) doc.identifiers = identifiers;
  if (enhancements.length > 0) doc.enhancements = enhancements;
  if (determination) doc.duplicate_determination = determination;
  return doc as ReferenceDoc;
}

/** A changeset holding only new enhancements (the `enhanced` case of §13.2). */
export function enhancementChangeset(enhancements: StoredEnhancement[]): ReferenceDoc {
  const items = enhancements.map((enhancement) => percolationEnhancement(enhancementOut(enhancement))).filter((item): item is Record<string, unknown> => item !== null);
  const doc: Record<string, unknown> = { visibility: 'public' };
  if (items.length > 0) doc.enhancements = items;
  return doc as ReferenceDoc;
}

export function identityKeys(identifiers: readonly ExternalIdentifier[]): string[] {
  return identifiers.map((identifier) => identifierIdentityKey(identifier));
}
