// Runs one search over index views: query, filters, total hits, sort (fields, `_score`, `_doc`,
// `_shard_doc`), `search_after`, paging and `_source` filtering, producing Elasticsearch's response.
import { type DocSet, intersect } from './doc-set';
import { EsError, QueryShardError, searchPhaseFailure } from './es-error';
import { isNumericType } from './field-mapping';
import { parseDateValue } from './date-format';
import { type ExecContext, MatchAllQuery, type Query } from './query.model';
import { compileQuery } from './query.compiler';
import { type IndexView } from './search-index';
import { type SourceFilter, applySourceFilter } from './source-filter';

// Long.MAX_VALUE / MIN_VALUE as Elasticsearch reports missing numeric sort values (2^63 as a double).
const LONG_MAX = 2 ** 63;
const LONG_MIN = -(2 ** 63);

interface SortKey {
  field: string;
  order: 'asc' | 'desc';
  missing: 'first' | 'last' | unknown;
  mode?: string;
  unmappedType?: string;
}

interface Candidate {
  viewIndex: number;
  doc: number;
  score: number;
  values: unknown[];
  hitFields?: Record<string, unknown[]>;
}

export interface SearchRequest {
  query?: unknown;
  postFilter?: unknown;
  from: number;
  size: number;
  sort?: unknown;
  searchAfter?: unknown[];
  trackTotalHits: boolean | number;
  trackScores: boolean;
  minScore?: number;
  source: SourceFilter;
  pitId?: string;
  /** Alias filters per view index (queries ANDed with the request query). */
  aliasFilters?: Array<unknown | undefined>;
  version: boolean;
  seqNoPrimaryTerm: boolean;
}

export function parseSort(sort: unknown): SortKey[] {
  if (sort === undefined || sort === null) return [];
  const list = Array.isArray(sort) ? sort : [sort];
  return list.map((entry): SortKey => {
    if (typeof entry === 'string') {
      const [field, order] = entry.split(':');
      return { field, order: order === 'desc' || (order === undefined && field === '_score') ? 'desc' : 'asc', missing: 'last' };
    }
    if (entry && typeof entry === 'object') {
      const [field, spec] = Object.entries(entry as Record<string, unknown>)[0] ?? [];
      if (!field) throw new EsError(400, 'parsing_exception', 'malformed sort format, within the sort array, an object, or an actual string are allowed');
      if (typeof spec === 'string') return { field, order: spec === 'desc' ? 'desc' : 'asc', missing: 'last' };
      const options = (spec ?? {}) as Record<string, unknown>;
      const order = options.order === undefined ? (field === '_score' ? 'desc' : 'asc') : String(options.order);
      if (order !== 'asc' && order !== 'desc') throw new EsError(400, 'x_content_parse_exception', `[1:2] [field_sort] failed to parse field [order]`);
      const missing = options.missing === undefined || options.missing === '_last' ? 'last' : options.missing === '_first' ? 'first' : options.missing;
      return { field, order, missing, mode: options.mode as string | undefined, unmappedType: options.unmapped_type as string | undefined };
    }
    throw new EsError(400, 'parsing_exception', 'malformed sort format, within the sort array, an object, or an actual string are allowed');
  });
}

/** A float score as Elasticsearch prints it: the shortest decimal that reads back as the same float32. */
const renderedScores = new Map<number, number>();

export function float32(value: number): number {
  const single = Math.fround(value);
  if (!Number.isFinite(single) || Number.isInteger(single)) return single;
  // Hits often share scores (percolation, constant scores): reuse recent renderings.
  const cached = renderedScores.get(single);
  if (cached !== undefined) return cached;
  if (renderedScores.size >= 4096) renderedScores.clear();
  // If k significant digits read back as the same float, so do k + 1: binary search the shortest.
  let low = 1;
  let high = 9;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (Math.fround(Number(single.toPrecision(middle))) === single) high = middle;
    else low = middle + 1;
  }
  const rendered = Number(single.toPrecision(low));
  renderedScores.set(single, rendered);
  return rendered;
}

