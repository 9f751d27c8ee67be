// The determination for one reference given the decided references its blocking keys found
// (contract §15.3 step 3), and the rules that decide whether a proposed decision becomes active
// (§15.4).

import { type DedupRecord } from './record';
import { prepare, scorePair, type PairScore } from './score';

/** Enough metadata to decide automatically (else the determination is `unsearchable`). */
export function isSearchable(record: DedupRecord): boolean {
  const prepared = prepare(record);
  if (prepared.uniqueIds.has('doi')) return true;
  if (prepared.title === null) return false;
  return prepared.authors.length > 0 || record.year !== null || prepared.venue !== null;
}

export interface DuplicateDetermination {
  determination: 'duplicate' | 'canonical' | 'decoupled' | 'unsearchable';
  canonicalId: string | null;
  candidateIds: string[];
  detail: string;
}

function summarise(id: string, score: PairScore): string {
  return `${id} (${score.verdict}, score ${score.score}: ${score.reasons[0]})`;
}

/**
 * A decided reference a blocking key found: a canonical (its own `canonical`), or a duplicate
 * together with the canonical of its group.
 */
export interface GroupCandidate {
  record: DedupRecord;
  canonical: DedupRecord;
}

interface ScoredMember {
  member: DedupRecord;
  canonicalId: string;
  score: PairScore;
}

function describeMatch(entry: ScoredMember): string {
  return entry.member.id === entry.canonicalId ? summarise(entry.canonicalId, entry.score) : `${entry.canonicalId} through its duplicate ${summarise(entry.member.id, entry.score)}`;
}

/** Whether the two records carry different values of one trusted identifier type (two works). */
export function identifiersConflict(a: DedupRecord, b: DedupRecord): boolean {
  const left = prepare(a).uniqueIds;
  const right = prepare(b).uniqueIds;
  for (const [type, value] of left) {
    const other = right.get(type);
    if (other !== undefined && other !== value) return true;
  }
  return false;
}

/**
 * candidates: decided references sharing a blocking key, canonicals as themselves and duplicates
 * with their group's canonical. Every member of a group is compared, and a match with any of them
 * decides for the group's canonical: a cross-reference one duplicate carries (an erratum note, a
 * combined letters record) then merges whatever the arrival order.
 */
export function decideDuplicate(record: DedupRecord, candidates: ReadonlyArray<DedupRecord | GroupCandidate>): DuplicateDetermination {
  const seen = new Set<string>();
  const scored: ScoredMember[] = [];
  for (const candidate of candidates) {
    const { record: member, canonical } = 'canonical' in candidate ? candidate : { record: candidate, canonical: candidate };
    // Its own group (a canonical invoked again) is no candidate for a reference.
    if (member.id === record.id || canonical.id === record.id || seen.has(member.id)) continue;
    seen.add(member.id);
    const score = scorePair(record, member);
    // Reached through a duplicate, the group's canonical must not name another work by a trusted identifier.
    if (score.verdict === 'duplicate' && member.id !== canonical.id && identifiersConflict(record, canonical)) continue;
    scored.push({ member, canonicalId: canonical.id, score });
  }
  // Highest score first; ties by id so the outcome never depends on the candidates' order.
  scored.sort((a, b) => b.score.score - a.score.score || (a.member.id < b.member.id ? -1 : a.member.id > b.member.id ? 1 : 0));
  // Per group, its best-scored member speaks for it (the list is sorted, so that is the first).
  const bestPerGroup = (entries: ScoredMember[]) => {
    const groups = new Map<string, ScoredMember>();
    for (const entry of entries) if (!groups.has(entry.canonicalId)) groups.set(entry.canonicalId, entry);
    return [...groups.values()];
  };
  // A candidate that describes the same item outranks one only cross-referenced (an erratum, a
  // combined letters record), which decides only when no candidate matches directly.
  // A group one of whose members is another part, year or version of this title is another work's
  // group, though a member lacking that field matches (the chain a record without a year makes).
  const otherWorks = new Set(scored.filter((entry) => entry.score.otherVersion).map((entry) => entry.canonicalId));
  const joinable = scored.filter((entry) => entry.score.verdict === 'duplicate' && !otherWorks.has(entry.canonicalId));
  const direct = bestPerGroup(joinable.filter((entry) => !entry.score.linked));
  const linked = bestPerGroup(joinable.filter((entry) => entry.score.linked));
  const duplicates = direct.length > 0 ? direct : linked;
  // Matches held back that way are for a person to review, as uncertain ones are.
  const uncertain = scored.filter((entry) => entry.score.verdict === 'uncertain' || (entry.score.verdict === 'duplicate' && otherWorks.has(entry.canonicalId)));
  const candidateIds = [...new Set([...direct, ...linked, ...uncertain].map((entry) => entry.canonicalId))];
  const review = uncertain.length > 0 ? ` Possible duplicates for review: ${uncertain.map(describeMatch).join('; ')}.` : '';

  if (!isSearchable(record)) {
    return {
      determination: 'unsearchable',
      canonicalId: null,
      candidateIds,
      detail: `Not enough metadata to match automatically (needs a title plus authors, year or journal, or a DOI).${review}`,
    };
  }
  if (duplicates.length === 1) {
    return {
      determination: 'duplicate',
      canonicalId: duplicates[0].canonicalId,
      candidateIds,
      detail: `Duplicate of ${describeMatch(duplicates[0])}.${review}`,
    };
  }
  if (duplicates.length > 1) {
    return {
      determination: 'decoupled',
      canonicalId: null,
      candidateIds,
      detail: `Several canonical references match; manual review required: ${duplicates.map(describeMatch).join('; ')}.${review}`,
    };
  }
  return {
    determination: 'canonical',
    canonicalId: null,
    candidateIds,
    detail: `No duplicate among ${scored.length} candidate(s).${review}`,
  };
}

