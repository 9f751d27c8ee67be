// Pairwise comparison of two references. The verdict comes from explicit rules (vetoes first, then
// the positive rules A–D); the score is a field-agreement summary used to rank candidates and to
// explain a decision. False merges are the costly error, so every positive rule asks for
// independent agreement beyond the title, and every conflict on a field that identifies a
// publication (DOI, year, volume, pages, authors, item kind, part number) forbids a merge, except
// a volume or author list the rest of the record shows an export garbled.

import { type DedupRecord } from './record';
import {
  compareVenues,
  comparePages,
  editDistance,
  isProceedings,
  issueNumbers,
  normaliseAuthor,
  normaliseNumbering,
  normaliseVolume,
  normaliseTitle,
  normaliseVenue,
  parsePages,
  sameAuthor,
  type CitedPlace,
  type NormalisedAuthor,
  type NormalisedTitle,
  type NormalisedVenue,
  type PageRange,
  type PagesRelation,
  type VenueRelation,
} from './normalise';

export interface PairScore {
  score: number;
  verdict: 'duplicate' | 'distinct' | 'uncertain';
  reasons: string[];
  /**
   * The duplicate verdict rests on a cross-reference between two different items (an erratum the
   * article's record names, a combined letters record), not on the records describing one item:
   * weaker evidence, used only where no candidate matches directly.
   */
  linked: boolean;
  /**
   * Vetoed as another part, year or Cochrane version of one title: a group holding this record is
   * another work's group, whichever of its other members the new record matches (a record without
   * a year would otherwise chain two versions together). Not a volume conflict: exports garble
   * volumes ("1)" for "57 (Suppl. 1)") more often than a record lacks one.
   */
  otherVersion: boolean;
}

/** Identifier types that name one work each: two different values mean two different works. */
export const UNIQUE_IDENTIFIER_TYPES = ['doi', 'pm_id', 'open_alex'] as const;

/** Shortest title, in content words, for rule B (long titles only: recurring column titles are short). */
export const RULE_B_MIN_CONTENT_WORDS = 6;
/** Share of the shorter title's content words the other must contain for rule C. */
export const RULE_C_MIN_TITLE_OVERLAP = 0.6;
/** Titles with fewer content words than this need a confirming locator under rule A. */
export const SHORT_TITLE_CONTENT_WORDS = 5;
/** Share of the shorter author list that must be matched for "strong" author agreement. */
export const AUTHOR_OVERLAP_STRONG = 0.5;

/** Normalised fields of one record, computed once per record. */
export interface Prepared {
  record: DedupRecord;
  title: NormalisedTitle | null;
  authors: NormalisedAuthor[];
  venue: NormalisedVenue | null;
  volume: string | null;
  issue: string | null;
  pages: PageRange | null;
  uniqueIds: Map<string, string>;
}

const preparedCache = new WeakMap<DedupRecord, Prepared>();

export function prepare(record: DedupRecord): Prepared {
  const cached = preparedCache.get(record);
  if (cached) return cached;
  const uniqueIds = new Map<string, string>();
  for (const identifier of record.identifiers) {
    if ((UNIQUE_IDENTIFIER_TYPES as readonly string[]).includes(identifier.type) && !uniqueIds.has(identifier.type)) {
      uniqueIds.set(identifier.type, identifier.type === 'doi' ? identifier.value.toLowerCase() : identifier.value);
    }
  }
  if (record.doi && !uniqueIds.has('doi')) uniqueIds.set('doi', record.doi.toLowerCase());
  const prepared: Prepared = {
    record,
    title: normaliseTitle(record.title),
    authors: record.authors.map(normaliseAuthor).filter((author): author is NormalisedAuthor => author !== null),
    venue: normaliseVenue(record.venue),
    volume: normaliseVolume(record.volume),
    issue: normaliseNumbering(record.issue),
    pages: parsePages(record.pages),
    uniqueIds,
  };
  preparedCache.set(record, prepared);
  return prepared;
}

export type TitleRelation = 'exact' | 'near' | 'prefix' | 'similar' | 'different' | 'missing';

const ROMAN_NUMERAL = /^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/;

/**
 * Prefixes one or two letters apart that name opposites ("intracellular" / "intercellular"), or
 * other organs, tissues or times (neuropathy / nephropathy, hepatology / haematology, myopathy /
 * myelopathy, colposcopy / colonoscopy, endoderm / ectoderm, perioperative / preoperative).
 */
