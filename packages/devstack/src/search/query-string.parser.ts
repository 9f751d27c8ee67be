// Lucene classic query syntax (`query_string`) and Lucene's simple syntax (`simple_query_string`),
// turned into executable queries with Elasticsearch's semantics: default operator OR, per-term
// dis_max across fields, pure negative queries matching everything else, `_exists_`, `field:>=x`.
import { QueryShardError } from './es-error';
import { type FieldInfo, isNumericType } from './field-mapping';
import {
  BoolQuery,
  BoostQuery,
  DisMaxQuery,
  ExistsQuery,
  FuzzyQuery,
  MatchAllQuery,
  MatchNoneQuery,
  MultiTermQuery,
  type Query,
  autoFuzziness,
} from './query.model';
import {
  type CompileContext,
  existsFields,
  expandFields,
  matchQuery,
  minimumShouldMatch,
  phraseQuery,
  prefixQuery,
  rangeQuery,
  termFor,
  wildcardQuery,
} from './query.compiler';

export interface QueryStringOptions {
  fields: string[];
  defaultOperator: 'and' | 'or';
  lenient: boolean;
  fuzziness: unknown;
  tieBreaker: number;
  minimumShouldMatch: unknown;
  analyzeWildcard: boolean;
  boost: number;
  /** Slop of quoted phrases that carry no `~N` of their own. */
  phraseSlop: number;
}

type TokenKind = 'TERM' | 'QUOTED' | 'AND' | 'OR' | 'NOT' | 'PLUS' | 'MINUS' | 'LPAREN' | 'RPAREN' | 'COLON' | 'CARAT' | 'FUZZY' | 'RANGE' | 'REGEX' | 'EOF';

interface Token {
  kind: TokenKind;
  text: string;
  /** For TERM: the term had unescaped `*` / `?`. */
  wildcard?: boolean;
  column: number;
  range?: { lower: string; upper: string; includeLower: boolean; includeUpper: boolean };
}

class SyntaxError extends Error {}

/**
 * Deepest nesting of groups (parentheses) a query string may have. Lucene's parsers recurse once
 * per group, so an absurdly deep string is beyond any of them; the stand-in answers a deeper one
 * as an unparseable string (a 400 parse failure) before its own parsing, compiling or scoring
 * could overflow the stack.
 */
export const MAX_QUERY_STRING_NESTING = 256;

function tooDeep(column: number): SyntaxError {
  return new SyntaxError(`too many nested groups: more than ${MAX_QUERY_STRING_NESTING} levels of parentheses at line 1, column ${column}.`);
}

const SPECIAL = new Set([' ', '\t', '\n', '\r', '\u3000', '+', '-', '!', '(', ')', ':', '^', '[', ']', '"', '{', '}', '~', '\\', '/']);

function lexical(query: string, column: number, after: string): SyntaxError {
  return new SyntaxError(`Lexical error at line 1, column ${column + 1}.  Encountered: <EOF> after : "${after.replace(/"/g, '\\"')}"`);
}