export interface ActiveDecision {
  determination: 'duplicate' | 'exact_duplicate' | 'canonical' | 'unsearchable';
  canonicalId: string | null;
  authority: 'person' | 'system' | 'unclassified';
}

export interface ProposedDecision {
  determination: 'duplicate' | 'canonical' | 'unsearchable' | 'decoupled';
  canonicalId: string | null;
  authority: 'person' | 'system';
}

export interface DecisionRuleOutcome {
  outcome: 'activate' | 'decoupled' | 'error';
  changed: boolean;
  error?: string;
  /** Why a proposal was stored as `decoupled` (empty otherwise). */
  reason?: string;
}

export const SELF_DUPLICATE_ERROR = 'Cannot mark a reference as a duplicate of itself.';

export function nonCanonicalTargetError(canonicalId: string, determination: string | null): string {
  return `Cannot mark as duplicate of a non-canonical reference. Reference ${canonicalId} has active determination: ${determination ?? 'none'}.`;
}

/** §15.4: whether a proposed decision becomes active, is stored as `decoupled`, or is refused. */
export function applyDecisionRules(input: {
  referenceId: string;
  current: ActiveDecision | null;
  proposed: ProposedDecision;
  referenceHasDuplicates: boolean;
  canonicalTargetDetermination: string | null;
  manual: boolean;
}): DecisionRuleOutcome {
  const { referenceId, current, proposed, referenceHasDuplicates, canonicalTargetDetermination, manual } = input;
  // A proposal that already asks for review is stored as such and never touches the active decision.
  if (proposed.determination === 'decoupled') return { outcome: 'decoupled', changed: false, reason: 'Proposed for manual review.' };

  // 1. A named canonical must be another reference whose active determination is canonical.
  if (proposed.canonicalId !== null) {
    if (proposed.canonicalId === referenceId) return { outcome: 'error', changed: false, error: SELF_DUPLICATE_ERROR };
    if (canonicalTargetDetermination !== 'canonical') {
      return { outcome: 'error', changed: false, error: nonCanonicalTargetError(proposed.canonicalId, canonicalTargetDetermination) };
    }
  }
  if (proposed.determination === 'duplicate' && proposed.canonicalId === null) {
    return { outcome: 'error', changed: false, error: 'A duplicate decision must name its canonical reference.' };
  }

  // 2. Stored inactive (decoupled) for review; the manual endpoint bypasses a and b, not c.
  if (!manual && current !== null && current.authority === 'person' && proposed.authority === 'system') {
    return { outcome: 'decoupled', changed: false, reason: `Decouple reason: Automatic decisions cannot replace a person-made active decision. Proposed determination: ${proposed.determination}.` };
  }
  if (
    !manual &&
    current !== null &&
    current.determination === 'duplicate' &&
    (proposed.determination === 'canonical' || (proposed.determination === 'duplicate' && proposed.canonicalId !== current.canonicalId))
  ) {
    return { outcome: 'decoupled', changed: false, reason: 'Decouple reason: Existing duplicate decision changed.' };
  }
  if (proposed.determination === 'duplicate' && referenceHasDuplicates) {
    return {
      outcome: 'decoupled',
      changed: false,
      reason: 'Decouple reason: Reference has existing duplicates and cannot become a duplicate itself. Remap existing duplicates before retrying.',
    };
  }

  // 3. Activate; "changed" only when the determination or the canonical differs.
  const changed = current === null || current.determination !== proposed.determination || current.canonicalId !== proposed.canonicalId;
  return { outcome: 'activate', changed };
}
