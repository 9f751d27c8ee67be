// The engine on real data: the hand-labelled haematology sample (shared/data/dedup), replayed as a
// stream in file order and in shuffled orders, scored against its key.

import fs from 'node:fs';
import path from 'node:path';
import { replayStream, scoreAgainstKey, seededShuffle, labelledLineToView, type LabelledLine } from './evaluation';
import { toDedupRecord } from './record';

/**
 * Recall floor this method reaches without a false merge (123 of 135, 0.911). The brief's target
 * of 0.97 is not reachable without merging pairs the stated rules forbid: see bench/README.md,
 * "Deduplication", for the twelve missed merges and why each is left apart.
 */
const RECALL_FLOOR = 0.91;
/** The same outcome with false negatives counted per record (a missed pair counts twice): 0.848. */
const RECALL_PER_RECORD_FLOOR = 0.84;

function findRepositoryRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No pnpm-workspace.yaml above ${start}`);
  }
}

const samplePath = path.resolve(findRepositoryRoot(__dirname), '..', 'shared', 'data', 'dedup', 'haematology.jsonl');

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

  it('when replayed in shuffled orders, then precision and recall do not depend on the order', () => {
    const fileOrder = scoreAgainstKey(replayStream(records).decisions, groupOf);
    for (const seed of [1, 2, 3, 4, 5]) {
      const score = scoreAgainstKey(replayStream(seededShuffle(records, seed)).decisions, groupOf);
      expect({ seed, precision: score.precision, truePositives: score.truePositives }).toEqual({ seed, precision: 1, truePositives: fileOrder.truePositives });
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
