// Executable queries: each evaluates to the matching docs (and scores) of one nested level of an
// index, the way Lucene queries run against a segment.
import { type DocSet, EMPTY, addOptional, allDocs, constantScores, fromDocs, intersect, scaleScores, subtract, union } from './doc-set';
import { type FieldInfo, isNumericType } from './field-mapping';
import { type FieldIndex, type SegmentSet, VALUE_GAP, bm25Idf } from './index-segment';

export interface PercolatorSource {
  /** Stored query docs that may match a document with these `field\0term` keys. */
  candidates(termKeys: Set<string>): number[];
  /** The term sets a document must hit (one term of each) for a stored query to match; undefined: none. */
  requirementsOf(doc: number): ReadonlyArray<ReadonlySet<string>> | undefined;
  query(doc: number): Query | undefined;
  /** Field paths the stored queries read (null: unknown, so all), and a version that changes with them. */
  fieldsInUse?(): { fields: ReadonlySet<string> | null; version: number };
}

export interface ExecContext {
  readonly segments: SegmentSet;
  readonly level: string;
  readonly scoring: boolean;
  readonly now: number;
  /** Root doc ids of `_id` values. */
  readonly lookupIds?: (ids: string[]) => number[];
  readonly percolators?: (field: string) => PercolatorSource | undefined;
  /** Per root doc, extra `fields` of the hit (percolator slots). */
  readonly hitFields?: Map<number, Record<string, unknown[]>>;
}

export interface Query {
  execute(context: ExecContext): DocSet;
  /**
   * Term sets (`field\0term`) a matching document must hit: at least one term of every set. Null
   * when nothing is required. Percolation evaluates a stored query only for documents that hit all.
   */
  requiredTerms(): RequiredTerms;
  /** Score of one doc, NaN when it does not match (doc-at-a-time, used for small in-memory indices). */
  scoreDoc?(context: ExecContext, doc: number): number;
}

export type RequiredTerms = Array<Set<string>> | null;

/** Score of one doc under a query (NaN = no match), doc-at-a-time when the query supports it. */
export function scoreOf(query: Query, context: ExecContext, doc: number): number {
  if (query.scoreDoc) return query.scoreDoc(context, doc);
  const result = query.execute(context);
  let low = 0;
  let high = result.docs.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = result.docs[middle];
    if (value === doc) return result.scores[middle];
    if (value < doc) low = middle + 1;
    else high = middle - 1;
  }
  return Number.NaN;
}

function postingFreq(docs: ArrayLike<number>, freqs: ArrayLike<number>, doc: number): number {
  let low = 0;
  let high = docs.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = docs[middle];
    if (value === doc) return freqs[middle];
    if (value < doc) low = middle + 1;
    else high = middle - 1;
  }
  return 0;
}

/** The smallest set of a requirement list (the best single necessary condition). */
function bestSet(required: RequiredTerms): Set<string> | null {
  if (!required || required.length === 0) return null;
  return required.reduce((best, set) => (set.size < best.size ? set : best));
}

/** Any-of: documents must satisfy one of the alternatives. */
function anyOf(alternatives: RequiredTerms[]): RequiredTerms {
  const union = new Set<string>();
  for (const required of alternatives) {
    const best = bestSet(required);
    if (!best) return null;
    for (const term of best) union.add(term);
  }
  return [union];
}

function fieldIndex(context: ExecContext, info: FieldInfo): FieldIndex | undefined {
  if (info.level !== context.level) return undefined;
  return context.segments.levels.get(context.level)?.fields.get(info.path);
}

function maxDocOf(context: ExecContext): number {
  return context.segments.levels.get(context.level)?.maxDoc ?? 0;
}

export function termKey(field: string, term: string): string {
  return `${field}\u0000${term}`;
}

export class MatchAllQuery implements Query {
  constructor(private readonly boost = 1) {}
  execute(context: ExecContext): DocSet {
    return allDocs(maxDocOf(context), context.scoring ? this.boost : 0);
  }
  scoreDoc(context: ExecContext): number {
    return context.scoring ? this.boost : 0;
  }
  requiredTerms(): RequiredTerms {
    return null;
  }
}

