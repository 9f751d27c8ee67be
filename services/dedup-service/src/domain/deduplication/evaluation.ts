// Replay of a labelled sample through the engine the way the service meets references: one at a
// time, each compared with the references already in a group (found through their blocking keys), and
// the outcome scored against the hand-made key. Pure: the caller reads the file.

import { blockingKeySets, yearsMayMatch } from './blocking';
import { decideDuplicate, type DuplicateDetermination, type GroupCandidate } from './decide';
import { type DedupRecord } from './record';

export interface StreamResult {
  decisions: Map<string, DuplicateDetermination>;
  /** Candidates looked at per record (decided references sharing at least one blocking key, years not ruling a match out). */
  candidateCounts: number[];
  /** Records per blocking key at the end of the run (canonicals and duplicates). */
  largestBlock: number;
}

/**
 * Decides each record in the given order against an in-memory store of decided references indexed
 * by key: canonicals, and duplicates with their group's canonical, as the service keeps them.
 */
export function replayStream(records: DedupRecord[]): StreamResult {
  const index = new Map<string, GroupCandidate[]>();
  const decisions = new Map<string, DuplicateDetermination>();
  const candidateCounts: number[] = [];
  const byId = new Map<string, DedupRecord>();
  for (const record of records) {
    const { filed, probed } = blockingKeySets(record);
    const seen = new Set<string>();
    const candidates: GroupCandidate[] = [];
    for (const key of probed) {
      for (const candidate of index.get(key) ?? []) {
        // As dedup-service does: a candidate whose year rules a match out is not read.
        if (candidate.record.id === record.id || seen.has(candidate.record.id) || !yearsMayMatch(record.year, candidate.record.year === null ? undefined : [candidate.record.year])) continue;
        seen.add(candidate.record.id);
        candidates.push(candidate);
      }
    }
    candidateCounts.push(candidates.length);
    const decision = decideDuplicate(record, candidates);
    decisions.set(record.id, decision);
    byId.set(record.id, record);
    // Unsearchable and decoupled references belong to no group, so they lead nowhere.
    const canonical = decision.determination === 'canonical' ? record : decision.determination === 'duplicate' && decision.canonicalId ? byId.get(decision.canonicalId) : undefined;
    if (canonical) {
      for (const key of filed) {
        const block = index.get(key);
        if (block) block.push({ record, canonical });
        else index.set(key, [{ record, canonical }]);
      }
    }
  }
  let largestBlock = 0;
  for (const block of index.values()) largestBlock = Math.max(largestBlock, block.length);
  return { decisions, candidateCounts, largestBlock };
}

export interface KeyScore {
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  /** Records the key says should end up as duplicates (group size − 1, summed). */
  expectedDuplicates: number;
  /**
   * The data README's wording taken per record: every gold-group record left canonical-like while
   * another member of its group is canonical-like too (a missed pair counts twice).
   */
  falseNegativesPerRecord: number;
  recallPerRecord: number;
  falseMerges: Array<{ recordId: string; canonicalId: string }>;
  missed: Array<{ group: string; canonicalLike: string[] }>;
  determinations: Record<string, number>;
}

/**
 * TP: marked duplicate of a record in its own gold group. FP: marked duplicate of a record outside
 * it. FN: per gold group, every member beyond the first that is not a TP (a group whose members
 * all stayed canonical-like contributes size − 1). Singletons (group starting "s:") count only as
 * possible FPs.
 */