const OPPOSED_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['hypo', 'hyper'],
  ['intra', 'inter'],
  ['micro', 'macro'],
  ['endo', 'exo'],
  ['endo', 'ecto'],
  ['neuro', 'nephro'],
  ['hepat', 'hemat'],
  ['myel', 'myo'],
  ['colpo', 'colono'],
  ['peri', 'pre'],
];

/**
 * Word endings one or two letters apart that name different conditions, procedures or drugs on the
 * same stem: inflammation against degeneration (arthritis / arthrosis, nephritic / nephrotic),
 * clot against its dissolution (thrombosis / thrombolysis), removal against opening (colectomy /
 * colostomy / colotomy), swallowing against speech (dysphagia / dysphasia), prednisone /
 * prednisolone, in urine against in blood (albuminuria / albuminemia), enzyme against sugar
 * (lactase / lactose), salts and elements (nitrite / nitrate, chloride / chlorine, amine / amide),
 * bone-forming against bone-resorbing cells (osteoblast / osteoclast). A misspelling rarely turns
 * one such ending into another.
 */
const OPPOSED_ENDINGS: ReadonlyArray<readonly string[]> = [
  ['itis', 'osis', 'olysis'],
  ['itic', 'otic', 'olytic'],
  ['ectomy', 'ostomy', 'otomy'],
  ['ectomies', 'ostomies', 'otomies'],
  ['phagia', 'phasia'],
  ['one', 'olone'],
  ['uria', 'emia'],
  ['ase', 'ose'],
  ['ases', 'oses'],
  ['ite', 'ate'],
  ['ites', 'ates'],
  ['ine', 'ide'],
  ['ines', 'ides'],
  ['blast', 'clast'],
  ['blasts', 'clasts'],
];

function opposedEndings(a: string, b: string): boolean {
  return OPPOSED_ENDINGS.some((endings) =>
    endings.some((one) => a.endsWith(one) && endings.some((other) => other !== one && b.endsWith(other) && a.slice(0, -one.length) === b.slice(0, -other.length))),
  );
}

/**
 * Typo-level difference between two words: same length class, one or two edits, long words only.
 * Not when the words differ in their first letter (maternal / paternal, KRAS / NRAS, increased /
 * decreased: a misspelling rarely hits it), are roman numerals (factor VIII / XIII), or differ by
 * opposed prefixes or endings.
 */
function typoOf(a: string, b: string): boolean {
  if (a.length < 4 || b.length < 4 || /\d/.test(a) || /\d/.test(b)) return false;
  if (a[0] !== b[0] || ROMAN_NUMERAL.test(a) || ROMAN_NUMERAL.test(b)) return false;
  if (OPPOSED_PREFIXES.some(([one, other]) => (a.startsWith(one) && b.startsWith(other)) || (a.startsWith(other) && b.startsWith(one)))) return false;
  if (opposedEndings(a, b)) return false;
  return editDistance(a, b, 2) <= (Math.min(a.length, b.length) >= 8 ? 2 : 1);
}

/** Share of the shorter title's distinct content words that occur in the other title. */
export function titleOverlap(a: NormalisedTitle, b: NormalisedTitle): number {
  const setA = new Set(a.contentWords);
  const setB = new Set(b.contentWords);
  const [small, large] = setA.size <= setB.size ? [setA, setB] : [setB, setA];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const word of small) if (large.has(word)) shared++;
  return shared / small.size;
}

/**
 * exact: same normalised key. near: same words except a few typo-level misspellings (at most one
 * per eight words, numbers identical). prefix: one title is the other cut short (export
 * truncation, or a subtitle only one source kept); the shorter keeps at least six content words.
 * similar: most content words shared. different: anything else.
 */
export function compareTitles(a: NormalisedTitle | null, b: NormalisedTitle | null): TitleRelation {
  if (!a || !b) return 'missing';
  if (a.key === b.key) return 'exact';
  if (a.words.length === b.words.length && a.numbers.join(' ') === b.numbers.join(' ')) {
    let typos = 0;
    let other = false;
    for (let i = 0; i < a.words.length && !other; i++) {
      if (a.words[i] === b.words[i]) continue;
      if (typoOf(a.words[i], b.words[i])) typos++;
      else other = true;
    }
    if (!other && typos <= Math.max(1, Math.floor(a.words.length / 8))) return 'near';
  }
  const [shorter, longer] = a.key.length <= b.key.length ? [a, b] : [b, a];
  if (shorter.contentWords.length >= RULE_B_MIN_CONTENT_WORDS && longer.key.startsWith(shorter.key)) return 'prefix';
  return titleOverlap(a, b) >= RULE_C_MIN_TITLE_OVERLAP ? 'similar' : 'different';
}

