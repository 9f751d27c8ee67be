// The engine on real data: the hand-labelled haematology sample (shared/data/dedup), replayed as a
// stream in file order and in shuffled orders, scored against its key.

import { replayStream, scoreAgainstKey, seededShuffle, labelledLineToView } from './evaluation';
import { loadHaematologySample } from './labelled-sample.fixture';
import { toDedupRecord } from './record';

/**
 * Recall this method reaches in file order without a false merge (128 of 135, 0.948). The target
 * of 0.97 (131) is not reachable without merging pairs the key itself labels as different works
 * in structurally identical cases: see bench/README.md, "Deduplication", for each missed merge.
 */
const RECALL_FLOOR = 0.948;
/** The same outcome with false negatives counted per record (a missed pair counts twice): 0.914. */
const RECALL_PER_RECORD_FLOOR = 0.914;
/**
 * Any order (125 of 135, 0.926, in the worst of 100 orders): a merge that rests on a
 * cross-reference (an erratum named by an article's note, a reply inside a "(multiple letters)"
 * record) still depends on which record of the article's group becomes its canonical.
 */
const SHUFFLED_RECALL_FLOOR = 0.925;

describe('haematology labelled sample', () => {
  const { lines, groupOf } = loadHaematologySample();
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