function tokenize(query: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < query.length) {
    const char = query[index];
    const start = index;
    if (/\s/.test(char) || char === '\u3000') {
      index += 1;
      continue;
    }
    if (char === '&' && query[index + 1] === '&') {
      tokens.push({ kind: 'AND', text: '&&', column: start });
      index += 2;
      continue;
    }
    if (char === '|' && query[index + 1] === '|') {
      tokens.push({ kind: 'OR', text: '||', column: start });
      index += 2;
      continue;
    }
    const single: Record<string, TokenKind> = { '+': 'PLUS', '-': 'MINUS', '!': 'NOT', '(': 'LPAREN', ')': 'RPAREN', ':': 'COLON' };
    if (single[char]) {
      tokens.push({ kind: single[char], text: char, column: start });
      index += 1;
      continue;
    }
    if (char === '^') {
      const match = /^\^(\d+(?:\.\d+)?)?/.exec(query.slice(index));
      const text = match?.[1] ?? '';
      tokens.push({ kind: 'CARAT', text, column: start });
      index += 1 + text.length;
      continue;
    }
    if (char === '~') {
      const match = /^~(\d+(?:\.\d+)?)?/.exec(query.slice(index));
      const text = match?.[1] ?? '';
      tokens.push({ kind: 'FUZZY', text, column: start });
      index += 1 + text.length;
      continue;
    }
    if (char === '"') {
      let text = '';
      index += 1;
      while (index < query.length && query[index] !== '"') {
        if (query[index] === '\\' && index + 1 < query.length) index += 1;
        text += query[index];
        index += 1;
      }
      if (index >= query.length) throw lexical(query, query.length, query.slice(start));
      index += 1;
      tokens.push({ kind: 'QUOTED', text, column: start });
      continue;
    }
    if (char === '/') {
      const end = query.indexOf('/', index + 1);
      if (end < 0) throw lexical(query, query.length, query.slice(start));
      tokens.push({ kind: 'REGEX', text: query.slice(index + 1, end), column: start });
      index = end + 1;
      continue;
    }
    if (char === '[' || char === '{') {
      const match = /^[[{]\s*("(?:[^"\\]|\\.)*"|[^\s\]}]+)\s+TO\s+("(?:[^"\\]|\\.)*"|[^\s\]}]+)\s*([\]}])/.exec(query.slice(index));
      if (!match) {
        const rest = query.slice(index);
        const closing = /[\]}]/.exec(rest);
        throw new SyntaxError(`Encountered "${closing ? closing[0] : '<EOF>'}" at line 1, column ${closing ? index + closing.index : query.length}.\nWas expecting one of:\n    "TO" ...\n    <RANGE_QUOTED> ...\n    <RANGE_GOOP> ...\n    `);
      }
      const unquote = (value: string) => (value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value);
      tokens.push({
        kind: 'RANGE',
        text: match[0],
        column: start,
        range: { lower: unquote(match[1]), upper: unquote(match[2]), includeLower: char === '[', includeUpper: match[3] === ']' },
      });
      index += match[0].length;
      continue;
    }
    if (char === ']' || char === '}') throw new SyntaxError(`Encountered " "${char}" "${char} "" at line 1, column ${start}.\nWas expecting one of:\n    <EOF> \n    <AND> ...\n    <OR> ...\n    <NOT> ...\n    "+" ...\n    "-" ...\n    <BAREOPER> ...\n    "(" ...\n    "*" ...\n    <QUOTED> ...\n    <TERM> ...\n    <PREFIXTERM> ...\n    <WILDTERM> ...\n    <REGEXPTERM> ...\n    "[" ...\n    "{" ...\n    <NUMBER> ...\n    `);
    let text = '';
    let wildcard = false;
    while (index < query.length) {
      const current = query[index];
      if (current === '\\') {
        if (index + 1 >= query.length) throw lexical(query, query.length, query.slice(start));
        text += `\\${query[index + 1]}`;
        index += 2;
        continue;
      }
      if (SPECIAL.has(current) && !(text.length > 0 && (current === '-' || current === '+'))) break;
      if (current === '&' && query[index + 1] === '&') break;
      if (current === '|' && query[index + 1] === '|') break;
      if (current === '*' || current === '?') wildcard = true;
      text += current;
      index += 1;
    }
    if (text === 'AND' || text === 'OR' || text === 'NOT') tokens.push({ kind: text, text, column: start });
    else tokens.push({ kind: 'TERM', text, wildcard, column: start });
  }
  tokens.push({ kind: 'EOF', text: '<EOF>', column: query.length });
  return tokens;
}

const EXPECTING_CLAUSE = '\nWas expecting one of:\n    <NOT> ...\n    "+" ...\n    "-" ...\n    <BAREOPER> ...\n    "(" ...\n    "*" ...\n    <QUOTED> ...\n    <TERM> ...\n    <PREFIXTERM> ...\n    <WILDTERM> ...\n    <REGEXPTERM> ...\n    "[" ...\n    "{" ...\n    <NUMBER> ...\n    ';

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
}

type Occur = 'must' | 'should' | 'must_not';

interface Clause {
  occur: Occur;
  query: Query;
}