export class MatchNoneQuery implements Query {
  execute(): DocSet {
    return EMPTY;
  }
  scoreDoc(): number {
    return Number.NaN;
  }
  requiredTerms(): RequiredTerms {
    return [new Set()];
  }
}

/** One exact term: BM25-scored on text, keyword and boolean fields, constant on numbers and dates. */
export class TermQuery implements Query {
  constructor(
    readonly field: FieldInfo,
    readonly term: string,
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    const index = fieldIndex(context, this.field);
    const posting = index?.postings.get(this.term);
    if (!index || !posting) return EMPTY;
    const docs = posting.docs;
    if (!context.scoring) return { docs, scores: new Float64Array(docs.length) };
    if (isNumericType(this.field.type) || this.field.type === 'date') return constantScores({ docs, scores: EMPTY.scores }, this.boost);
    const freqs = posting.freqs;
    const weight = this.boost * bm25Idf(index.docCount, docs.length);
    const scores = new Float64Array(docs.length);
    for (let position = 0; position < docs.length; position += 1) {
      scores[position] = Math.fround(weight * index.tf(freqs[position], docs[position]));
    }
    return { docs, scores };
  }

  scoreDoc(context: ExecContext, doc: number): number {
    const index = fieldIndex(context, this.field);
    const posting = index?.postings.get(this.term);
    if (!index || !posting) return Number.NaN;
    const freq = postingFreq(posting.docs, posting.freqs, doc);
    if (freq === 0) return Number.NaN;
    if (!context.scoring) return 0;
    if (isNumericType(this.field.type) || this.field.type === 'date') return this.boost;
    return Math.fround(this.boost * bm25Idf(index.docCount, posting.docFreq) * index.tf(freq, doc));
  }

  requiredTerms(): RequiredTerms {
    return [new Set([termKey(this.field.path, this.term)])];
  }
}

/** `terms`: any of several exact terms, constant score. */
export class TermSetQuery implements Query {
  constructor(
    readonly field: FieldInfo,
    readonly terms: string[],
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    const index = fieldIndex(context, this.field);
    if (!index) return EMPTY;
    const sets: DocSet[] = [];
    for (const term of new Set(this.terms)) {
      const posting = index.postings.get(term);
      if (posting) sets.push({ docs: posting.docs, scores: new Float64Array(posting.docFreq) });
    }
    return constantScores(union(sets, maxDocOf(context), 1, 'sum'), context.scoring ? this.boost : 0);
  }

  scoreDoc(context: ExecContext, doc: number): number {
    const index = fieldIndex(context, this.field);
    if (!index) return Number.NaN;
    for (const term of this.terms) {
      const posting = index.postings.get(term);
      if (posting && postingFreq(posting.docs, posting.freqs, doc) > 0) return context.scoring ? this.boost : 0;
    }
    return Number.NaN;
  }

  requiredTerms(): RequiredTerms {
    return [new Set(this.terms.map((term) => termKey(this.field.path, term)))];
  }
}

/** Terms of a field chosen by a predicate (prefix, wildcard): constant score like Elasticsearch. */
export class MultiTermQuery implements Query {
  constructor(
    readonly field: FieldInfo,
    private readonly accept: (term: string) => boolean,
    private readonly boost = 1,
    private readonly prefix?: string,
  ) {}

  execute(context: ExecContext): DocSet {
    const index = fieldIndex(context, this.field);
    if (!index) return EMPTY;
    const sets: DocSet[] = [];
    for (const [term, posting] of index.postings) if (this.accept(term)) sets.push({ docs: posting.docs, scores: new Float64Array(posting.docFreq) });
    return constantScores(union(sets, maxDocOf(context), 1, 'sum'), context.scoring ? this.boost : 0);
  }

  requiredTerms(): RequiredTerms {
    return null;
  }
}

