// What dedup-service needs from the pure deduplication engine (domain/deduplication), so the
// use cases depend on this shape and the composition root supplies the module.

import type { ActiveDecision, DecisionRuleOutcome, DedupRecord, DuplicateDetermination, GroupCandidate, ProposedDecision } from './deduplication';

// The engine's own types, under the names the use cases speak.
export type { DedupRecord, GroupCandidate };
export type EngineDecision = DuplicateDetermination;
export type ActiveRuleDecision = ActiveDecision;
export type ProposedRuleDecision = ProposedDecision;
export type RuleOutcome = DecisionRuleOutcome;

export interface DeduplicationEnginePort {
  toDedupRecord(view: { id: string; identifiers: unknown[]; enhancements: unknown[] }): DedupRecord;
  /** Changes whenever `toDedupRecord` reads a reference differently: records kept in another format are computed again. */
  readonly recordFormat: number;
  /** The enhancement types `toDedupRecord` reads (others never change a record). */
  readonly recordEnhancementTypes: readonly string[];
  /** Changes whenever `blockingKeys` files a record differently: references filed in another format are filed again. */
  readonly blockingFormat: number;
  /** The keys a reference is filed under. */
  blockingKeys(record: DedupRecord): string[];
  /** The keys a reference looks its candidates up under (journal-locator keys differ from the filed ones). */
  probeKeys(record: DedupRecord): string[];
  /** Both at once. */
  blockingKeySets(record: DedupRecord): { filed: string[]; probed: string[] };
  /** False when a candidate filed with these years cannot be a duplicate of a reference of `year` (checked before reading it). */
  yearsMayMatch(year: number | null, candidateYears: readonly number[] | undefined): boolean;
  isSearchable(record: DedupRecord): boolean;
  decideDuplicate(record: DedupRecord, candidates: ReadonlyArray<DedupRecord | GroupCandidate>): EngineDecision;
  applyDecisionRules(input: { referenceId: string; current: ActiveRuleDecision | null; proposed: ProposedRuleDecision; referenceHasDuplicates: boolean; canonicalTargetDetermination: string | null; manual: boolean }): RuleOutcome;
}