function booleanOf(clauses: Clause[], minimum: number, boost = 1): Query {
  const must = clauses.filter((clause) => clause.occur === 'must').map((clause) => clause.query);
  const should = clauses.filter((clause) => clause.occur === 'should').map((clause) => clause.query);
  const mustNot = clauses.filter((clause) => clause.occur === 'must_not').map((clause) => clause.query);
  // Elasticsearch turns a purely negative boolean into "everything except".
  if (must.length === 0 && should.length === 0 && mustNot.length > 0) must.push(new MatchAllQuery());
  return new BoolQuery(must, should, [], mustNot, minimum, boost);
}

/** Builds per-field queries for one field spec (or the default fields) and combines them with dis_max. */
class FieldQueryBuilder {
  constructor(
    private readonly options: QueryStringOptions,
    private readonly context: CompileContext,
  ) {}

  private targets(field: string | undefined): Array<{ field: FieldInfo; boost: number }> {
    const specs = field === undefined ? this.options.fields : [field];
    if (field === undefined && specs.length === 1 && specs[0] === '*') {
      return [...this.context.mapping.fields.values()]
        .filter((info) => info.type !== 'percolator' && info.type !== 'flattened' && info.indexed)
        .map((info) => ({ field: info, boost: 1 }));
    }
    return expandFields(this.context, specs);
  }

  private lenientFor(field: string | undefined): boolean {
    return this.options.lenient || (field === undefined ? this.options.fields.some((spec) => spec.includes('*')) : field.includes('*'));
  }

  private combine(field: string | undefined, build: (info: FieldInfo, lenient: boolean) => Query | undefined): Query {
    const lenient = this.lenientFor(field);
    const queries: Query[] = [];
    for (const { field: info, boost } of this.targets(field)) {
      let query: Query | undefined;
      try {
        query = build(info, lenient);
      } catch (error) {
        if (lenient && error instanceof QueryShardError) continue;
        throw error;
      }
      if (!query) continue;
      queries.push(boost === 1 ? query : new BoostQuery(query, boost));
    }
    if (queries.length === 0) return new MatchNoneQuery();
    if (queries.length === 1) return queries[0];
    return new DisMaxQuery(queries, this.options.tieBreaker);
  }

  term(field: string | undefined, rawText: string, fuzzy: string | undefined): Query {
    const text = unescape(rawText);
    const comparison = /^(>=|<=|>|<)(.+)$/.exec(text);
    if (comparison) {
      const [, operator, value] = comparison;
      const bounds = operator === '>=' ? { gte: value } : operator === '>' ? { gt: value } : operator === '<=' ? { lte: value } : { lt: value };
      return this.combine(field, (info, lenient) => (info.type === 'text' ? undefined : rangeQuery(info, bounds, 1, lenient)));
    }
    if (fuzzy !== undefined) {
      return this.combine(field, (info) => {
        if (!(info.type === 'text' || info.type === 'keyword')) return undefined;
        const term = info.type === 'text' ? info.searchAnalyzer.normalize(text) : text;
        const edits = fuzzy === '' ? autoFuzziness(this.options.fuzziness, term) : Math.min(2, Math.floor(Number(fuzzy)));
        return new FuzzyQuery(info, term, edits);
      });
    }
    const operator = this.options.defaultOperator;
    return this.combine(field, (info, lenient) => matchQuery(this.context, info, text, 1, { operator, lenient }));
  }

  phrase(field: string | undefined, text: string, slop: number): Query {
    return this.combine(field, (info, lenient) => {
      if (lenient && isNumericType(info.type) && termFor(info, text, true) === undefined) return undefined;
      return phraseQuery(this.context, info, text, 1, slop);
    });
  }

  wildcard(field: string | undefined, rawText: string): Query {
    if (rawText === '*') {
      if (field === undefined && this.options.fields.length === 1 && this.options.fields[0] === '*') return new MatchAllQuery();
      return this.exists(field);
    }
    const prefixOnly = /^(?:[^*?\\]|\\.)*\*$/.test(rawText);
    return this.combine(field, (info) => {
      if (info.type !== 'text' && info.type !== 'keyword' && info.type !== 'match_only_text' && info.type !== 'wildcard') return undefined;
      return prefixOnly ? prefixQuery(info, unescape(rawText.slice(0, -1)), 1) : wildcardQuery(info, rawText, 1);
    });
  }