/** Damerau–Levenshtein distance bounded by `max` (returns max + 1 when larger). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows = a.length + 1;
  const cols = b.length + 1;
  let previousPrevious = new Array<number>(cols).fill(0);
  let previous = Array.from({ length: cols }, (_, index) => index);
  for (let i = 1; i < rows; i += 1) {
    const current = new Array<number>(cols);
    current[0] = i;
    let rowMin = current[0];
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, previousPrevious[j - 2] + 1);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    previousPrevious = previous;
    previous = current;
  }
  return previous[cols - 1];
}

export function autoFuzziness(fuzziness: unknown, term: string): number {
  if (fuzziness === undefined || fuzziness === null) return 0;
  const text = String(fuzziness);
  const auto = /^AUTO(?::(\d+),(\d+))?$/i.exec(text);
  const length = [...term].length;
  if (auto) {
    const low = auto[1] ? Number(auto[1]) : 3;
    const high = auto[2] ? Number(auto[2]) : 6;
    return length < low ? 0 : length < high ? 1 : 2;
  }
  const value = Number(text);
  return Number.isFinite(value) ? Math.min(2, Math.max(0, Math.floor(value))) : 0;
}

/** Fuzzy term: expands to terms within the edit distance, scored with blended document frequency. */
export class FuzzyQuery implements Query {
  constructor(
    readonly field: FieldInfo,
    readonly term: string,
    private readonly maxEdits: number,
    private readonly boost = 1,
    private readonly prefixLength = 0,
    private readonly maxExpansions = 50,
  ) {}

  execute(context: ExecContext): DocSet {
    const index = fieldIndex(context, this.field);
    if (!index) return EMPTY;
    const prefix = this.term.slice(0, this.prefixLength);
    const expansions: Array<{ term: string; edits: number; docFreq: number }> = [];
    for (const [term, posting] of index.postings) {
      if (prefix && !term.startsWith(prefix)) continue;
      const edits = editDistance(term, this.term, this.maxEdits);
      if (edits <= this.maxEdits) expansions.push({ term, edits, docFreq: posting.docFreq });
    }
    expansions.sort((x, y) => x.edits - y.edits || y.docFreq - x.docFreq || (x.term < y.term ? -1 : 1));
    const chosen = expansions.slice(0, this.maxExpansions);
    if (chosen.length === 0) return EMPTY;
    const blendedDocFreq = Math.max(...chosen.map((entry) => entry.docFreq));
    const sets: DocSet[] = [];
    for (const entry of chosen) {
      const posting = index.postings.get(entry.term);
      if (!posting) continue;
      const termLength = Math.min([...entry.term].length, [...this.term].length);
      const similarity = termLength === 0 ? 1 : Math.max(0, 1 - entry.edits / termLength);
      const weight = this.boost * similarity * bm25Idf(index.docCount, blendedDocFreq);
      const docs = posting.docs;
      const freqs = posting.freqs;
      const scores = new Float64Array(docs.length);
      if (context.scoring) for (let i = 0; i < scores.length; i += 1) scores[i] = weight * index.tf(freqs[i], docs[i]);
      sets.push({ docs, scores });
    }
    return union(sets, maxDocOf(context), 1, 'sum');
  }

  requiredTerms(): RequiredTerms {
    return null;
  }
}

/** Consecutive analysed tokens (with slop), verified against the field's text. */
export class PhraseQuery implements Query {
  constructor(
    readonly field: FieldInfo,
    readonly tokens: string[],
    private readonly slop = 0,
    private readonly boost = 1,
    private readonly lastIsPrefix = false,
  ) {}

