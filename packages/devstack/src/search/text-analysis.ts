// Analysis chain of Elasticsearch's built-in analyzers: the standard tokenizer (Unicode word
// boundaries, UAX #29), plus the token filters the services configure (lowercase, asciifolding, stop).
import { EsError } from './es-error';

export interface Analyzer {
  readonly name: string;
  analyze(text: string): string[];
  /** How wildcard, prefix and fuzzy terms are normalised (no tokenisation). */
  normalize(text: string): string;
}

type TokenFilter = (tokens: string[]) => string[];
type Tokenizer = (text: string) => string[];

const WORD = '[\\p{L}\\p{M}\\p{N}_]';
// Letters join across MidLetter/MidNumLet (`:` `·` `.` `'`), digits across MidNum/MidNumLet (`.` `,` `;` `'`).
const JOIN = "(?:(?<=\\p{L})[.'\u2019:\u00b7](?=\\p{L})|(?<=\\p{N})[.'\u2019,;](?=\\p{N}))";
const STANDARD_TOKEN = new RegExp(`${WORD}+(?:${JOIN}${WORD}+)*`, 'gu');
const IDEOGRAPHIC = /[\p{sc=Han}\p{sc=Hiragana}]/u;
const MAX_TOKEN_LENGTH = 255;

function standardTokenizer(text: string): string[] {
  const found = text.match(STANDARD_TOKEN);
  if (!found) return [];
  let tokens: string[] = found;
  if (tokens.some((token) => token.length > MAX_TOKEN_LENGTH || (/[\u2e80-\uffff]/.test(token) && IDEOGRAPHIC.test(token)))) {
    tokens = tokens.flatMap(splitSpecialToken);
  }
  return tokens;
}

