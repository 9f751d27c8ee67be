import type { DedupRecord, DeduplicationEnginePort } from './deduplication-engine.port';
import { storedView, type ReferenceDocument, type StoredDedupRecord } from './reference.model';
import { trustedKeys } from './trusted-identifiers';

// A reference's comparison record: computed from its current content, kept on the reference with
// each content change, and read back instead of the whole document while its format is current.

export function computeDedupRecord(engine: DeduplicationEnginePort, reference: ReferenceDocument): DedupRecord {
  const view = storedView(reference);
  return engine.toDedupRecord({ id: reference._id, identifiers: view.identifiers ?? [], enhancements: view.enhancements ?? [] });
}

export function storedDedupRecord(engine: DeduplicationEnginePort, reference: ReferenceDocument): StoredDedupRecord {
  return { format: engine.recordFormat, record: computeDedupRecord(engine, reference) };
}

/** The kept record when it is in the engine's current format, else null (compute it from the content). */
export function keptDedupRecord(engine: DeduplicationEnginePort, reference: Pick<ReferenceDocument, 'dedup_record'>): DedupRecord | null {
  const kept = reference.dedup_record;
  return kept && kept.format === engine.recordFormat && kept.record ? kept.record : null;
}

/** The record of a whole document: the kept one when current, else computed. */
export function dedupRecordOf(engine: DeduplicationEnginePort, reference: ReferenceDocument): DedupRecord {
  return keptDedupRecord(engine, reference) ?? computeDedupRecord(engine, reference);
}

/** What a content change means for deduplication: the record to keep and the blocking keys to add. */
export interface ComparisonUpdate {
  dedupRecord: StoredDedupRecord;
  /** Keys of the new content (blocking keys are only ever added, so the old content's stay). */
  blockingKeys: string[];
  /**
   * The publication years before and after the change, filed with the keys (which are written
   * before the content, so both must pass the candidate filter); null when either is unknown.
   */
  years: number[] | null;
}

/**
 * The comparison update of a content change from `before` to `after`, or undefined when the record
 * did not change (most enhancements do not touch the compared fields).
 */
export function comparisonUpdate(engine: DeduplicationEnginePort, trustedTypes: ReadonlySet<string>, before: ReferenceDocument, after: ReferenceDocument): ComparisonUpdate | undefined {
  const next = storedDedupRecord(engine, after);
  const kept = keptDedupRecord(engine, before);
  if (kept && JSON.stringify(kept) === JSON.stringify(next.record)) return undefined;
  const years = kept && kept.year !== null && next.record.year !== null ? [kept.year, next.record.year] : null;
  return { dedupRecord: next, blockingKeys: [...trustedKeys(after.identifiers, trustedTypes), ...engine.blockingKeys(next.record)], years };
}
