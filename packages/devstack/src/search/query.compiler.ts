// Query DSL → executable queries, with Elasticsearch's parse errors (`parsing_exception`, 400) and
// shard-level failures (`query_shard_exception`, e.g. an unmapped field in a percolator query).
import { EsError, QueryShardError, parsingError } from './es-error';
import { type FieldInfo, type Mapping, isIntegerType, isNumericType } from './field-mapping';
import { parseDateMath, parseDuration } from './date-format';
import {
  BoolQuery,
  BoostQuery,
  BoostingQuery,
  ConstantScoreQuery,
  DisMaxQuery,
  ExistsQuery,
  FuzzyQuery,
  IdsQuery,
  MatchAllQuery,
  MatchNoneQuery,
  MultiTermQuery,
  type NestedScoreMode,
  NestedQuery,
  PhraseQuery,
  type Query,
  RangeQuery,
  TermQuery,
  TermSetQuery,
  autoFuzziness,
} from './query.model';
import { type BoostMode, type DecayKind, FunctionScoreQuery, type ScoreFunction, type ScoreMode, decayFunction, fieldValueFactor } from './function-score.query';
import { parseQueryString, parseSimpleQueryString, type QueryStringOptions } from './query-string.parser';

export interface CompileContext {
  readonly mapping: Mapping;
  /** Percolator registration: an unmapped field fails instead of matching nothing. */
  readonly strict: boolean;
  readonly now: number;
  readonly percolate?: (body: Record<string, unknown>) => Query;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function boostOf(body: Json): number {
  return typeof body.boost === 'number' ? body.boost : body.boost !== undefined ? Number(body.boost) : 1;
}

export function resolveField(context: CompileContext, name: string): FieldInfo | undefined {
  const field = context.mapping.fields.get(name);
  if (!field && context.strict) throw new QueryShardError(`No field mapping can be found for the field with name [${name}]`);
  return field;
}

/** Parses `minimum_should_match` (`2`, `-1`, `75%`, `-25%`, `3<90%`) against the optional clause count. */
export function minimumShouldMatch(spec: unknown, optional: number): number {
  if (spec === undefined || spec === null) return 0;
  const text = String(spec).trim();
  const conditional = /^(\d+)<(.+)$/.exec(text);
  if (conditional) return optional <= Number(conditional[1]) ? optional : minimumShouldMatch(conditional[2], optional);
  let result: number;
  if (text.endsWith('%')) {
    const percent = Number(text.slice(0, -1));
    const calc = Math.trunc((Math.abs(percent) * optional) / 100);
    result = percent < 0 ? optional - calc : calc;
  } else {
    const value = Number(text);
    if (!Number.isFinite(value)) throw parsingError(`[bool] failed to parse minimum_should_match [${text}]`);
    result = value < 0 ? optional + value : value;
  }
  return Math.max(0, Math.min(optional, result));
}

/** The term a query value becomes for a field (keyword/boolean as strings, numbers and dates canonical). */
export function termFor(field: FieldInfo, value: unknown, lenient = false): string | undefined {
  if (isNumericType(field.type)) {
    const number = typeof value === 'number' ? value : Number(String(value).trim());
    if (!Number.isFinite(number) || String(value).trim() === '') {
      if (lenient) return undefined;
      throw new QueryShardError(`failed to create query: For input string: "${String(value)}"`, { type: 'number_format_exception', reason: `For input string: "${String(value)}"` });
    }
    if (isIntegerType(field.type) && !Number.isInteger(number)) return undefined;
    if (field.type === 'scaled_float') return String(Math.round(number * field.scalingFactor) / field.scalingFactor);
    if (field.type === 'float' || field.type === 'half_float') return String(Math.fround(number));
    return String(number);
  }
  if (field.type === 'date') {
    const millis = parseDateMath(value, false);
    if (millis === undefined) {
      if (lenient) return undefined;
      throw new QueryShardError(`failed to parse date field [${String(value)}] with format [strict_date_optional_time||epoch_millis]`, { type: 'illegal_argument_exception', reason: `failed to parse date field [${String(value)}]` });
    }
    return String(millis);
  }
  if (field.type === 'boolean') {
    if (value === true || value === 'true') return 'true';
    if (value === false || value === 'false' || value === '') return 'false';
    if (lenient) return undefined;
    throw new QueryShardError(`Can't parse boolean value [${String(value)}], expected [true] or [false]`);
  }
  return typeof value === 'string' ? value : String(value);
}

/** `term` semantics on one field. */
export function termQuery(field: FieldInfo, value: unknown, boost: number, lenient = false, caseInsensitive = false): Query {
  // A date term covers every instant its text denotes (`2020-01-01` is the whole day), as in Elasticsearch.
  if (field.type === 'date' && typeof value === 'string' && !/^-?\d+$/.test(value.trim())) return rangeQuery(field, { gte: value, lte: value }, boost, lenient);
  const term = termFor(field, value, lenient);
  if (term === undefined) return new MatchNoneQuery();
  if (caseInsensitive) {
    const lowered = term.toLowerCase();
    return new MultiTermQuery(field, (candidate) => candidate.toLowerCase() === lowered, boost);
  }
  return new TermQuery(field, term, boost);
}

export interface MatchOptions {
  operator?: 'or' | 'and';
  minimumShouldMatch?: unknown;
  fuzziness?: unknown;
  prefixLength?: number;
  maxExpansions?: number;
  lenient?: boolean;
  analyzer?: string;
  zeroTermsAll?: boolean;
}

/** `match` semantics on one field: analysed text becomes a boolean of terms. */
export function matchQuery(context: CompileContext, field: FieldInfo, value: unknown, boost: number, options: MatchOptions = {}): Query {
  if (field.type !== 'text' && field.type !== 'match_only_text') {
    if (options.fuzziness !== undefined && field.type === 'keyword') {
      const term = String(value);
      const edits = autoFuzziness(options.fuzziness, term);
      if (edits > 0) return new FuzzyQuery(field, term, edits, boost, options.prefixLength ?? 0, options.maxExpansions ?? 50);
    }
    return termQuery(field, value, boost, options.lenient);
  }
  const analyzer = options.analyzer ? context.mapping.analyzers.get(options.analyzer) : field.searchAnalyzer;
  const tokens = analyzer.analyze(String(value));
  if (tokens.length === 0) return options.zeroTermsAll ? new MatchAllQuery() : new MatchNoneQuery();
  const clauses = tokens.map((token): Query => {
    const edits = autoFuzziness(options.fuzziness, token);
    return edits > 0 ? new FuzzyQuery(field, token, edits, 1, options.prefixLength ?? 0, options.maxExpansions ?? 50) : new TermQuery(field, token, 1);
  });
  if (clauses.length === 1) return boost === 1 ? clauses[0] : new BoostQuery(clauses[0], boost);
  if (options.operator === 'and') return new BoolQuery(clauses, [], [], [], 0, boost);
  const minimum = options.minimumShouldMatch === undefined ? 1 : Math.max(1, minimumShouldMatch(options.minimumShouldMatch, clauses.length));
  return new BoolQuery([], clauses, [], [], minimum, boost);
}

/** `match_phrase` semantics on one field. */
export function phraseQuery(context: CompileContext, field: FieldInfo, value: unknown, boost: number, slop = 0, analyzerName?: string, lastIsPrefix = false): Query {
  if (field.type !== 'text' && field.type !== 'match_only_text') return termQuery(field, value, boost, true);
  const analyzer = analyzerName ? context.mapping.analyzers.get(analyzerName) : field.searchAnalyzer;
  const tokens = analyzer.analyze(String(value));
  if (tokens.length === 0) return new MatchNoneQuery();
  if (tokens.length === 1 && !lastIsPrefix) return new TermQuery(field, tokens[0], boost);
  return new PhraseQuery(field, tokens, slop, boost, lastIsPrefix);
}

function wildcardToRegExp(pattern: string): RegExp {
  let source = '';
  for (let index = 0; index < pattern.length; index += 1) {
    const char = pattern[index];
    if (char === '\\' && index + 1 < pattern.length) {
      index += 1;
      source += pattern[index].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    } else if (char === '*') source += '[\\s\\S]*';
    else if (char === '?') source += '[\\s\\S]';
    else source += char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u');
}

function normalizeMultiTerm(field: FieldInfo, value: string, caseInsensitive: boolean): string {
  if (field.type === 'text' || field.type === 'match_only_text') return field.searchAnalyzer.normalize(value);
  return caseInsensitive ? value.toLowerCase() : value;
}

export function wildcardQuery(field: FieldInfo, pattern: string, boost: number, caseInsensitive = false): Query {
  const normalized = normalizeMultiTerm(field, pattern, caseInsensitive);
  const regex = wildcardToRegExp(normalized);
  return new MultiTermQuery(field, caseInsensitive ? (term) => regex.test(term.toLowerCase()) : (term) => regex.test(term), boost);
}

export function prefixQuery(field: FieldInfo, prefix: string, boost: number, caseInsensitive = false): Query {
  const normalized = normalizeMultiTerm(field, prefix, caseInsensitive);
  return new MultiTermQuery(field, caseInsensitive ? (term) => term.toLowerCase().startsWith(normalized) : (term) => term.startsWith(normalized), boost);
}

/** `range` on one field; dates accept date math, `gt`/`lte` round missing components up. */
export function rangeQuery(field: FieldInfo, bounds: { gt?: unknown; gte?: unknown; lt?: unknown; lte?: unknown }, boost: number, lenient = false): Query {
  const convert = (value: unknown, roundUp: boolean): number | string | undefined | null => {
    if (value === undefined || value === null) return undefined;
    if (field.type === 'date') {
      const millis = parseDateMath(value, roundUp);
      if (millis === undefined) {
        if (lenient) return null;
        throw new QueryShardError(`failed to parse date field [${String(value)}] with format [strict_date_optional_time||epoch_millis]`, { type: 'illegal_argument_exception', reason: `failed to parse date field [${String(value)}]` });
      }
      return millis;
    }
    if (isNumericType(field.type)) {
      const number = typeof value === 'number' ? value : Number(value);
      if (!Number.isFinite(number)) {
        if (lenient) return null;
        throw new QueryShardError(`failed to create query: For input string: "${String(value)}"`, { type: 'number_format_exception', reason: `For input string: "${String(value)}"` });
      }
      return number;
    }
    return String(value);
  };
  const lower = bounds.gte !== undefined && bounds.gte !== null ? convert(bounds.gte, false) : convert(bounds.gt, true);
  const upper = bounds.lte !== undefined && bounds.lte !== null ? convert(bounds.lte, true) : convert(bounds.lt, false);
  if (lower === null || upper === null) return new MatchNoneQuery();
  return new RangeQuery(
    field,
    {
      lower,
      upper,
      includeLower: bounds.gte !== undefined && bounds.gte !== null,
      includeUpper: bounds.lte !== undefined && bounds.lte !== null,
    },
    boost,
  );
}

/** Fields (leaf fields under an object path included) for `exists`. */
export function existsFields(context: CompileContext, name: string): FieldInfo[] {
  const direct = context.mapping.fields.get(name);
  if (direct) return [direct];
  const prefix = `${name}.`;
  const nested = [...context.mapping.fields.values()].filter((field) => field.path.startsWith(prefix));
  if (nested.length === 0 && context.strict && !context.mapping.objects.has(name)) {
    throw new QueryShardError(`No field mapping can be found for the field with name [${name}]`);
  }
  return nested;
}

/** Expands `fields` entries (`title^2`, `auth*`) to mapped fields with boosts. */
export function expandFields(context: CompileContext, specs: string[]): Array<{ field: FieldInfo; boost: number }> {
  const result: Array<{ field: FieldInfo; boost: number }> = [];
  for (const spec of specs) {
    const [name, boostText] = spec.split('^');
    const boost = boostText !== undefined ? Number(boostText) : 1;
    if (name.includes('*')) {
      const regex = wildcardToRegExp(name);
      for (const field of context.mapping.fields.values()) {
        if (regex.test(field.path) && field.type !== 'percolator' && field.type !== 'flattened') result.push({ field, boost });
      }
      continue;
    }
    const field = resolveField(context, name);
    if (field) result.push({ field, boost });
  }
  return result;
}

function singleField(queryName: string, body: unknown): [string, unknown] {
  if (!isObject(body)) throw parsingError(`[${queryName}] query malformed, no start_object after query name`);
  const entries = Object.entries(body).filter(([key]) => key !== 'boost' && key !== '_name');
  if (entries.length === 0) throw parsingError(`[${queryName}] query doesn't support empty field`);
  if (entries.length > 1) throw parsingError(`[${queryName}] query doesn't support multiple fields, found [${entries[0][0]}] and [${entries[1][0]}]`);
  return entries[0];
}

function clauses(name: string, value: unknown, context: CompileContext): Query[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  return list.map((item) => {
    if (!isObject(item)) throw parsingError(`[bool] failed to parse field [${name}]`);
    return compileQuery(item, context);
  });
}

const BOOL_KEYS = new Set(['must', 'should', 'filter', 'must_not', 'minimum_should_match', 'boost', '_name', 'adjust_pure_negative']);

/** Compiles one query object (`{"match": {...}}`). */
export function compileQuery(query: unknown, context: CompileContext): Query {
  if (!isObject(query)) throw parsingError('[_na] query malformed, must start with start_object');
  const keys = Object.keys(query);
  if (keys.length === 0) throw parsingError('query malformed, empty clause found at [1:2]');
  if (keys.length > 1) throw parsingError(`[${keys[0]}] malformed query, expected [END_OBJECT] but found [FIELD_NAME]`);
  const type = keys[0];
  const body = query[type];
  switch (type) {
    case 'match_all':
      return new MatchAllQuery(isObject(body) ? boostOf(body) : 1);
    case 'match_none':
      return new MatchNoneQuery();
    case 'term': {
      const [name, spec] = singleField('term', body);
      const options = isObject(spec) ? spec : { value: spec };
      if (isObject(spec) && !('value' in spec)) throw parsingError('[term] query does not support [' + Object.keys(spec)[0] + ']');
      if (name === '_id') return new IdsQuery([String(options.value)], boostOf(options));
      const field = resolveField(context, name);
      if (!field) return new MatchNoneQuery();
      return termQuery(field, options.value, boostOf(options), false, options.case_insensitive === true);
    }
    case 'terms': {
      if (!isObject(body)) throw parsingError('[terms] query malformed, no start_object after query name');
      const entries = Object.entries(body).filter(([key]) => key !== 'boost' && key !== '_name');
      if (entries.length !== 1) throw parsingError(`[terms] query does not support multiple fields`);
      const [name, values] = entries[0];
      if (!Array.isArray(values)) throw parsingError(`[terms] query does not support [${name}]`);
      if (name === '_id') return new IdsQuery(values.map(String), boostOf(body));
      const field = resolveField(context, name);
      if (!field) return new MatchNoneQuery();
      const terms = values.map((value) => termFor(field, value, true)).filter((term): term is string => term !== undefined);
      return new TermSetQuery(field, terms, boostOf(body));
    }
    case 'ids': {
      if (!isObject(body) || !Array.isArray(body.values)) throw parsingError('[ids] query malformed, no values');
      return new IdsQuery(body.values.map(String), boostOf(body));
    }
    case 'match':
    case 'match_bool_prefix': {
      const [name, spec] = singleField(type, body);
      const options = isObject(spec) ? spec : { query: spec };
      if (isObject(spec) && !('query' in spec)) throw parsingError(`[match] query does not support [${Object.keys(spec)[0]}]`);
      const field = resolveField(context, name);
      if (!field) return new MatchNoneQuery();
      return matchQuery(context, field, options.query, boostOf(options), {
        operator: String(options.operator ?? 'or').toLowerCase() === 'and' ? 'and' : 'or',
        minimumShouldMatch: options.minimum_should_match,
        fuzziness: options.fuzziness,
        prefixLength: options.prefix_length as number | undefined,
        maxExpansions: options.max_expansions as number | undefined,
        lenient: options.lenient === true,
        analyzer: options.analyzer as string | undefined,
        zeroTermsAll: options.zero_terms_query === 'all',
      });
    }
    case 'match_phrase':
    case 'match_phrase_prefix': {
      const [name, spec] = singleField(type, body);
      const options = isObject(spec) ? spec : { query: spec };
      const field = resolveField(context, name);
      if (!field) return new MatchNoneQuery();
      return phraseQuery(context, field, options.query, boostOf(options), Number(options.slop ?? 0), options.analyzer as string | undefined, type === 'match_phrase_prefix');
    }
    case 'multi_match':
      return compileMultiMatch(body, context);
    case 'range': {
      const [name, spec] = singleField('range', body);
      if (!isObject(spec)) throw parsingError(`[range] query malformed, no start_object after query name`);
      const field = resolveField(context, name);
      if (!field) return new MatchNoneQuery();
      const bounds = { gt: spec.gt, gte: spec.gte, lt: spec.lt, lte: spec.lte };
      if (spec.from !== undefined) {
        if (spec.include_lower === false) bounds.gt = spec.from;
        else bounds.gte = spec.from;
      }
      if (spec.to !== undefined) {
        if (spec.include_upper === false) bounds.lt = spec.to;
        else bounds.lte = spec.to;
      }
      return rangeQuery(field, bounds, boostOf(spec));
    }
    case 'exists': {
      if (!isObject(body) || typeof body.field !== 'string') throw parsingError('[exists] must be provided with a [field]');
      const fields = existsFields(context, body.field);
      return fields.length ? new ExistsQuery(fields, boostOf(body)) : new MatchNoneQuery();
    }
    case 'prefix':
    case 'wildcard': {
      const [name, spec] = singleField(type, body);
      const options = isObject(spec) ? spec : { value: spec };
      const value = String(options.value ?? options.wildcard ?? options.prefix ?? '');
      const field = resolveField(context, name);
      if (!field) return new MatchNoneQuery();
      const insensitive = options.case_insensitive === true;
      return type === 'prefix' ? prefixQuery(field, value, boostOf(options), insensitive) : wildcardQuery(field, value, boostOf(options), insensitive);
    }
    case 'fuzzy': {
      const [name, spec] = singleField('fuzzy', body);
      const options = isObject(spec) ? spec : { value: spec };
      const field = resolveField(context, name);
      if (!field) return new MatchNoneQuery();
      const value = normalizeMultiTerm(field, String(options.value), false);
      return new FuzzyQuery(field, value, autoFuzziness(options.fuzziness ?? 'AUTO', value), boostOf(options), Number(options.prefix_length ?? 0), Number(options.max_expansions ?? 50));
    }
    case 'bool': {
      if (!isObject(body)) throw parsingError('[bool] query malformed, no start_object after query name');
      for (const key of Object.keys(body)) if (!BOOL_KEYS.has(key)) throw parsingError(`[bool] query does not support [${key}]`);
      const must = clauses('must', body.must, context);
      const should = clauses('should', body.should, context);
      const filter = clauses('filter', body.filter, context);
      const mustNot = clauses('must_not', body.must_not, context);
      const minimum = body.minimum_should_match !== undefined ? minimumShouldMatch(body.minimum_should_match, should.length) : 0;
      return new BoolQuery(must, should, filter, mustNot, minimum, boostOf(body));
    }
    case 'dis_max': {
      if (!isObject(body) || !Array.isArray(body.queries)) throw parsingError('[dis_max] requires \'queries\' field with at least one clause');
      return new DisMaxQuery(body.queries.map((item) => compileQuery(item, context)), Number(body.tie_breaker ?? 0), boostOf(body));
    }
    case 'constant_score': {
      if (!isObject(body) || !isObject(body.filter)) throw parsingError('[constant_score] requires a \'filter\' element');
      return new ConstantScoreQuery(compileQuery(body.filter, context), boostOf(body));
    }
    case 'nested':
      return compileNested(body, context);
    case 'function_score':
      return compileFunctionScore(body, context);
    case 'query_string':
    case 'simple_query_string': {
      if (!isObject(body) || typeof body.query !== 'string') throw parsingError(`[${type}] must be provided with a [query]`);
      const options: QueryStringOptions = {
        fields: Array.isArray(body.fields) ? body.fields.map(String) : typeof body.default_field === 'string' ? [body.default_field] : ['*'],
        defaultOperator: String(body.default_operator ?? 'or').toLowerCase() === 'and' ? 'and' : 'or',
        lenient: body.lenient === true,
        fuzziness: body.fuzziness ?? 'AUTO',
        tieBreaker: Number(body.tie_breaker ?? 0),
        minimumShouldMatch: body.minimum_should_match,
        analyzeWildcard: body.analyze_wildcard === true,
        boost: boostOf(body),
        phraseSlop: Number(body.phrase_slop ?? 0),
      };
      return type === 'query_string' ? parseQueryString(body.query, options, context) : parseSimpleQueryString(body.query, options, context);
    }
    case 'percolate': {
      if (!isObject(body)) throw parsingError('[percolate] query malformed');
      if (!context.percolate) throw new QueryShardError('percolate query is not supported here');
      return context.percolate(body);
    }
    case 'boosting': {
      if (!isObject(body) || !isObject(body.positive) || !isObject(body.negative)) throw parsingError('[boosting] query requires \'positive\' and \'negative\' query');
      if (typeof body.negative_boost !== 'number') throw parsingError('[boosting] query requires \'negative_boost\' to be set to be a positive value\'');
      return new BoostingQuery(compileQuery(body.positive, context), compileQuery(body.negative, context), body.negative_boost, boostOf(body));
    }
    default:
      throw new EsError(400, 'parsing_exception', `unknown query [${type}]`, {}, { type: 'named_object_not_found_exception', reason: `[1:${type.length + 12}] unknown field [${type}]` });
  }
}

function compileMultiMatch(body: unknown, context: CompileContext): Query {
  if (!isObject(body) || body.query === undefined) throw parsingError('[multi_match] requires query value');
  const specs = Array.isArray(body.fields) ? body.fields.map(String) : typeof body.fields === 'string' ? [body.fields] : ['*'];
  const fields = expandFields(context, specs);
  const type = String(body.type ?? 'best_fields');
  const lenient = body.lenient === true || specs.some((spec) => spec.includes('*'));
  const options: MatchOptions = {
    operator: String(body.operator ?? 'or').toLowerCase() === 'and' ? 'and' : 'or',
    minimumShouldMatch: body.minimum_should_match,
    fuzziness: body.fuzziness,
    lenient,
    analyzer: body.analyzer as string | undefined,
  };
  const perField = fields
    .filter(({ field }) => !lenient || field.type === 'text' || field.type === 'keyword' || termFor(field, body.query, true) !== undefined)
    .map(({ field, boost }) =>
      type === 'phrase' || type === 'phrase_prefix'
        ? phraseQuery(context, field, body.query, boost, Number(body.slop ?? 0), undefined, type === 'phrase_prefix')
        : matchQuery(context, field, body.query, boost, options),
    );
  if (perField.length === 0) return new MatchNoneQuery();
  const boost = boostOf(body);
  if (type === 'most_fields' || type === 'bool_prefix') return new BoolQuery([], perField, [], [], 1, boost);
  const tieBreaker = body.tie_breaker !== undefined ? Number(body.tie_breaker) : type === 'cross_fields' ? 0 : 0;
  return new DisMaxQuery(perField, tieBreaker, boost);
}

function compileNested(body: unknown, context: CompileContext): Query {
  if (!isObject(body) || typeof body.path !== 'string') throw parsingError('[nested] requires \'path\' field');
  if (!isObject(body.query)) throw parsingError('[nested] requires \'query\' field');
  const path = body.path;
  const object = context.mapping.objects.get(path);
  if (!object) {
    if (body.ignore_unmapped === true) return new MatchNoneQuery();
    throw new QueryShardError(`[nested] failed to find nested object under path [${path}]`);
  }
  if (!object.nested) throw new QueryShardError(`[nested] nested object under path [${path}] is not of nested type`);
  const scoreMode = String(body.score_mode ?? 'avg') as NestedScoreMode;
  if (!['avg', 'max', 'min', 'sum', 'none'].includes(scoreMode)) throw new EsError(400, 'illegal_argument_exception', `No enum constant org.apache.lucene.search.join.ScoreMode.${scoreMode}`);
  return new NestedQuery(path, compileQuery(body.query, context), scoreMode, boostOf(body));
}

const FUNCTION_KEYS = ['field_value_factor', 'gauss', 'exp', 'linear', 'weight', 'random_score', 'script_score'];

function compileFunction(spec: Json, context: CompileContext): ScoreFunction {
  const fn: ScoreFunction = {};
  if (spec.filter !== undefined) fn.filter = compileQuery(spec.filter, context);
  if (spec.weight !== undefined) fn.weight = Number(spec.weight);
  if (isObject(spec.field_value_factor)) {
    const fvf = spec.field_value_factor;
    const name = String(fvf.field);
    const field = context.mapping.fields.get(name);
    fn.evaluate = fieldValueFactor(field, name, Number(fvf.factor ?? 1), String(fvf.modifier ?? 'none'), fvf.missing === undefined ? undefined : Number(fvf.missing));
  }
  for (const kind of ['gauss', 'exp', 'linear'] as DecayKind[]) {
    const decay = spec[kind];
    if (!isObject(decay)) continue;
    const multiValueMode = String(decay.multi_value_mode ?? 'min');
    const entry = Object.entries(decay).find(([key]) => key !== 'multi_value_mode');
    if (!entry || !isObject(entry[1])) throw parsingError(`[${kind}] malformed score function`);
    const [name, params] = entry;
    const field = context.mapping.fields.get(name);
    if (!field) {
      fn.evaluate = () => 1;
      continue;
    }
    const isDate = field.type === 'date';
    const origin = isDate ? (params.origin === undefined ? context.now : parseDateMath(params.origin, false, context.now)) : Number(params.origin);
    const scale = isDate ? parseDuration(params.scale) : Number(params.scale);
    const offset = params.offset === undefined ? 0 : isDate ? parseDuration(params.offset) : Number(params.offset);
    if (origin === undefined || !Number.isFinite(origin) || scale === undefined || !(scale > 0) || offset === undefined) {
      throw parsingError(`[${kind}] failed to parse decay function: [origin], [scale] must be set for numeric fields`);
    }
    const decayValue = Number(params.decay ?? 0.5);
    fn.evaluate = decayFunction(kind, field, origin, scale, offset, decayValue, multiValueMode);
  }
  if (spec.random_score !== undefined) fn.evaluate = () => 0.5;
  if (spec.script_score !== undefined) throw parsingError('[script_score] scripts are not supported by this stand-in');
  return fn;
}

function compileFunctionScore(body: unknown, context: CompileContext): Query {
  if (!isObject(body)) throw parsingError('[function_score] malformed query');
  const inner = body.query === undefined ? new MatchAllQuery() : compileQuery(body.query, context);
  const functions: ScoreFunction[] = [];
  if (Array.isArray(body.functions)) {
    for (const spec of body.functions) {
      if (!isObject(spec)) throw parsingError('[function_score] malformed query, expected a [START_OBJECT] while parsing functions');
      functions.push(compileFunction(spec, context));
    }
  }
  if (FUNCTION_KEYS.some((key) => body[key] !== undefined)) {
    if (Array.isArray(body.functions)) throw parsingError('failed to parse [function_score] query. already found [functions] array, now encountering a function');
    functions.push(compileFunction(body, context));
  }
  const scoreMode = String(body.score_mode ?? 'multiply') as ScoreMode;
  const boostMode = String(body.boost_mode ?? 'multiply') as BoostMode;
  if (!['multiply', 'sum', 'avg', 'first', 'max', 'min'].includes(scoreMode)) throw parsingError(`failed to parse [function_score] query. illegal score_mode [${scoreMode}]`);
  if (!['multiply', 'replace', 'sum', 'avg', 'max', 'min'].includes(boostMode)) throw parsingError(`failed to parse [function_score] query. illegal boost_mode [${boostMode}]`);
  return new FunctionScoreQuery(
    inner,
    functions,
    scoreMode,
    boostMode,
    body.max_boost === undefined ? Number.MAX_VALUE : Number(body.max_boost),
    body.min_score === undefined ? undefined : Number(body.min_score),
    boostOf(body),
  );
}
