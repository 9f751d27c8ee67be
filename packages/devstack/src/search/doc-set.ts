// Matching documents of one query as parallel arrays (ascending doc ids, their scores) and the set
// operations boolean queries are built from.

export interface DocSet {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
}

export const EMPTY: DocSet = { docs: new Int32Array(0), scores: new Float64Array(0) };

export function fromDocs(docs: ArrayLike<number>, score: number): DocSet {
  const scores = new Float64Array(docs.length);
  if (score !== 0) scores.fill(score);
  return { docs: Int32Array.from(docs), scores };
}

export function allDocs(maxDoc: number, score: number): DocSet {
  const docs = new Int32Array(maxDoc);
  for (let doc = 0; doc < maxDoc; doc += 1) docs[doc] = doc;
  const scores = new Float64Array(maxDoc);
  if (score !== 0) scores.fill(score);
  return { docs, scores };
}

export function scaleScores(set: DocSet, factor: number): DocSet {
  if (factor === 1) return set;
  const scores = new Float64Array(set.scores.length);
  for (let index = 0; index < scores.length; index += 1) scores[index] = set.scores[index] * factor;
  return { docs: set.docs, scores };
}

export function constantScores(set: DocSet, score: number): DocSet {
  const scores = new Float64Array(set.docs.length);
  if (score !== 0) scores.fill(score);
  return { docs: set.docs, scores };
}

/** Docs in both sets; scores added when `addScores`. */
export function intersect(left: DocSet, right: DocSet, addScores: boolean): DocSet {
  const docs = new Int32Array(Math.min(left.docs.length, right.docs.length));
  const scores = new Float64Array(docs.length);
  let count = 0;
  let i = 0;
  let j = 0;
  const a = left.docs;
  const b = right.docs;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x === y) {
      docs[count] = x;
      scores[count] = addScores ? left.scores[i] + right.scores[j] : left.scores[i];
      count += 1;
      i += 1;
      j += 1;
    } else if (x < y) i += 1;
    else j += 1;
  }
  return { docs: docs.subarray(0, count), scores: scores.subarray(0, count) };
}

/** Docs of `left` not in `right`. */
export function subtract(left: DocSet, right: DocSet): DocSet {
  if (right.docs.length === 0) return left;
  const docs = new Int32Array(left.docs.length);
  const scores = new Float64Array(left.docs.length);
  let count = 0;
  let j = 0;
  for (let i = 0; i < left.docs.length; i += 1) {
    const doc = left.docs[i];
    while (j < right.docs.length && right.docs[j] < doc) j += 1;
    if (j < right.docs.length && right.docs[j] === doc) continue;
    docs[count] = doc;
    scores[count] = left.scores[i];
    count += 1;
  }
  return { docs: docs.subarray(0, count), scores: scores.subarray(0, count) };
}

export type Combine = 'sum' | 'max' | 'dismax';

/**
 * Union of several sets, keeping docs matched by at least `minimum` of them. Scores combine by
 * sum, or by dis_max (`max + tieBreaker × others`).
 */
export function union(sets: DocSet[], maxDoc: number, minimum: number, combine: Combine, tieBreaker = 0): DocSet {
  const nonEmpty = sets.filter((set) => set.docs.length > 0);
  if (nonEmpty.length < Math.max(minimum, 1)) return EMPTY;
  if (nonEmpty.length === 1 && minimum <= 1) return nonEmpty[0];
  const total = nonEmpty.reduce((sum, set) => sum + set.docs.length, 0);
  if (total * 64 < maxDoc) return sparseUnion(nonEmpty, minimum, combine, tieBreaker);
  const sums = new Float64Array(maxDoc);
  const maxima = combine === 'sum' ? undefined : new Float64Array(maxDoc);
  const counts = new Uint16Array(maxDoc);
  for (const set of nonEmpty) {
    for (let index = 0; index < set.docs.length; index += 1) {
      const doc = set.docs[index];
      const score = set.scores[index];
      sums[doc] += score;
      counts[doc] += 1;
      if (maxima && score > maxima[doc]) maxima[doc] = score;
    }
  }
  let size = 0;
  for (let doc = 0; doc < maxDoc; doc += 1) if (counts[doc] >= minimum && counts[doc] > 0) size += 1;
  const docs = new Int32Array(size);
  const scores = new Float64Array(size);
  let position = 0;
  for (let doc = 0; doc < maxDoc; doc += 1) {
    if (counts[doc] < minimum || counts[doc] === 0) continue;
    docs[position] = doc;
    scores[position] = maxima ? maxima[doc] + tieBreaker * (sums[doc] - maxima[doc]) : sums[doc];
    position += 1;
  }
  return { docs, scores };
}

function sparseUnion(sets: DocSet[], minimum: number, combine: Combine, tieBreaker: number): DocSet {
  const entries = new Map<number, [number, number, number]>();
  for (const set of sets) {
    for (let index = 0; index < set.docs.length; index += 1) {
      const doc = set.docs[index];
      const score = set.scores[index];
      const entry = entries.get(doc);
      if (entry) {
        entry[0] += score;
        entry[1] += 1;
        if (score > entry[2]) entry[2] = score;
      } else entries.set(doc, [score, 1, score]);
    }
  }
  const kept = [...entries.entries()].filter(([, entry]) => entry[1] >= minimum).sort((x, y) => x[0] - y[0]);
  const docs = new Int32Array(kept.length);
  const scores = new Float64Array(kept.length);
  kept.forEach(([doc, [sum, , max]], index) => {
    docs[index] = doc;
    scores[index] = combine === 'sum' ? sum : max + tieBreaker * (sum - max);
  });
  return { docs, scores };
}

/** Adds the scores of `optional` to the docs of `base` (and counts how many optional sets matched). */
export function addOptional(base: DocSet, optional: DocSet[], minimum: number): DocSet {
  const scores = Float64Array.from(base.scores);
  const counts = new Uint16Array(base.docs.length);
  for (const set of optional) {
    let j = 0;
    for (let i = 0; i < base.docs.length && j < set.docs.length; i += 1) {
      const doc = base.docs[i];
      while (j < set.docs.length && set.docs[j] < doc) j += 1;
      if (j < set.docs.length && set.docs[j] === doc) {
        scores[i] += set.scores[j];
        counts[i] += 1;
      }
    }
  }
  if (minimum <= 0) return { docs: base.docs, scores };
  const docs = new Int32Array(base.docs.length);
  const kept = new Float64Array(base.docs.length);
  let count = 0;
  for (let i = 0; i < base.docs.length; i += 1) {
    if (counts[i] < minimum) continue;
    docs[count] = base.docs[i];
    kept[count] = scores[i];
    count += 1;
  }
  return { docs: docs.subarray(0, count), scores: kept.subarray(0, count) };
}
