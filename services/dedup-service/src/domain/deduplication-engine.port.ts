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

export interface RuleDecision {
  determination: string;
  canonicalId: string | null;
  authority: 'unclassified' | 'person' | 'system';
}

export interface RuleOutcome {
  outcome: 'activate' | 'decoupled' | 'error';
  changed: boolean;
  error?: string;
}

export interface DeduplicationEnginePort {
  toDedupRecord(view: { id: string; identifiers: unknown[]; enhancements: unknown[] }): DedupRecord;
  blockingKeys(record: DedupRecord): string[];
  isSearchable(record: DedupRecord): boolean;
  decideDuplicate(record: DedupRecord, candidates: DedupRecord[]): EngineDecision;
  applyDecisionRules(input: { current: RuleDecision | null; proposed: RuleDecision; referenceHasDuplicates: boolean; canonicalTargetDetermination: string | null; manual: boolean }): RuleOutcome;
}