function compareRaw(left: unknown, right: unknown): number {
  if (typeof left === 'number' && typeof right === 'number') return left - right;
  const a = String(left);
  const b = String(right);
  return a < b ? -1 : a > b ? 1 : 0;
}

function isMissing(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'number' && (value >= LONG_MAX || value <= LONG_MIN || !Number.isFinite(value)));
}

function compareKey(key: SortKey, left: unknown, right: unknown): number {
  if (key.field !== '_score' && key.field !== '_doc' && key.field !== '_shard_doc') {
    const leftMissing = isMissing(left);
    const rightMissing = isMissing(right);
    if (leftMissing || rightMissing) {
      if (leftMissing && rightMissing) return 0;
      const missingFirst = key.missing === 'first';
      return leftMissing === missingFirst ? -1 : 1;
    }
  }
  const result = compareRaw(left, right);
  return key.order === 'desc' ? -result : result;
}

type SortAccessor = (doc: number, score: number) => unknown;

/** Resolves a sort key once per index view; single-valued numeric columns are read directly. */
function sortAccessor(view: IndexView, key: SortKey, viewIndex: number): SortAccessor {
  if (key.field === '_score') return (_doc, score) => float32(score);
  if (key.field === '_doc') return (doc) => doc;
  if (key.field === '_shard_doc') return (doc) => viewIndex * 2 ** 32 + doc;
  const field = view.index.mapping.fields.get(key.field);
  const index = field ? view.segments.root.fields.get(field.path) : undefined;
  if (field && field.level === '' && index && !index.multiValued && index.numbers.length > 0 && field.type !== 'boolean' && field.type !== 'keyword') {
    const missing = key.missing !== 'first' && key.missing !== 'last' ? key.missing : missingValue(key, field.type);
    const column = index.numbers;
    return (doc) => {
      const value = doc < column.length ? column[doc] : Number.NaN;
      return value === value ? value : missing;
    };
  }
  if (field && field.level === '' && index && field.type !== 'text' && field.type !== 'match_only_text') {
    const missing = key.missing !== 'first' && key.missing !== 'last' ? key.missing : missingValue(key, field.type);
    const pickMax = (key.mode ?? (key.order === 'desc' ? 'max' : 'min')) === 'max';
    if (key.mode === 'sum' || key.mode === 'avg') return (doc, score) => sortValue(view, key, doc, score, viewIndex);
    return (doc) => {
      const values = index.values[doc];
      if (values === undefined || values.length === 0) return missing;
      let best: unknown;
      for (const raw of values) {
        if (typeof raw === 'object') continue;
        const value = typeof raw === 'boolean' ? (raw ? 1 : 0) : raw;
        if (best === undefined || (pickMax ? compareRaw(value, best) > 0 : compareRaw(value, best) < 0)) best = value;
      }
      return best === undefined ? missing : best;
    };
  }
  return (doc, score) => sortValue(view, key, doc, score, viewIndex);
}