  execute(context: ExecContext): DocSet {
    const index = fieldIndex(context, this.field);
    if (!index || this.tokens.length === 0) return EMPTY;
    const exact = this.lastIsPrefix ? this.tokens.slice(0, -1) : this.tokens;
    let candidates: DocSet | undefined;
    for (const token of exact) {
      const posting = index.postings.get(token);
      if (!posting) return EMPTY;
      const set = { docs: posting.docs, scores: new Float64Array(posting.docFreq) };
      candidates = candidates ? intersect(candidates, set, false) : set;
    }
    if (!candidates) {
      const lastPrefix = this.tokens[this.tokens.length - 1];
      candidates = new MultiTermQuery(this.field, (term) => term.startsWith(lastPrefix)).execute({ ...context, scoring: false });
    }
    const idf = exact.reduce((sum, token) => sum + bm25Idf(index.docCount, index.postings.get(token)?.docFreq ?? 0), 0);
    const docs: number[] = [];
    const scores: number[] = [];
    const last = this.tokens[this.tokens.length - 1];
    const prefixIds = this.lastIsPrefix ? new Set([...index.postings].filter(([term]) => term.startsWith(last)).map(([, posting]) => posting.id)) : undefined;
    for (const doc of candidates.docs) {
      const frequency = this.phraseFrequency(index, doc, prefixIds);
      if (frequency === 0) continue;
      docs.push(doc);
      scores.push(context.scoring ? Math.fround(this.boost * idf * index.tf(frequency, doc)) : 0);
    }
    return { docs: Int32Array.from(docs), scores: Float64Array.from(scores) };
  }

  private phraseFrequency(index: FieldIndex, doc: number, prefixIds: Set<number> | undefined): number {
    const forward = index.forwardOf(doc);
    if (!forward) return 0;
    const last = this.tokens.length - 1;
    const ids = this.tokens.map((token, slot) => (this.lastIsPrefix && slot === last ? -1 : (index.postings.get(token)?.id ?? -2)));
    const positions: number[][] = this.tokens.map(() => []);
    // Values of a multi-valued field are 100 positions apart (Elasticsearch's position_increment_gap).
    let position = -1;
    for (let entry = 0; entry < forward.length; entry += 1) {
      const id = forward[entry];
      if (id === VALUE_GAP) {
        position += 100;
        continue;
      }
      position += 1;
      for (let slot = 0; slot <= last; slot += 1) {
        if (ids[slot] === id || (ids[slot] === -1 && prefixIds?.has(id))) positions[slot].push(position);
      }
    }
    if (positions.some((list) => list.length === 0)) return 0;
    return this.slop === 0 ? this.exactMatches(positions) : this.sloppyMatches(positions);
  }

  private exactMatches(positions: number[][]): number {
    const sets = positions.map((list) => new Set(list));
    return positions[0].filter((start) => sets.every((set, slot) => set.has(start + slot))).length;
  }

  // Lucene's sloppy phrase: positions p_i (distinct) match when max(p_i - i) - min(p_i - i) <= slop;
  // each anchor position contributes 1 / (1 + that distance).
  private sloppyMatches(positions: number[][]): number {
    let total = 0;
    for (const anchor of positions[0]) {
      let best = Number.POSITIVE_INFINITY;
      const used = new Set<number>([anchor]);
      const search = (slot: number, low: number, high: number) => {
        if (high - low > this.slop || high - low >= best) return;
        if (slot === positions.length) {
          best = high - low;
          return;
        }
        for (const position of positions[slot]) {
          if (used.has(position)) continue;
          const offset = position - slot;
          used.add(position);
          search(slot + 1, Math.min(low, offset), Math.max(high, offset));
          used.delete(position);
        }
      };
      search(1, anchor, anchor);
      if (best !== Number.POSITIVE_INFINITY) total += 1 / (1 + best);
    }
    return total;
  }

  requiredTerms(): RequiredTerms {
    const exact = this.lastIsPrefix ? this.tokens.slice(0, -1) : this.tokens;
    return exact.length ? exact.map((token) => new Set([termKey(this.field.path, token)])) : null;
  }
}

export interface RangeBounds {
  lower?: number | string;
  upper?: number | string;
  includeLower: boolean;
  includeUpper: boolean;
}