export type AuthorRelation = 'strong' | 'partial' | 'conflict' | 'missing';

/**
 * strong: first authors match and at least half of the shorter list is matched; partial: one of
 * the two; conflict: neither; missing: one side has no authors.
 */
export function compareAuthors(a: NormalisedAuthor[], b: NormalisedAuthor[]): { relation: AuthorRelation; firstAuthor: boolean; overlap: number } {
  if (a.length === 0 || b.length === 0) return { relation: 'missing', firstAuthor: false, overlap: 0 };
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const used = new Array<boolean>(large.length).fill(false);
  let matched = 0;
  for (const author of small) {
    const index = large.findIndex((candidate, i) => !used[i] && sameAuthor(author, candidate));
    if (index >= 0) {
      used[index] = true;
      matched++;
    }
  }
  const overlap = matched / small.length;
  const firstAuthor = sameAuthor(a[0], b[0]);
  const relation: AuthorRelation = firstAuthor && overlap >= AUTHOR_OVERLAP_STRONG ? 'strong' : firstAuthor || overlap >= AUTHOR_OVERLAP_STRONG ? 'partial' : 'conflict';
  return { relation, firstAuthor, overlap };
}

export type YearRelation = 'same' | 'adjacent' | 'conflict' | 'missing';

/** adjacent: one year apart (online-first versus print issue, database indexing year). */
export function compareYears(a: number | null, b: number | null): YearRelation {
  if (a === null || b === null) return 'missing';
  if (a === b) return 'same';
  return Math.abs(a - b) === 1 ? 'adjacent' : 'conflict';
}

export type NumberingRelation = 'same' | 'compatible' | 'conflict' | 'missing';

/** compatible: one is the other plus detail ("suppl" / "suppl2", "14" / "14 Sp. Iss."). */
export function compareNumbering(a: string | null, b: string | null): NumberingRelation {
  if (a === null || b === null) return 'missing';
  if (a === b) return 'same';
  return a.startsWith(b) || b.startsWith(a) ? 'compatible' : 'conflict';
}

/**
 * Issues as compareNumbering reads them, except that a double issue ("3-4") is compatible with
 * either of its numbers (one export writes it whole, another by one number) and conflicts with others.
 */
function compareIssues(a: string | null, b: string | null): NumberingRelation {
  const [numbersA, numbersB] = [issueNumbers(a), issueNumbers(b)];
  if (numbersA === null || numbersB === null || (numbersA.length === 1 && numbersB.length === 1) || a === b) return compareNumbering(a, b);
  return numbersA.some((n) => numbersB.includes(n)) ? 'compatible' : 'conflict';
}

/** Both issues are plain or double issue numbers that share no number. */
function disjointIssues(a: string | null, b: string | null): boolean {
  const [numbersA, numbersB] = [issueNumbers(a), issueNumbers(b)];
  return numbersA !== null && numbersB !== null && !numbersA.some((n) => numbersB.includes(n));
}

export interface PairFeatures {
  identifiers: 'shared' | 'conflict' | 'none';
  conflictingIdentifier: string | null;
  kinds: 'same' | 'different' | 'missing';
  /** Both titles announce ordinary articles (not errata, notices or commentary). */
  bothArticles: boolean;
  parts: 'same' | 'conflict';
  title: TitleRelation;
  titleOverlap: number;
  weakTitle: boolean;
  minContentWords: number;
  authors: AuthorRelation;
  firstAuthor: boolean;
  authorOverlap: number;
  year: YearRelation;
  venue: VenueRelation;
  volume: NumberingRelation;
  issue: NumberingRelation;
  pages: PagesRelation;
  /** Both are multi-page ranges with the same first and last page. */
  sameRange: boolean;
  /**
   * The same range starts on page 1: the PDF's own pages, as exports give them for articles of
   * journals numbering articles rather than pages and for conference papers (AIS eLibrary "1-17"),
   * where every item starts on page 1. It places an item only together with its issue.
   */
  rangeFromPageOne: boolean;
  /** Neither record gives pages. */
  pagesOnNeither: boolean;
  /** Exactly one record gives an issue (an online-first record, or an export that lost it). */
  issueOnOneSide: boolean;
  /**
   * A record without pages gives as its issue the other's first page: the article number of an
   * article-numbered journal, which EMBASE exports in the issue field ("31 (2) (no pagination)",
   * issue "7", against 31(2):7).
   */
  articleNumberAsIssue: boolean;
  /** Both venues are conference proceedings. */
  proceedings: boolean;
  /**
   * Both give plain issue numbers (one or two digits, or a double issue "3-4") and they share no number: where neither has pages,
   * that alone tells two items of one volume apart. Other differing values may be how exports write
   * one issue, or an article number shifted into the field.
   */
  otherIssue: boolean;
  /**
   * The issues differ but both are numbers and one has three digits or more: how exports that
   * number their records put that number in the issue field (3(656) / 3(657)).
   */
  recordNumberIssues: boolean;
  /**
   * One is a single page printed after the first page of the other's multi-page range (or two
   * pages past its end), in the same volume: the position of an erratum notice or a comment on
   * that article.
   */
  singlePageAfterRange: boolean;
  /**
   * One of them is a Cochrane review (by journal, or by its CD article number in the pages field).
   * The CD number stays with the review through its protocol, first version and updates, each
   * published in another year or issue, so it proves nothing about the version.
   */
  cochraneReview: boolean;
  /**
   * One record names the other by its printed place: an article's "[Erratum appears in …]" note
   * citing the other's volume and issue or page, or a "(multiple letters)" record whose page range
   * and author list contain the other's.
   */
  crossReference: 'erratum note' | 'combined letters' | null;
  /**
   * One is indexed as an erratum, the other under the bare title, both on the same single page: the
   * two labels an erratum notice gets (a notice takes one page; the article it corrects a range).
   */
  erratumAndArticleOnOnePage: boolean;
}