  regex(field: string | undefined, pattern: string): Query {
    let regex: RegExp;
    try {
      regex = new RegExp(`^(?:${pattern})$`, 'u');
    } catch (_error) {
      return new MatchNoneQuery();
    }
    return this.combine(field, (info) => (info.type === 'text' || info.type === 'keyword' ? new MultiTermQuery(info, (term) => regex.test(term)) : undefined));
  }

  range(field: string | undefined, range: NonNullable<Token['range']>): Query {
    const lower = range.lower === '*' ? undefined : range.lower;
    const upper = range.upper === '*' ? undefined : range.upper;
    const bounds = {
      [range.includeLower ? 'gte' : 'gt']: lower,
      [range.includeUpper ? 'lte' : 'lt']: upper,
    } as { gt?: unknown; gte?: unknown; lt?: unknown; lte?: unknown };
    return this.combine(field, (info, lenient) => {
      if (info.type === 'text' || info.type === 'match_only_text') {
        const normalize = (value: string | undefined) => (value === undefined ? undefined : info.searchAnalyzer.normalize(value));
        return rangeQuery(info, { gte: range.includeLower ? normalize(lower) : undefined, gt: range.includeLower ? undefined : normalize(lower), lte: range.includeUpper ? normalize(upper) : undefined, lt: range.includeUpper ? undefined : normalize(upper) }, 1, lenient);
      }
      return rangeQuery(info, bounds, 1, lenient);
    });
  }

  exists(field: string | undefined): Query {
    const names = field === undefined ? this.options.fields.map((spec) => spec.split('^')[0]) : [field];
    const fields = names.flatMap((name) => (name.includes('*') ? expandFields(this.context, [name]).map((entry) => entry.field) : existsFields(this.context, name)));
    return fields.length ? new ExistsQuery(fields) : new MatchNoneQuery();
  }
}

class ClassicParser {
  private position = 0;
  /** Groups open at the current position. */
  private depth = 0;

  constructor(
    private readonly tokens: Token[],
    private readonly builder: FieldQueryBuilder,
    private readonly options: QueryStringOptions,
  ) {}

  private peek(): Token {
    return this.tokens[this.position];
  }

  private next(): Token {
    const token = this.tokens[this.position];
    this.position += 1;
    return token;
  }

  private unexpected(token: Token, expecting = EXPECTING_CLAUSE): SyntaxError {
    const shown = token.kind === 'EOF' ? '"<EOF>"' : `" ${JSON.stringify(token.text)} ${JSON.stringify(token.text)} "`;
    return new SyntaxError(`Encountered ${shown} at line 1, column ${token.column}.${expecting}`);
  }

  parseTop(): Query {
    const query = this.parseQuery(undefined, true);
    const token = this.peek();
    if (token.kind !== 'EOF') throw this.unexpected(token);
    return query;
  }

  private parseQuery(field: string | undefined, top: boolean): Query {
    const clauses: Clause[] = [];
    let first: Query | undefined;
    let firstPlain = false;
    for (;;) {
      const token = this.peek();
      if (token.kind === 'EOF' || token.kind === 'RPAREN') break;
      let conj: 'AND' | 'OR' | undefined;
      if (clauses.length > 0 || first) {
        if (token.kind === 'AND' || token.kind === 'OR') {
          conj = token.kind;
          this.next();
        }
      }
      let modifier: 'REQ' | 'NOT' | undefined;
      const modToken = this.peek();
      if (modToken.kind === 'PLUS') {
        modifier = 'REQ';
        this.next();
      } else if (modToken.kind === 'MINUS' || modToken.kind === 'NOT') {
        modifier = 'NOT';
        this.next();
      }
      const query = this.parseClause(field);
      if (clauses.length === 0 && conj === undefined && modifier === undefined && first === undefined) {
        first = query;
        firstPlain = true;
      }
      this.addClause(clauses, conj, modifier, query);
    }
    if (clauses.length === 0) {
      if (top) return new MatchNoneQuery();
      throw this.unexpected(this.peek());
    }
    if (clauses.length === 1 && firstPlain && first) return top ? this.withTopOptions(first) : first;
    const optional = clauses.filter((clause) => clause.occur === 'should').length;
    const minimum = top ? minimumShouldMatch(this.options.minimumShouldMatch, optional) : 0;
    return booleanOf(clauses, minimum, top ? this.options.boost : 1);
  }