/** Range over numeric, date or keyword doc values; constant score. */
export class RangeQuery implements Query {
  constructor(
    readonly field: FieldInfo,
    private readonly bounds: RangeBounds,
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    const index = fieldIndex(context, this.field);
    if (!index) return EMPTY;
    const { lower, upper, includeLower, includeUpper } = this.bounds;
    if (typeof lower !== 'string' && typeof upper !== 'string' && !index.multiValued && index.numbers.length > 0) {
      // Single-valued numbers and dates: a tight scan over the dense column.
      const low = lower ?? Number.NEGATIVE_INFINITY;
      const high = upper ?? Number.POSITIVE_INFINITY;
      const column = index.numbers;
      const docs = new Int32Array(column.length);
      let count = 0;
      for (let doc = 0; doc < column.length; doc += 1) {
        const value = column[doc];
        if (value !== value) continue;
        if (includeLower ? value < low : value <= low) continue;
        if (includeUpper ? value > high : value >= high) continue;
        docs[count] = doc;
        count += 1;
      }
      const scores = new Float64Array(count);
      if (context.scoring && this.boost !== 0) scores.fill(this.boost);
      return { docs: docs.subarray(0, count), scores };
    }
    const inRange = (value: unknown): boolean => {
      if (typeof value === 'object') return false;
      const comparable = typeof lower === 'string' || typeof upper === 'string' ? String(value) : Number(value);
      if (lower !== undefined && (includeLower ? comparable < lower : comparable <= lower)) return false;
      if (upper !== undefined && (includeUpper ? comparable > upper : comparable >= upper)) return false;
      return true;
    };
    const docs: number[] = [];
    for (const doc of index.docsWithField) {
      const values = index.values[doc];
      if (values && values.some(inRange)) docs.push(doc);
    }
    return fromDocs(docs, context.scoring ? this.boost : 0);
  }

  requiredTerms(): RequiredTerms {
    return null;
  }
}

/** `exists`: docs with any indexed value in the field (or in any field under an object path). */
export class ExistsQuery implements Query {
  constructor(
    readonly fields: FieldInfo[],
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    const sets: DocSet[] = [];
    for (const info of this.fields) {
      const index = fieldIndex(context, info);
      if (index) sets.push(fromDocs(index.docsWithField, 0));
    }
    return constantScores(union(sets, maxDocOf(context), 1, 'sum'), context.scoring ? this.boost : 0);
  }

  scoreDoc(context: ExecContext, doc: number): number {
    for (const info of this.fields) {
      if (fieldIndex(context, info)?.values[doc] !== undefined) return context.scoring ? this.boost : 0;
    }
    return Number.NaN;
  }

  requiredTerms(): RequiredTerms {
    return null;
  }
}

export class IdsQuery implements Query {
  constructor(
    private readonly ids: string[],
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    if (context.level !== '' || !context.lookupIds) return EMPTY;
    const docs = [...new Set(context.lookupIds(this.ids))].sort((x, y) => x - y);
    return fromDocs(docs, context.scoring ? this.boost : 0);
  }

  requiredTerms(): RequiredTerms {
    return null;
  }
}

export class BoolQuery implements Query {
  constructor(
    private readonly must: Query[],
    private readonly should: Query[],
    private readonly filter: Query[],
    private readonly mustNot: Query[],
    private readonly minimumShouldMatch: number,
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    const maxDoc = maxDocOf(context);
    const filterContext = { ...context, scoring: false };
    let base: DocSet | undefined;
    const required = [
      ...this.must.map((query) => query.execute(context)),
      ...this.filter.map((query) => constantScores(query.execute(filterContext), 0)),
    ].sort((x, y) => x.docs.length - y.docs.length);
    for (const set of required) {
      base = base ? intersect(base, set, context.scoring) : set;
      if (base.docs.length === 0) return EMPTY;
    }
    if (base) {
      if (this.should.length > 0 && (context.scoring || this.minimumShouldMatch > 0)) {
        base = addOptional(base, this.should.map((query) => query.execute(context)), this.minimumShouldMatch);
      }
    } else if (this.should.length > 0) {
      base = union(
        this.should.map((query) => query.execute(context)),
        maxDoc,
        Math.max(1, this.minimumShouldMatch),
        'sum',
      );
    } else {
      base = allDocs(maxDoc, 0);
    }
    for (const query of this.mustNot) {
      if (base.docs.length === 0) break;
      base = subtract(base, query.execute(filterContext));
    }
    return context.scoring ? scaleScores(base, this.boost) : base;
  }