function isCochraneReview(record: DedupRecord): boolean {
  return /cochrane/i.test(record.venue ?? '') || /^\s*CD\d{5,}/i.test(record.pages ?? '');
}

function singlePageAfterRange(single: PageRange | null, range: PageRange | null): boolean {
  if (!single || !range || range.last === null || single.first === null || range.first === null) return false;
  if (single.last === null) return Number(single.first) > Number(range.first);
  // A two-page notice past the end of an article of three pages or more sits where a single one does.
  const twoPages = Number(single.last) - Number(single.first) === 1;
  return twoPages && Number(single.first) > Number(range.last) && Number(range.last) - Number(range.first) >= 2;
}

/**
 * The other record is the erratum a note names: an erratum notice in the cited volume and issue
 * (one notice per article per issue), or an item under the article's own title at the cited volume
 * and page (how some databases index the notice). Letters, replies and retractions never are.
 */
function atCitedPlace(places: CitedPlace[], other: Prepared, place: { volume: string | null; issue: string | null; pages: PageRange | null }): boolean {
  const kind = other.title?.kind;
  return places.some((cited) => {
    if (cited.volume !== place.volume) return false;
    const samePage = cited.page !== null && cited.page === place.pages?.first;
    if (kind === 'erratum') return samePage || (cited.issue !== null && cited.issue === place.issue);
    return kind === 'article' && samePage && (cited.issue === null || place.issue === null || cited.issue === place.issue);
  });
}

/** A combined letters record covers the other: its page range holds the other's pages, its authors all the other's. */
function coversLetter(combined: Prepared, letter: Prepared): boolean {
  if (!combined.title?.combinedLetters || letter.title?.combinedLetters || !combined.pages?.last || !combined.pages.first || !letter.pages?.first || letter.authors.length === 0) return false;
  const first = Number(letter.pages.first);
  const last = Number(letter.pages.last ?? letter.pages.first);
  if (!(first >= Number(combined.pages.first) && last <= Number(combined.pages.last))) return false;
  const used = new Array<boolean>(combined.authors.length).fill(false);
  return letter.authors.every((author) => {
    const index = combined.authors.findIndex((candidate, i) => !used[i] && sameAuthor(author, candidate));
    if (index >= 0) used[index] = true;
    return index >= 0;
  });
}

/**
 * An export that dropped the volume shifts the next fields left: no volume, the volume as issue,
 * the issue as pages. When exactly that reading makes both records agree, compare it instead.
 */
function realignShifted(own: Prepared, other: Prepared): { volume: string | null; issue: string | null; pages: PageRange | null } {
  const shifted =
    own.volume === null &&
    own.issue !== null &&
    own.issue === other.volume &&
    other.issue !== null &&
    own.pages !== null &&
    own.pages.last === null &&
    own.pages.first === other.issue;
  return shifted ? { volume: other.volume, issue: other.issue, pages: null } : { volume: own.volume, issue: own.issue, pages: own.pages };
}

/**
 * Roman front-matter pages ("iii-iv") recur in every issue: they place an item only where both
 * records give the same issue, and are read as no pages otherwise.
 */
function withinIssue<T extends { issue: string | null; pages: PageRange | null }>(place: T, otherIssue: string | null): T {
  return place.pages?.frontMatter === true && (place.issue === null || place.issue !== otherIssue) ? { ...place, pages: null } : place;
}