  private withTopOptions(query: Query): Query {
    return this.options.boost === 1 ? query : new BoostQuery(query, this.options.boost);
  }

  // Lucene QueryParserBase.addClause: how AND/OR/+/-/NOT set each clause's occur.
  private addClause(clauses: Clause[], conj: 'AND' | 'OR' | undefined, modifier: 'REQ' | 'NOT' | undefined, query: Query): void {
    const last = clauses[clauses.length - 1];
    if (last && conj === 'AND' && last.occur !== 'must_not') last.occur = 'must';
    if (last && this.options.defaultOperator === 'and' && conj === 'OR' && last.occur !== 'must_not') last.occur = 'should';
    const prohibited = modifier === 'NOT';
    const required = this.options.defaultOperator === 'or' ? modifier === 'REQ' || (conj === 'AND' && !prohibited) : !prohibited && conj !== 'OR';
    clauses.push({ query, occur: prohibited ? 'must_not' : required ? 'must' : 'should' });
  }

  private parseClause(field: string | undefined): Query {
    let target = field;
    const token = this.peek();
    if (token.kind === 'TERM' && this.tokens[this.position + 1]?.kind === 'COLON') {
      target = unescape(token.text);
      this.next();
      this.next();
      if (target === '*' && this.peek().kind === 'TERM' && this.peek().text === '*') {
        this.next();
        return new MatchAllQuery();
      }
      if (target === '_exists_') {
        const fieldToken = this.next();
        if (fieldToken.kind !== 'TERM') throw this.unexpected(fieldToken);
        return this.builder.exists(unescape(fieldToken.text));
      }
    }
    const start = this.peek();
    if (start.kind === 'LPAREN') {
      this.next();
      if (this.depth >= MAX_QUERY_STRING_NESTING) throw tooDeep(start.column);
      this.depth += 1;
      const inner = this.parseQuery(target, false);
      this.depth -= 1;
      const close = this.next();
      if (close.kind !== 'RPAREN') throw this.unexpected(close, '\nWas expecting one of:\n    <AND> ...\n    <OR> ...\n    <NOT> ...\n    "+" ...\n    "-" ...\n    ")" ...\n    ');
      return this.boosted(inner);
    }
    return this.parseTerm(target);
  }

  private boosted(query: Query): Query {
    if (this.peek().kind !== 'CARAT') return query;
    const boost = Number(this.next().text || '1');
    return new BoostQuery(query, boost);
  }

  private parseTerm(field: string | undefined): Query {
    const token = this.next();
    switch (token.kind) {
      case 'TERM': {
        let fuzzy: string | undefined;
        if (this.peek().kind === 'FUZZY') fuzzy = this.next().text;
        let query: Query;
        if (token.wildcard) query = this.builder.wildcard(field, token.text);
        else query = this.builder.term(field, token.text, fuzzy);
        query = this.boosted(query);
        if (this.peek().kind === 'FUZZY') this.next();
        return query;
      }
      case 'QUOTED': {
        let slop = this.options.phraseSlop;
        if (this.peek().kind === 'FUZZY') slop = Math.floor(Number(this.next().text || '0'));
        return this.boosted(this.builder.phrase(field, token.text, slop));
      }
      case 'RANGE':
        return this.boosted(this.builder.range(field, token.range as NonNullable<Token['range']>));
      case 'REGEX':
        return this.boosted(this.builder.regex(field, token.text));
      default:
        throw this.unexpected(token);
    }
  }
}