  scoreDoc(context: ExecContext, doc: number): number {
    let score = 0;
    for (const query of this.filter) if (Number.isNaN(scoreOf(query, { ...context, scoring: false }, doc))) return Number.NaN;
    for (const query of this.must) {
      const value = scoreOf(query, context, doc);
      if (Number.isNaN(value)) return Number.NaN;
      score += value;
    }
    for (const query of this.mustNot) if (!Number.isNaN(scoreOf(query, { ...context, scoring: false }, doc))) return Number.NaN;
    const required = this.must.length + this.filter.length > 0;
    if (this.should.length > 0 && (context.scoring || this.minimumShouldMatch > 0 || !required)) {
      let matched = 0;
      for (const query of this.should) {
        const value = scoreOf(query, context, doc);
        if (Number.isNaN(value)) continue;
        matched += 1;
        score += value;
      }
      const minimum = required ? this.minimumShouldMatch : Math.max(1, this.minimumShouldMatch);
      if (matched < minimum) return Number.NaN;
    }
    return context.scoring ? score * this.boost : 0;
  }

  requiredTerms(): RequiredTerms {
    const required: Array<Set<string>> = [];
    for (const query of [...this.must, ...this.filter]) {
      const terms = query.requiredTerms();
      if (terms) required.push(...terms);
    }
    if (required.length > 0) return required;
    if (this.must.length + this.filter.length === 0 && this.should.length > 0) return anyOf(this.should.map((query) => query.requiredTerms()));
    return null;
  }
}

export class DisMaxQuery implements Query {
  constructor(
    private readonly queries: Query[],
    private readonly tieBreaker = 0,
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    const result = union(
      this.queries.map((query) => query.execute(context)),
      maxDocOf(context),
      1,
      'dismax',
      this.tieBreaker,
    );
    return context.scoring ? scaleScores(result, this.boost) : result;
  }

  scoreDoc(context: ExecContext, doc: number): number {
    let max = Number.NaN;
    let sum = 0;
    for (const query of this.queries) {
      const value = scoreOf(query, context, doc);
      if (Number.isNaN(value)) continue;
      sum += value;
      if (Number.isNaN(max) || value > max) max = value;
    }
    if (Number.isNaN(max)) return max;
    return context.scoring ? (max + this.tieBreaker * (sum - max)) * this.boost : 0;
  }

  requiredTerms(): RequiredTerms {
    return anyOf(this.queries.map((query) => query.requiredTerms()));
  }
}

export class ConstantScoreQuery implements Query {
  constructor(
    private readonly inner: Query,
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    return constantScores(this.inner.execute({ ...context, scoring: false }), context.scoring ? this.boost : 0);
  }

  scoreDoc(context: ExecContext, doc: number): number {
    return Number.isNaN(scoreOf(this.inner, { ...context, scoring: false }, doc)) ? Number.NaN : context.scoring ? this.boost : 0;
  }

  requiredTerms(): RequiredTerms {
    return this.inner.requiredTerms();
  }
}

export class BoostQuery implements Query {
  constructor(
    private readonly inner: Query,
    private readonly boost: number,
  ) {}

  execute(context: ExecContext): DocSet {
    const result = this.inner.execute(context);
    return context.scoring ? scaleScores(result, this.boost) : result;
  }

  scoreDoc(context: ExecContext, doc: number): number {
    return scoreOf(this.inner, context, doc) * (context.scoring ? this.boost : 1);
  }

  requiredTerms(): RequiredTerms {
    return this.inner.requiredTerms();
  }
}

export type NestedScoreMode = 'avg' | 'max' | 'min' | 'sum' | 'none';