export function pairFeatures(a: Prepared, b: Prepared): PairFeatures {
  let identifiers: PairFeatures['identifiers'] = 'none';
  let conflictingIdentifier: string | null = null;
  for (const [type, value] of a.uniqueIds) {
    const other = b.uniqueIds.get(type);
    if (other === undefined) continue;
    if (other === value) {
      if (identifiers === 'none') identifiers = 'shared';
    } else {
      identifiers = 'conflict';
      conflictingIdentifier = type;
      break;
    }
  }
  const authors = compareAuthors(a.authors, b.authors);
  const placeA = withinIssue(realignShifted(a, b), b.issue);
  const placeB = withinIssue(realignShifted(b, a), a.issue);
  const pages = comparePages(placeA.pages, placeB.pages);
  const volume = placeA.volume === null || placeB.volume === null ? 'missing' : placeA.volume === placeB.volume ? 'same' : 'conflict';
  const crossReference =
    (a.title && atCitedPlace(a.title.erratumPlaces, b, placeB)) || (b.title && atCitedPlace(b.title.erratumPlaces, a, placeA))
      ? 'erratum note'
      : coversLetter(a, b) || coversLetter(b, a)
        ? 'combined letters'
        : null;
  return {
    identifiers,
    conflictingIdentifier,
    kinds: !a.title || !b.title ? 'missing' : a.title.kind === b.title.kind ? 'same' : 'different',
    bothArticles: a.title?.kind === 'article' && b.title?.kind === 'article',
    parts: a.title && b.title && a.title.part !== null && b.title.part !== null && a.title.part !== b.title.part ? 'conflict' : 'same',
    title: compareTitles(a.title, b.title),
    titleOverlap: a.title && b.title ? titleOverlap(a.title, b.title) : 0,
    weakTitle: (a.title?.weak ?? false) || (b.title?.weak ?? false),
    minContentWords: Math.min(a.title?.contentWords.length ?? 0, b.title?.contentWords.length ?? 0),
    authors: authors.relation,
    firstAuthor: authors.firstAuthor,
    authorOverlap: authors.overlap,
    year: compareYears(a.record.year, b.record.year),
    venue: compareVenues(a.venue, b.venue),
    volume,
    issue: compareIssues(placeA.issue, placeB.issue),
    pages,
    sameRange: pages === 'same' && placeA.pages?.last != null && placeA.pages.last === placeB.pages?.last,
    rangeFromPageOne: pages === 'same' && placeA.pages?.first === '1' && placeA.pages.last != null && placeB.pages?.last != null,
    pagesOnNeither: placeA.pages === null && placeB.pages === null,
    issueOnOneSide: (placeA.issue === null) !== (placeB.issue === null),
    articleNumberAsIssue:
      (placeA.pages === null && placeA.issue !== null && placeA.issue === placeB.pages?.first) ||
      (placeB.pages === null && placeB.issue !== null && placeB.issue === placeA.pages?.first),
    proceedings: isProceedings(a.venue) && isProceedings(b.venue),
    otherIssue: disjointIssues(placeA.issue, placeB.issue),
    recordNumberIssues:
      /^\d+$/.test(placeA.issue ?? '') && /^\d+$/.test(placeB.issue ?? '') && placeA.issue !== placeB.issue && Math.max(placeA.issue?.length ?? 0, placeB.issue?.length ?? 0) >= 3,
    singlePageAfterRange: singlePageAfterRange(placeA.pages, placeB.pages) || singlePageAfterRange(placeB.pages, placeA.pages),
    cochraneReview: isCochraneReview(a.record) || isCochraneReview(b.record),
    crossReference,
    erratumAndArticleOnOnePage:
      ((a.title?.kind === 'erratum' && b.title?.kind === 'article') || (a.title?.kind === 'article' && b.title?.kind === 'erratum')) &&
      pages === 'same' &&
      placeA.pages?.last === null &&
      placeB.pages?.last === null,
  };
}

const TITLE_POINTS: Record<TitleRelation, number> = { exact: 1, near: 0.9, prefix: 0.8, similar: 0.6, different: 0, missing: 0.3 };
const AUTHOR_POINTS: Record<AuthorRelation, number> = { strong: 1, partial: 0.6, missing: 0.4, conflict: 0 };
const YEAR_POINTS: Record<YearRelation, number> = { same: 1, adjacent: 0.7, missing: 0.4, conflict: 0 };
const VENUE_POINTS: Record<VenueRelation, number> = { same: 1, compatible: 0.85, missing: 0.4, different: 0.1 };
const NUMBER_POINTS: Record<NumberingRelation, number> = { same: 1, compatible: 0.8, missing: 0.4, conflict: 0 };
const PAGE_POINTS: Record<PagesRelation, number> = { same: 1, end: 0.8, missing: 0.4, conflict: 0 };