function failure(query: string, error: SyntaxError): QueryShardError {
  return new QueryShardError(`Failed to parse query [${query}]`, {
    type: 'parse_exception',
    reason: `Cannot parse '${query}': ${error.message}`,
    caused_by: { type: error.message.startsWith('Lexical') ? 'token_mgr_error' : 'parse_exception', reason: error.message },
  });
}

export function parseQueryString(query: string, options: QueryStringOptions, context: CompileContext): Query {
  const builder = new FieldQueryBuilder(options, context);
  try {
    return new ClassicParser(tokenize(query), builder, options).parseTop();
  } catch (error) {
    if (error instanceof SyntaxError) throw failure(query, error);
    throw error;
  }
}

// Lucene SimpleQueryParser: `+` AND, `|` OR, `-` NOT, quotes, `*` prefix, `~N`, parentheses;
// broken syntax never fails, only groups nested deeper than MAX_QUERY_STRING_NESTING do.
export function parseSimpleQueryString(query: string, options: QueryStringOptions, context: CompileContext): Query {
  const builder = new FieldQueryBuilder({ ...options, lenient: true }, context);
  let index = 0;
  let depth = 0;
  const parseGroup = (): Query | undefined => {
    let top: Query | undefined;
    let topClauses: Clause[] | undefined;
    let current: Occur | undefined;
    let previous: Occur | undefined;
    let not = 0;
    const add = (branch: Query | undefined) => {
      if (!branch) return;
      let node = branch;
      if (not % 2 === 1) node = new BoolQuery([], [new MatchAllQuery()], [], [node], 0);
      not = 0;
      if (!top) {
        top = node;
      } else {
        const operation = current ?? (options.defaultOperator === 'and' ? 'must' : 'should');
        if (previous !== operation || !topClauses) topClauses = [{ occur: operation, query: top }];
        topClauses.push({ occur: operation, query: node });
        top = booleanOf(topClauses, 0);
        previous = operation;
      }
      current = undefined;
    };
    while (index < query.length) {
      const char = query[index];
      if (/\s/.test(char)) {
        index += 1;
      } else if (char === '|') {
        current = 'should';
        index += 1;
      } else if (char === '+') {
        current = 'must';
        index += 1;
      } else if (char === '-') {
        not += 1;
        index += 1;
      } else if (char === '(') {
        // Broken syntax is answered, but not nesting too deep to parse (as query_string refuses it).
        if (depth >= MAX_QUERY_STRING_NESTING) throw failure(query, tooDeep(index));
        index += 1;
        depth += 1;
        add(parseGroup());
        depth -= 1;
      } else if (char === ')') {
        index += 1;
        return top;
      } else if (char === '"') {
        const end = query.indexOf('"', index + 1);
        const text = end < 0 ? query.slice(index + 1) : query.slice(index + 1, end);
        index = end < 0 ? query.length : end + 1;
        const slopMatch = /^~(\d+)/.exec(query.slice(index));
        if (slopMatch) index += slopMatch[0].length;
        add(builder.phrase(undefined, text, slopMatch ? Number(slopMatch[1]) : options.phraseSlop));
      } else {
        let text = '';
        while (index < query.length && !/[\s|+()"]/.test(query[index])) {
          if (query[index] === '\\' && index + 1 < query.length) {
            text += query[index + 1];
            index += 2;
            continue;
          }
          if (query[index] === '~') break;
          text += query[index];
          index += 1;
        }
        let fuzzy: string | undefined;
        const fuzzyMatch = /^~(\d+)?/.exec(query.slice(index));
        if (fuzzyMatch) {
          fuzzy = fuzzyMatch[1] ?? '';
          index += fuzzyMatch[0].length;
        }
        if (text.length === 0) continue;
        if (text.endsWith('*') && text.length > 1) add(builder.wildcard(undefined, text.replace(/([?\\])/g, '\\$1')));
        else add(builder.term(undefined, text.replace(/\\/g, '\\\\'), fuzzy));
      }
    }
    return top;
  };
  const result = parseGroup() ?? new MatchNoneQuery();
  return options.boost === 1 ? result : new BoostQuery(result, options.boost);
}