// Each ideograph is its own token, as in Lucene's StandardTokenizer; over-long tokens are cut.
function splitSpecialToken(token: string): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const char of token) {
    if (IDEOGRAPHIC.test(char)) {
      if (current) pieces.push(current);
      pieces.push(char);
      current = '';
    } else {
      current += char;
      if (current.length >= MAX_TOKEN_LENGTH) {
        pieces.push(current);
        current = '';
      }
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

const tokenizers: Record<string, Tokenizer> = {
  standard: standardTokenizer,
  whitespace: (text) => text.split(/\s+/u).filter((token) => token.length > 0),
  keyword: (text) => [text],
  letter: (text) => text.match(/\p{L}+/gu) ?? [],
  lowercase: (text) => (text.match(/\p{L}+/gu) ?? []).map((token) => token.toLowerCase()),
};

const SPECIAL_FOLDS: Record<string, string> = {
  ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D', ı: 'i',
  '\u2019': "'", '\u2018': "'", '\u201c': '"', '\u201d': '"', ĳ: 'ij', Ĳ: 'IJ', ŉ: "'n", ſ: 's',
};

export function asciiFold(token: string): string {
  if (!/[\u0080-\uffff]/.test(token)) return token;
  const decomposed = token.normalize('NFD').replace(/\p{M}/gu, '');
  return decomposed.replace(/[\u0080-\uffff]/g, (char) => SPECIAL_FOLDS[char] ?? char);
}

export const ENGLISH_STOP_WORDS = [
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'but', 'by', 'for', 'if', 'in', 'into', 'is', 'it', 'no', 'not', 'of', 'on', 'or',
  'such', 'that', 'the', 'their', 'then', 'there', 'these', 'they', 'this', 'to', 'was', 'will', 'with',
];

function stopFilter(words: string[]): TokenFilter {
  const stop = new Set(words);
  return (tokens) => tokens.filter((token) => !stop.has(token));
}

const builtinFilters: Record<string, TokenFilter> = {
  lowercase: (tokens) => tokens.map((token) => token.toLowerCase()),
  uppercase: (tokens) => tokens.map((token) => token.toUpperCase()),
  asciifolding: (tokens) => tokens.map(asciiFold),
  trim: (tokens) => tokens.map((token) => token.trim()),
  stop: stopFilter(ENGLISH_STOP_WORDS),
};

const NORMALIZING_FILTERS = new Set(['lowercase', 'uppercase', 'asciifolding', 'trim']);

class ChainAnalyzer implements Analyzer {
  constructor(
    readonly name: string,
    private readonly tokenizer: Tokenizer,
    private readonly filters: TokenFilter[],
    private readonly normalizers: TokenFilter[],
  ) {}

  analyze(text: string): string[] {
    let tokens = this.tokenizer(text);
    for (const filter of this.filters) tokens = filter(tokens);
    return tokens.filter((token) => token.length > 0);
  }

  normalize(text: string): string {
    let tokens = [text];
    for (const filter of this.normalizers) tokens = filter(tokens);
    return tokens[0] ?? text;
  }
}

// The standard analyzer is hot during bulk indexing: lowercase the whole text once, then tokenise.
class StandardAnalyzer implements Analyzer {
  readonly name = 'standard';
  analyze(text: string): string[] {
    return standardTokenizer(text.toLowerCase());
  }
  normalize(text: string): string {
    return text.toLowerCase();
  }
}

const STANDARD = new StandardAnalyzer();
const KEYWORD = new ChainAnalyzer('keyword', tokenizers.keyword, [], []);

function builtinAnalyzer(name: string): Analyzer | undefined {
  switch (name) {
    case 'standard':
    case 'default':
      return STANDARD;
    case 'simple':
      return new ChainAnalyzer('simple', tokenizers.lowercase, [], [builtinFilters.lowercase]);
    case 'whitespace':
      return new ChainAnalyzer('whitespace', tokenizers.whitespace, [], []);
    case 'keyword':
      return KEYWORD;
    case 'stop':
      return new ChainAnalyzer('stop', tokenizers.lowercase, [builtinFilters.stop], [builtinFilters.lowercase]);
    case 'english':
      return new ChainAnalyzer('english', standardTokenizer, [builtinFilters.lowercase, builtinFilters.stop], [builtinFilters.lowercase]);
    default:
      return undefined;
  }
}

interface AnalysisSettings {
  analyzer?: Record<string, { type?: string; tokenizer?: string; filter?: string[] | string; stopwords?: string[] | string }>;
  filter?: Record<string, { type?: string; stopwords?: string[] | string; preserve_original?: boolean }>;
}

function stopWordList(value: string[] | string | undefined): string[] {
  if (value === undefined || value === '_english_') return ENGLISH_STOP_WORDS;
  if (value === '_none_') return [];
  return Array.isArray(value) ? value : [value];
}

/** Analyzers of one index: the built-ins plus those declared in `settings.analysis`. */
export class AnalyzerRegistry {
  private readonly custom = new Map<string, Analyzer>();

  constructor(analysis: AnalysisSettings | undefined) {
    const filterDefs = analysis?.filter ?? {};
    const resolveFilter = (name: string): { filter: TokenFilter; normalizing: boolean } => {
      const def = filterDefs[name];
      if (def) {
        if (def.type === 'stop') return { filter: stopFilter(stopWordList(def.stopwords)), normalizing: false };
        if (def.type && builtinFilters[def.type]) return { filter: builtinFilters[def.type], normalizing: NORMALIZING_FILTERS.has(def.type) };
      }
      const builtin = builtinFilters[name];
      if (!builtin) throw new EsError(400, 'illegal_argument_exception', `failed to find global filter under [${name}]`);
      return { filter: builtin, normalizing: NORMALIZING_FILTERS.has(name) };
    };
    for (const [name, def] of Object.entries(analysis?.analyzer ?? {})) {
      if (def.type && def.type !== 'custom') {
        const builtin = builtinAnalyzer(def.type);
        if (!builtin) throw new EsError(400, 'illegal_argument_exception', `Unknown analyzer type [${def.type}] for [${name}]`);
        if (def.type === 'standard' && def.stopwords !== undefined) {
          const stop = stopFilter(stopWordList(def.stopwords));
          this.custom.set(name, new ChainAnalyzer(name, standardTokenizer, [builtinFilters.lowercase, stop], [builtinFilters.lowercase]));
        } else {
          this.custom.set(name, builtin);
        }
        continue;
      }
      const tokenizerName = def.tokenizer ?? 'standard';
      const tokenizer = tokenizers[tokenizerName];
      if (!tokenizer) throw new EsError(400, 'illegal_argument_exception', `failed to find global tokenizer under [${tokenizerName}]`);
      const names = def.filter === undefined ? [] : Array.isArray(def.filter) ? def.filter : [def.filter];
      const resolved = names.map(resolveFilter);
      this.custom.set(
        name,
        new ChainAnalyzer(
          name,
          tokenizer,
          resolved.map((entry) => entry.filter),
          resolved.filter((entry) => entry.normalizing).map((entry) => entry.filter),
        ),
      );
    }
  }

  get(name: string | undefined): Analyzer {
    if (name === undefined) return this.custom.get('default') ?? STANDARD;
    const analyzer = this.custom.get(name) ?? builtinAnalyzer(name);
    if (!analyzer) throw new EsError(400, 'mapper_parsing_exception', `analyzer [${name}] has not been configured in mappings`);
    return analyzer;
  }

  has(name: string): boolean {
    return this.custom.has(name) || builtinAnalyzer(name) !== undefined;
  }
}

export const standardAnalyzer: Analyzer = STANDARD;
export const keywordAnalyzer: Analyzer = KEYWORD;
