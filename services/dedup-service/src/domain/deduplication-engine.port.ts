// What dedup-service needs from the pure deduplication engine (domain/deduplication), so the
// use cases depend on this shape and the composition root supplies the module.

export interface DedupRecord {
  id: string;
  title: string | null;
  authors: string[];
  year: number | null;
  venue: string | null;
  volume: string | null;
  issue: string | null;
  pages: string | null;
  doi: string | null;
  identifiers: Array<{ type: string; value: string; name: string | null }>;
}

export interface EngineDecision {
  determination: 'duplicate' | 'canonical' | 'decoupled' | 'unsearchable';
  canonicalId: string | null;
  candidateIds: string[];
  detail: string;
}

export interface ActiveRuleDecision {
  determination: 'duplicate' | 'exact_duplicate' | 'canonical' | 'unsearchable';
  canonicalId: string | null;
  authority: 'person' | 'system' | 'unclassified';
}

export interface ProposedRuleDecision {
  determination: 'duplicate' | 'canonical' | 'unsearchable' | 'decoupled';
  canonicalId: string | null;
  authority: 'person' | 'system';
}

export interface RuleOutcome {
  outcome: 'activate' | 'decoupled' | 'error';
  changed: boolean;
  error?: string;
  reason?: string;
}

export interface DeduplicationEnginePort {
  toDedupRecord(view: { id: string; identifiers: unknown[]; enhancements: unknown[] }): DedupRecord;
  blockingKeys(record: DedupRecord): string[];
  isSearchable(record: DedupRecord): boolean;
  decideDuplicate(record: DedupRecord, candidates: DedupRecord[]): EngineDecision;
  applyDecisionRules(input: { referenceId: string; current: ActiveRuleDecision | null; proposed: ProposedRuleDecision; referenceHasDuplicates: boolean; canonicalTargetDetermination: string | null; manual: boolean }): RuleOutcome;
}