export function scoreAgainstKey(decisions: Map<string, DuplicateDetermination>, groupOf: Map<string, string>): KeyScore {
  let truePositives = 0;
  let falsePositives = 0;
  const falseMerges: KeyScore['falseMerges'] = [];
  const groups = new Map<string, string[]>();
  const determinations: Record<string, number> = {};
  for (const [recordId, group] of groupOf) {
    if (!group.startsWith('s:')) groups.set(group, [...(groups.get(group) ?? []), recordId]);
  }
  const tpPerGroup = new Map<string, number>();
  for (const [recordId, decision] of decisions) {
    determinations[decision.determination] = (determinations[decision.determination] ?? 0) + 1;
    if (decision.determination !== 'duplicate' || decision.canonicalId === null) continue;
    const group = groupOf.get(recordId);
    if (group !== undefined && !group.startsWith('s:') && groupOf.get(decision.canonicalId) === group) {
      truePositives++;
      tpPerGroup.set(group, (tpPerGroup.get(group) ?? 0) + 1);
    } else {
      falsePositives++;
      falseMerges.push({ recordId, canonicalId: decision.canonicalId });
    }
  }
  let falseNegatives = 0;
  let falseNegativesPerRecord = 0;
  let expectedDuplicates = 0;
  const missed: KeyScore['missed'] = [];
  for (const [group, members] of groups) {
    expectedDuplicates += members.length - 1;
    const canonicalLike = members.filter((id) => decisions.get(id)?.determination !== 'duplicate').length;
    if (canonicalLike > 1) falseNegativesPerRecord += canonicalLike;
    const miss = members.length - 1 - (tpPerGroup.get(group) ?? 0);
    if (miss > 0) {
      falseNegatives += miss;
      missed.push({ group, canonicalLike: members.filter((id) => decisions.get(id)?.determination !== 'duplicate') });
    }
  }
  const precision = truePositives + falsePositives === 0 ? 1 : truePositives / (truePositives + falsePositives);
  const recall = truePositives + falseNegatives === 0 ? 1 : truePositives / (truePositives + falseNegatives);
  const recallPerRecord = truePositives + falseNegativesPerRecord === 0 ? 1 : truePositives / (truePositives + falseNegativesPerRecord);
  return { truePositives, falsePositives, falseNegatives, precision, recall, falseNegativesPerRecord, recallPerRecord, expectedDuplicates, falseMerges, missed, determinations };
}

/** Deterministic shuffle (mulberry32 + Fisher-Yates), for order-independence runs. */
export function seededShuffle<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/** One line of a labelled sample such as haematology.jsonl. */
export interface LabelledLine {
  record_id: string;
  dup_group: string;
  title: string | null;
  authors: string[] | null;
  year: number | null;
  doi: string | null;
  journal: string | null;
  volume: string | null;
  issue: string | null;
  pages: string | null;
}

/** Splits a printed page string into first/last page the way an importer fills `pagination`. */
export function splitPages(pages: string | null): { first_page: string | null; last_page: string | null } {
  if (pages === null || pages.trim() === '') return { first_page: null, last_page: null };
  const match = /^\s*([^\s\-\u2013\u2014,;]+)\s*(?:-{1,2}|\u2013|\u2014)\s*([^\s,;]+)\s*$/.exec(pages);
  return match ? { first_page: match[1], last_page: match[2] } : { first_page: pages.trim(), last_page: null };
}

/**
 * The reference a benchmark line becomes on import (data README): an `other` identifier
 * "benchmark_record_id" and one bibliographic enhancement; `dup_group` is never part of it.
 */
export function labelledLineToView(line: LabelledLine): { id: string; identifiers: unknown[]; enhancements: unknown[] } {
  const identifiers: unknown[] = [{ identifier: line.record_id, identifier_type: 'other', other_identifier_name: 'benchmark_record_id' }];
  if (line.doi) identifiers.push({ identifier: line.doi, identifier_type: 'doi' });
  const authors = line.authors ?? [];
  return {
    id: line.record_id,
    identifiers,
    enhancements: [
      {
        source: 'benchmark',
        visibility: 'public',
        content: {
          enhancement_type: 'bibliographic',
          title: line.title,
          authorship: authors.map((name, i) => ({ display_name: name, orcid: null, position: i === 0 ? 'first' : i === authors.length - 1 ? 'last' : 'middle' })),
          publication_year: line.year,
          publication_venue: line.journal ? { display_name: line.journal } : null,
          pagination: { volume: line.volume, issue: line.issue, ...splitPages(line.pages) },
        },
      },
    ],
  };
}