function sortValue(view: IndexView, key: SortKey, doc: number, score: number, viewIndex: number): unknown {
  if (key.field === '_score') return score;
  if (key.field === '_doc') return doc;
  if (key.field === '_shard_doc') return viewIndex * 2 ** 32 + doc;
  const field = view.index.mapping.fields.get(key.field);
  if (!field) {
    if (key.unmappedType) return missingValue(key, key.unmappedType);
    throw new QueryShardError(`No mapping found for [${key.field}] in order to sort on`);
  }
  if (field.type === 'text') {
    throw new QueryShardError(
      `Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${key.field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
      undefined,
      'illegal_argument_exception',
    );
  }
  if (field.level !== '') throw new QueryShardError(`sorting on a field inside a nested object needs a [nested] sort option, not supported for [${key.field}]`);
  const values = view.segments.root.fields.get(field.path)?.values[doc];
  const usable = (values ?? []).filter((value) => typeof value !== 'object');
  if (usable.length === 0) {
    if (key.missing !== 'first' && key.missing !== 'last') return key.missing;
    return missingValue(key, field.type);
  }
  const converted = usable.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
  const mode = key.mode ?? (key.order === 'desc' ? 'max' : 'min');
  if (mode === 'sum' || mode === 'avg') {
    const numbers = converted.map(Number);
    const sum = numbers.reduce((total, value) => total + value, 0);
    return mode === 'sum' ? sum : sum / numbers.length;
  }
  return converted.reduce((best, value) => (mode === 'max' ? (compareRaw(value, best) > 0 ? value : best) : compareRaw(value, best) < 0 ? value : best));
}

function missingValue(key: SortKey, type: string): unknown {
  if (!(isNumericType(type) || type === 'date' || type === 'boolean')) return null;
  const last = key.missing !== 'first';
  const ascending = key.order === 'asc';
  return last === ascending ? LONG_MAX : LONG_MIN;
}

function normalizeAfter(view: IndexView | undefined, key: SortKey, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  const field = view?.index.mapping.fields.get(key.field);
  if (field?.type === 'date' && typeof value === 'string') return parseDateValue(value) ?? value;
  if (field && (isNumericType(field.type) || field.type === 'date') && typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return value;
}

function compareCandidates(keys: SortKey[], left: Candidate, right: Candidate): number {
  for (let index = 0; index < keys.length; index += 1) {
    const result = compareKey(keys[index], left.values[index], right.values[index]);
    if (result !== 0) return result;
  }
  return left.viewIndex - right.viewIndex || left.doc - right.doc;
}

/** The best `capacity` candidates seen so far (a bounded max-heap on "worse first"). */
class TopCandidates {
  private readonly heap: Candidate[] = [];

  constructor(
    private readonly capacity: number,
    private readonly compare: (a: Candidate, b: Candidate) => number,
  ) {}

  offer(candidate: Candidate): void {
    const heap = this.heap;
    if (this.capacity <= 0) return;
    if (heap.length < this.capacity) {
      heap.push(candidate);
      let position = heap.length - 1;
      while (position > 0) {
        const parent = (position - 1) >> 1;
        if (this.compare(heap[position], heap[parent]) <= 0) break;
        [heap[position], heap[parent]] = [heap[parent], heap[position]];
        position = parent;
      }
      return;
    }
    if (this.compare(candidate, heap[0]) >= 0) return;
    heap[0] = candidate;
    let position = 0;
    for (;;) {
      const left = position * 2 + 1;
      const right = left + 1;
      let largest = position;
      if (left < heap.length && this.compare(heap[left], heap[largest]) > 0) largest = left;
      if (right < heap.length && this.compare(heap[right], heap[largest]) > 0) largest = right;
      if (largest === position) break;
      [heap[position], heap[largest]] = [heap[largest], heap[position]];
      position = largest;
    }
  }

  sorted(): Candidate[] {
    return this.heap.sort(this.compare);
  }
}

/** Positions of the `count` best scores (ties: lower doc first), in no particular order. */
function topByScore(matches: DocSet, count: number): number[] {
  const length = matches.docs.length;
  if (count <= 0 || length === 0) return [];
  if (length <= count) return Array.from({ length }, (_, index) => index);
  const scores = matches.scores;
  // Min-heap of positions on (score, then higher doc is worse).
  const heap: number[] = [];
  const worse = (a: number, b: number) => scores[a] < scores[b] || (scores[a] === scores[b] && a > b);
  for (let position = 0; position < length; position += 1) {
    if (heap.length < count) {
      heap.push(position);
      let child = heap.length - 1;
      while (child > 0) {
        const parent = (child - 1) >> 1;
        if (!worse(heap[child], heap[parent])) break;
        [heap[child], heap[parent]] = [heap[parent], heap[child]];
        child = parent;
      }
    } else if (worse(heap[0], position)) {
      heap[0] = position;
      let parent = 0;
      for (;;) {
        const left = parent * 2 + 1;
        const right = left + 1;
        let smallest = parent;
        if (left < heap.length && worse(heap[left], heap[smallest])) smallest = left;
        if (right < heap.length && worse(heap[right], heap[smallest])) smallest = right;
        if (smallest === parent) break;
        [heap[parent], heap[smallest]] = [heap[smallest], heap[parent]];
        parent = smallest;
      }
    }
  }
  return heap;
}

export function executeMatches(view: IndexView, query: Query, scoring: boolean, hitFields?: Map<number, Record<string, unknown[]>>): DocSet {
  const context: ExecContext = {
    segments: view.segments,
    level: '',
    scoring,
    now: Date.now(),
    lookupIds: (ids) => ids.map((id) => view.index.byId.get(id)).filter((doc): doc is number => doc !== undefined),
    percolators: (field) => view.percolators.get(field),
    hitFields,
  };
  return query.execute(context);
}

/** Compiles a request query for one index; shard-level failures become search_phase_execution_exception. */
export function compileForView(view: IndexView, query: unknown, aliasFilter?: unknown): Query {
  try {
    const compiled = query === undefined ? new MatchAllQuery() : compileQuery(query, view.index.compileContext(false));
    if (aliasFilter === undefined) return compiled;
    const filter = compileQuery(aliasFilter, view.index.compileContext(false));
    return { execute: (context) => intersect(compiled.execute(context), filter.execute({ ...context, scoring: false }), false), requiredTerms: () => null };
  } catch (error) {
    if (error instanceof QueryShardError) throw searchPhaseFailure(error, view.index.name, view.index.uuid);
    throw error;
  }
}

export function liveDocs(view: IndexView, set: DocSet): DocSet {
  let count = 0;
  const docs = new Int32Array(set.docs.length);
  const scores = new Float64Array(set.docs.length);
  for (let index = 0; index < set.docs.length; index += 1) {
    const doc = set.docs[index];
    if (doc >= view.maxDoc || view.live[doc] !== 1) continue;
    docs[count] = doc;
    scores[count] = set.scores[index];
    count += 1;
  }
  return { docs: docs.subarray(0, count), scores: scores.subarray(0, count) };
}

export function runSearch(views: IndexView[], request: SearchRequest): Record<string, unknown> {
  const started = Date.now();
  let keys = parseSort(request.sort);
  const pit = request.pitId !== undefined;
  if (pit && keys.length === 0) keys = [{ field: '_score', order: 'desc', missing: 'last' }];
  const sortsByScore = keys.length === 0 || keys.some((key) => key.field === '_score');
  const scoring = sortsByScore || request.trackScores || request.minScore !== undefined;
  const addShardDoc = pit && !keys.some((key) => key.field === '_shard_doc');
  const outputKeys = addShardDoc ? [...keys, { field: '_shard_doc', order: 'asc' as const, missing: 'last' }] : keys;
  if (request.searchAfter !== undefined) {
    if (keys.length === 0) throw new EsError(400, 'illegal_argument_exception', 'Sort must contain at least one field.');
    if (request.from > 0) throw new EsError(400, 'illegal_argument_exception', '[from] parameter must be set to 0 when [search_after] is used');
    if (request.searchAfter.length !== keys.length && request.searchAfter.length !== outputKeys.length) {
      throw new EsError(400, 'illegal_argument_exception', `search_after has ${request.searchAfter.length} value(s) but sort has ${outputKeys.length}.`);
    }
  }
  if (request.from + request.size > 10_000) {
    const failure = new QueryShardError(
      `Result window is too large, from + size must be less than or equal to: [10000] but was [${request.from + request.size}]. See the scroll api for a more efficient way to request large data sets. This limit can be set by changing the [index.max_result_window] index level setting.`,
      undefined,
      'illegal_argument_exception',
    );
    const first = views[0];
    throw searchPhaseFailure(failure, first?.index.name ?? '_na_', first?.index.uuid ?? '_na_');
  }
  const compare = (left: Candidate, right: Candidate) =>
    keys.length === 0 ? right.score - left.score || left.viewIndex - right.viewIndex || left.doc - right.doc : compareCandidates(outputKeys, left, right);
  const top = new TopCandidates(request.from + request.size, compare);
  // search_after only chooses which hits are returned; the total still counts every match.
  let total = 0;
  let maxScore = Number.NEGATIVE_INFINITY;
  const afterKeys = request.searchAfter !== undefined ? (request.searchAfter.length === outputKeys.length ? outputKeys : keys) : [];
  views.forEach((view, viewIndex) => {
    const query = compileForView(view, request.query, request.aliasFilters?.[viewIndex]);
    const hitFields = new Map<number, Record<string, unknown[]>>();
    let matches = liveDocs(view, executeMatches(view, query, scoring, hitFields));
    if (request.postFilter !== undefined) matches = intersect(matches, executeMatches(view, compileForView(view, request.postFilter), false), false);
    const after = request.searchAfter?.map((value, index) => normalizeAfter(view, afterKeys[index], value));
    if (keys.length === 0 && request.minScore === undefined) {
      // Relevance order without search_after: keep only the best from+size, no per-match objects.
      total += matches.docs.length;
      for (const position of topByScore(matches, request.from + request.size)) {
        const doc = matches.docs[position];
        const score = Math.fround(matches.scores[position]);
        if (score > maxScore) maxScore = score;
        top.offer({ viewIndex, doc, score, values: [], hitFields: hitFields.get(doc) });
      }
      return;
    }
    // Score-first sorts: a doc scoring below the from+size-th best score can never reach the page.
    let threshold = Number.NEGATIVE_INFINITY;
    if (keys[0]?.field === '_score' && keys[0].order === 'desc' && !after && request.minScore === undefined) {
      const best = topByScore(matches, request.from + request.size);
      if (best.length === request.from + request.size) threshold = Math.min(...best.map((position) => Math.fround(matches.scores[position])));
    }
    try {
      const accessors = outputKeys.map((key) => sortAccessor(view, key, viewIndex));
      for (let index = 0; index < matches.docs.length; index += 1) {
        const doc = matches.docs[index];
        const score = Math.fround(matches.scores[index]);
        if (request.minScore !== undefined && score < request.minScore) continue;
        total += 1;
        if (score < threshold) continue;
        if (score > maxScore) maxScore = score;
        const values = accessors.map((accessor) => accessor(doc, score));
        if (after) {
          let comparison = 0;
          for (let position = 0; position < after.length && comparison === 0; position += 1) comparison = compareKey(afterKeys[position], values[position], after[position]);
          if (comparison <= 0) continue;
        }
        top.offer({ viewIndex, doc, score, values, hitFields: hitFields.get(doc) });
      }
    } catch (error) {
      if (error instanceof QueryShardError) throw searchPhaseFailure(error, view.index.name, view.index.uuid);
      throw error;
    }
  });
  const page = top.sorted().slice(request.from);
  const showScores = sortsByScore || request.trackScores;
  const hits = page.map((candidate) => {
    const view = views[candidate.viewIndex];
    const stored = view.docs[candidate.doc];
    const hit: Record<string, unknown> = { _index: view.index.name, _id: stored.id };
    if (request.version) hit._version = stored.version;
    if (request.seqNoPrimaryTerm) {
      hit._seq_no = stored.seqNo;
      hit._primary_term = stored.primaryTerm;
    }
    hit._score = showScores ? float32(candidate.score) : null;
    const source = applySourceFilter(stored.source, request.source);
    if (source !== undefined) hit._source = source;
    if (candidate.hitFields) hit.fields = candidate.hitFields;
    if (outputKeys.length > 0) hit.sort = candidate.values;
    return hit;
  });
  const hitsBody: Record<string, unknown> = {};
  if (request.trackTotalHits !== false) {
    const cap = request.trackTotalHits === true ? Number.POSITIVE_INFINITY : request.trackTotalHits;
    hitsBody.total = total > cap ? { value: cap, relation: 'gte' } : { value: total, relation: 'eq' };
  }
  hitsBody.max_score = showScores && total > 0 ? float32(maxScore) : null;
  hitsBody.hits = hits;
  const body: Record<string, unknown> = {};
  if (request.pitId !== undefined) body.pit_id = request.pitId;
  Object.assign(body, {
    took: Date.now() - started,
    timed_out: false,
    _shards: { total: views.length, successful: views.length, skipped: 0, failed: 0 },
    hits: hitsBody,
  });
  return body;
}