/** Weighted field agreement in [0, 1], for ranking and explanation only (the verdict is rule-based). */
export function agreementScore(f: PairFeatures): number {
  const base =
    0.35 * TITLE_POINTS[f.title] +
    0.2 * AUTHOR_POINTS[f.authors] +
    0.1 * YEAR_POINTS[f.year] +
    0.1 * VENUE_POINTS[f.venue] +
    0.08 * NUMBER_POINTS[f.volume] +
    0.05 * NUMBER_POINTS[f.issue] +
    0.12 * PAGE_POINTS[f.pages];
  const adjusted = f.identifiers === 'shared' ? Math.max(base, 0.95) : f.identifiers === 'conflict' ? Math.min(base, 0.05) : base;
  return Math.round(adjusted * 1000) / 1000;
}

function describe(f: PairFeatures): string {
  return `title ${f.title}, authors ${f.authors}, year ${f.year}, venue ${f.venue}, volume ${f.volume}, issue ${f.issue}, pages ${f.pages}`;
}

/** A positive agreement on where the item is printed (not just an absence of conflict). */
function locatorSupport(f: PairFeatures): boolean {
  return f.pages === 'same' || f.pages === 'end' || (f.volume === 'same' && (f.venue === 'same' || f.venue === 'compatible'));
}

/** Support for a title that differs by typos: same pages, or same journal, volume and issue. */
function nearSupport(f: PairFeatures): boolean {
  return f.pages === 'same' || f.pages === 'end' || (f.volume === 'same' && f.issue === 'same' && (f.venue === 'same' || f.venue === 'compatible'));
}

/**
 * Journal, volume and pages present and equal on both sides, and no other issue: some journals
 * paginate each issue anew (an "Editorial Introduction" on pages 3–4 of every issue), supplements
 * too (page S1 of supplement 2 against page 1 of issue 2). Issue fields holding an export's record
 * numbers do not count.
 */
function fullLocator(f: PairFeatures): boolean {
  return (f.venue === 'same' || f.venue === 'compatible') && f.volume === 'same' && (f.pages === 'same' || f.pages === 'end') && (f.issue !== 'conflict' || f.recordNumberIssues);
}

/**
 * One printed item whose volume field an export garbled: the same long title by the same authors
 * in the same journal and year, starting on the same page. Supplement exports put the supplement's
 * number in the volume field ("1)", "1" for "61 (Suppl. 1)"); two different items agreeing on all
 * the rest are not found in practice.
 */
function volumeMisexported(f: PairFeatures): boolean {
  return (
    f.title === 'exact' &&
    !f.weakTitle &&
    f.minContentWords >= SHORT_TITLE_CONTENT_WORDS &&
    f.authors === 'strong' &&
    f.year === 'same' &&
    (f.venue === 'same' || f.venue === 'compatible') &&
    f.pages === 'same'
  );
}

/**
 * One article whose author field an export garbled (given names and surnames swapped, names run
 * together): a long identical title in the same journal, volume and issue over the same
 * multi-page range. A full page range in one journal issue identifies an article.
 */
function authorsMisexported(f: PairFeatures): boolean {
  return (
    f.title === 'exact' &&
    f.bothArticles &&
    !f.weakTitle &&
    f.minContentWords >= RULE_B_MIN_CONTENT_WORDS &&
    (f.year === 'same' || f.year === 'adjacent') &&
    (f.venue === 'same' || f.venue === 'compatible') &&
    f.volume === 'same' &&
    f.issue !== 'conflict' &&
    f.sameRange
  );
}

/**
 * Conference proceedings number no volumes (or each export its own): the same conference, the same
 * year and the same multi-page range place a paper. Proceedings do not start each issue at page one.
 */
function proceedingsRange(f: PairFeatures): boolean {
  return f.proceedings && (f.venue === 'same' || f.venue === 'compatible') && f.year === 'same' && f.volume !== 'conflict' && f.sameRange && !f.rangeFromPageOne;
}