/** Block join: inner query on the nested path's hidden docs, mapped to their parents at this level. */
export class NestedQuery implements Query {
  constructor(
    private readonly path: string,
    private readonly inner: Query,
    private readonly scoreMode: NestedScoreMode,
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    const level = context.segments.levels.get(this.path);
    if (!level) return EMPTY;
    const childContext = { ...context, level: this.path };
    const children = this.inner.execute(childContext);
    const parents: number[] = [];
    const scores: number[] = [];
    let current = -1;
    let sum = 0;
    let count = 0;
    let min = 0;
    let max = 0;
    const flush = () => {
      if (current < 0) return;
      parents.push(current);
      const score = this.scoreMode === 'avg' ? sum / count : this.scoreMode === 'sum' ? sum : this.scoreMode === 'max' ? max : this.scoreMode === 'min' ? min : 0;
      scores.push(context.scoring ? score * this.boost : 0);
    };
    for (let index = 0; index < children.docs.length; index += 1) {
      let doc = children.docs[index];
      let segment = level;
      while (segment.path !== context.level && segment.parentPath !== undefined) {
        doc = segment.parents[doc];
        const next = context.segments.levels.get(segment.parentPath);
        if (!next) return EMPTY;
        segment = next;
      }
      if (segment.path !== context.level) return EMPTY;
      const score = children.scores[index];
      if (doc !== current) {
        flush();
        current = doc;
        sum = 0;
        count = 0;
        min = score;
        max = score;
      }
      sum += score;
      count += 1;
      if (score < min) min = score;
      if (score > max) max = score;
    }
    flush();
    return { docs: Int32Array.from(parents), scores: Float64Array.from(scores) };
  }

  scoreDoc(context: ExecContext, doc: number): number {
    const level = context.segments.levels.get(this.path);
    if (!level) return Number.NaN;
    const childContext = { ...context, level: this.path };
    let count = 0;
    let sum = 0;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    const ancestorOf = (child: number): number => {
      let ancestor = child;
      let segment = level;
      while (segment.path !== context.level && segment.parentPath !== undefined) {
        ancestor = segment.parents[ancestor];
        const next = context.segments.levels.get(segment.parentPath);
        if (!next) return -1;
        segment = next;
      }
      return segment.path === context.level ? ancestor : -1;
    };
    // Children are stored in parent order, so their ancestors are non-decreasing: binary search the first.
    let low = 0;
    let high = level.maxDoc;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (ancestorOf(middle) < doc) low = middle + 1;
      else high = middle;
    }
    for (let child = low; child < level.maxDoc && ancestorOf(child) === doc; child += 1) {
      const score = scoreOf(this.inner, childContext, child);
      if (Number.isNaN(score)) continue;
      count += 1;
      sum += score;
      if (score < min) min = score;
      if (score > max) max = score;
    }
    if (count === 0) return Number.NaN;
    if (!context.scoring) return 0;
    const score = this.scoreMode === 'avg' ? sum / count : this.scoreMode === 'sum' ? sum : this.scoreMode === 'max' ? max : this.scoreMode === 'min' ? min : 0;
    return score * this.boost;
  }

  requiredTerms(): RequiredTerms {
    return this.inner.requiredTerms();
  }
}

/** `boosting`: positive matches, with scores of those also matching `negative` multiplied by `negative_boost`. */
export class BoostingQuery implements Query {
  constructor(
    private readonly positive: Query,
    private readonly negative: Query,
    private readonly negativeBoost: number,
    private readonly boost = 1,
  ) {}

  execute(context: ExecContext): DocSet {
    const matched = this.positive.execute(context);
    if (!context.scoring || matched.docs.length === 0) return matched;
    const demoted = new Set(this.negative.execute({ ...context, scoring: false }).docs);
    const scores = new Float64Array(matched.docs.length);
    for (let index = 0; index < scores.length; index += 1) {
      scores[index] = matched.scores[index] * (demoted.has(matched.docs[index]) ? this.negativeBoost : 1) * this.boost;
    }
    return { docs: matched.docs, scores };
  }

  requiredTerms(): RequiredTerms {
    return this.positive.requiredTerms();
  }
}
