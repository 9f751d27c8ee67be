// The deduplication engine of dedup-service: pure, deterministic functions (no I/O).

export { type DedupRecord, toDedupRecord, recordFormat, recordEnhancementTypes } from './record';
export { blockingFormat, blockingKeys, blockingKeySets, probeKeys, yearsMayMatch } from './blocking';
export { type PairScore, scorePair, pairFeatures, prepare, type PairFeatures } from './score';
export {
  type ActiveDecision,
  type ProposedDecision,
  type DecisionRuleOutcome,
  type DuplicateDetermination,
  isSearchable,
  decideDuplicate,
  identifiersConflict,
  type GroupCandidate,
  applyDecisionRules,
  SELF_DUPLICATE_ERROR,
  nonCanonicalTargetError,
} from './decide';
export { normaliseTitle, normaliseAuthor, normaliseVenue, parsePages } from './normalise';
export { replayStream, scoreAgainstKey, seededShuffle, labelledLineToView, splitPages, type LabelledLine, type KeyScore, type StreamResult } from './evaluation';