function verdictOf(f: PairFeatures): { verdict: PairScore['verdict']; reason: string; otherVersion?: true } {
  // Vetoes: any one of them means two different works.
  if (f.identifiers === 'conflict') return { verdict: 'distinct', reason: `veto: different ${f.conflictingIdentifier} identifiers` };
  // An erratum notice indexed once as "Erratum: X" and once under X alone, on the same page of the
  // same journal issue, is one printed item.
  const oneNoticeTwoLabels = f.erratumAndArticleOnOnePage && (f.venue === 'same' || f.venue === 'compatible') && f.volume === 'same' && f.issue === 'same';
  if (f.kinds === 'different' && !oneNoticeTwoLabels) return { verdict: 'distinct', reason: 'veto: different item kinds (erratum, retraction, commentary or article)' };
  if (f.parts === 'conflict') return { verdict: 'distinct', reason: 'veto: different part numbers of a multi-part paper', otherVersion: true };
  if (f.year === 'conflict') return { verdict: 'distinct', reason: 'veto: publication years more than one apart', otherVersion: true };
  // Every database indexes a Cochrane version in its year and issue: another year or issue (not an
  // export's record number) is another version.
  if (f.cochraneReview && (f.year === 'adjacent' || f.otherIssue) && f.identifiers !== 'shared') {
    return { verdict: 'distinct', reason: 'veto: versions of a Cochrane review (protocol, review, update) in different years or issues', otherVersion: true };
  }
  if (f.volume === 'conflict' && !volumeMisexported(f)) return { verdict: 'distinct', reason: 'veto: different volumes' };
  if (f.authors === 'conflict' && !authorsMisexported(f)) return { verdict: 'distinct', reason: 'veto: authors do not match' };

  if (f.identifiers === 'shared') return { verdict: 'duplicate', reason: 'rule ID: same unique identifier, no conflicting field' };

  if (f.title === 'missing') {
    // Without a title only the locator speaks; a labelled sample shows that a title-less record
    // agreeing on every other field can still be a different record, so a person decides.
    const allAgree = fullLocator(f) && f.pages === 'same' && f.authors === 'strong' && (f.year === 'same' || f.year === 'adjacent');
    return allAgree
      ? { verdict: 'uncertain', reason: 'title missing; authors, year, journal, volume and pages agree: needs review' }
      : { verdict: 'distinct', reason: 'title missing and the other fields do not all agree' };
  }

  if (f.weakTitle) {
    // Rule D: generic or very short titles identify nothing; the printed locator must, and where
    // both list authors the first authors must match.
    if ((f.title === 'exact' || f.title === 'near') && (fullLocator(f) || proceedingsRange(f)) && (f.authors === 'missing' || f.firstAuthor)) {
      return { verdict: 'duplicate', reason: 'rule D: generic/short title with identical journal, volume and pages' };
    }
    return f.title === 'exact' && f.authors === 'strong'
      ? { verdict: 'uncertain', reason: 'generic/short title and authors agree, but the journal locator does not confirm' }
      : { verdict: 'distinct', reason: 'generic/short title without a confirming journal locator' };
  }

  // Journal names are exported in many forms; a differing name is overruled by an equal volume.
  const venueOk = f.venue !== 'different' || f.volume === 'same';
  const pagesOk = f.pages !== 'conflict';
  // Where a record has no pages, the issue is all that places the item in its volume, and a
  // different issue means a different item (a column printed in every issue under one title and
  // one author; the authors' reply a later issue prints under the article's title). A short title is such a column's, so there the issue counts whatever the pages
  // say: one issue may be exported without them, and journals paginating each issue anew print
  // the column on the same pages every time.
  const anotherIssueOfTheVolume = f.otherIssue && f.volume === 'same' && ((f.pages === 'missing' && !f.articleNumberAsIssue) || f.minContentWords < SHORT_TITLE_CONTENT_WORDS);

  // Rule A: same title (exact; or with typos / cut short when the locator also agrees).
  if ((f.title === 'exact' || f.title === 'near' || f.title === 'prefix') && venueOk && pagesOk && !anotherIssueOfTheVolume) {
    // Exact titles: same first author, or the printed place agrees. Typo/truncated titles: strong
    // author agreement, or (no authors) the full locator.
    const authorsOk =
      f.title === 'exact'
        ? f.authors === 'strong' || (f.authors === 'partial' && f.firstAuthor) || locatorSupport(f)
        : f.authors === 'strong' || (f.authors === 'missing' && fullLocator(f));
    // Titles of three or four content words recur across a career: the printed place must agree,
    // or the venue and its year, with the same authors (one conference paper or review a year
    // under one title; a column printed in every issue is told apart by its issues above).
    const sameVenueYear = f.title === 'exact' && f.authors === 'strong' && (f.venue === 'same' || f.venue === 'compatible') && f.year === 'same';
    // A record naming no issue cannot say which issue's column it is: there only the pages place it.
    const columnUnplaced = f.issueOnOneSide && f.pages !== 'same' && f.pages !== 'end';
    const lengthOk = f.minContentWords >= SHORT_TITLE_CONTENT_WORDS || (!columnUnplaced && (locatorSupport(f) || sameVenueYear));
    // A typo-level difference can also be a real one (hypo-/hyper-): the printed place must agree.
    // A title cut short also names the series or main title a later item extends ("Case records of
    // the Massachusetts General Hospital. …", "X: 90-day outcomes by age"): only the pages confirm.
    const supportOk = f.title === 'exact' || (f.title === 'near' ? nearSupport(f) : f.pages === 'same' || f.pages === 'end');
    if (authorsOk && supportOk && lengthOk) return { verdict: 'duplicate', reason: `rule A: ${f.title} title, ${f.authors} authors, no conflicting field` };
  }

  // Rule B: a long identical title by the same authors in the same journal volume is the same
  // work even where pages or issue differ: the meeting abstract printed earlier in the volume than
  // the full paper, the same abstract printed twice, a page misprint. Not a single page printed
  // after the article in that volume: that is where an erratum notice indexed under the original
  // title sits, and errata never merge with the original.
  if (
    f.title === 'exact' &&
    f.bothArticles &&
    !f.singlePageAfterRange &&
    f.minContentWords >= RULE_B_MIN_CONTENT_WORDS &&
    f.authors === 'strong' &&
    (f.venue === 'same' || f.venue === 'compatible') &&
    f.volume === 'same' &&
    !anotherIssueOfTheVolume
  ) {
    return { verdict: 'duplicate', reason: 'rule B: long identical title, same authors, journal and volume; pages differ' };
  }

  // Rule C: reworded or translated title, confirmed by journal, volume and a full page range; for
  // conference proceedings, by the conference, its year and the range.
  // A range from page 1 is every article-numbered item's: there the issue and the authors must agree too.
  const rangePlaces = fullLocator(f) && f.sameRange && (!f.rangeFromPageOne || (f.issue === 'same' && f.authors === 'strong'));
  if ((f.title === 'similar' || f.title === 'prefix' || f.title === 'near') && (rangePlaces || proceedingsRange(f)) && f.firstAuthor) {
    return { verdict: 'duplicate', reason: `rule C: ${f.title} title confirmed by journal, volume and page range` };
  }

  // A title in another language (no words shared): the whole printed place must agree, issue
  // included, with the same authors.
  if (f.title === 'different' && fullLocator(f) && f.issue === 'same' && f.sameRange && f.authors === 'strong') {
    return { verdict: 'duplicate', reason: 'rule C: different title (a translation?) confirmed by journal, volume, issue, page range and authors' };
  }

  if ((f.title === 'exact' || f.title === 'near') && (f.authors === 'strong' || f.authors === 'partial')) {
    return { verdict: 'uncertain', reason: 'same title and authors, but journal or pages disagree (abstract, erratum notice or a second venue?)' };
  }
  return { verdict: 'distinct', reason: 'no rule matched' };
}

/**
 * Rule E: two different items one record names by printed place are collated as one work, as a
 * systematic review collates every report of a study: the erratum an article's database record
 * says appeared at that volume and issue/page, or a letter and reply inside a "(multiple letters)"
 * record. Same title, journal and volume; no conflicting identifier, year or authors.
 */
function crossReferenced(f: PairFeatures): boolean {
  if (f.crossReference === null) return false;
  if (f.identifiers === 'conflict' || f.parts === 'conflict' || f.year === 'conflict' || f.authors === 'conflict') return false;
  const sameJournalVolume = (f.venue === 'same' || f.venue === 'compatible') && f.volume === 'same';
  const sameTitle = f.title === 'exact' || f.title === 'near' || f.title === 'prefix';
  // A combined letters record and its letters are one issue; an erratum appears in a later issue.
  const issueOk = f.crossReference === 'erratum note' || f.issue !== 'conflict';
  return sameJournalVolume && sameTitle && issueOk;
}

export function scorePair(a: DedupRecord, b: DedupRecord): PairScore {
  const features = pairFeatures(prepare(a), prepare(b));
  const { verdict, reason, otherVersion } = verdictOf(features);
  if (verdict !== 'duplicate' && crossReferenced(features)) {
    return { score: agreementScore(features), verdict: 'duplicate', reasons: [`rule E: ${features.crossReference} names the other item by its printed place`, describe(features)], linked: true, otherVersion: false };
  }
  return { score: agreementScore(features), verdict, reasons: [reason, describe(features)], linked: false, otherVersion: otherVersion === true };
}
