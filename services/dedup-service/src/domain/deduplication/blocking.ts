// Candidate blocking: the keys a record is filed and looked up under. Every positive rule in
// score.ts is reachable through at least one key both records share, while each key stays narrow
// (a title stem within a two-year window, a volume + page pair, an identifier).

import { type DedupRecord } from './record';
import { prepare } from './score';

/** Content words of the title stem and tail keys. */
export const TITLE_KEY_WORDS = 5;
/** Content words of the year-less key (for a record without a year); only titles this long get one. */
export const YEARLESS_KEY_WORDS = 7;
const YEARLESS_MIN_WORDS = 6;

/**
 * Year buckets: a record of year y is filed under y and y + 1, so two records at most one year
 * apart always share a bucket (y and y + 1 share y + 1).
 */
function yearBuckets(year: number | null): string[] {
  return year === null ? [] : [String(year), String(year + 1)];
}

/** Keys under which a record is filed and looked up; two records that may be duplicates must share
 *  at least one key (recall), while keys stay selective (each key should hit few records even in a
 *  100k-reference store). */
export function blockingKeys(record: DedupRecord): string[] {
  const prepared = prepare(record);
  const keys = new Set<string>();
  for (const [type, value] of prepared.uniqueIds) keys.add(`id:${type}:${value}`);

  const title = prepared.title;
  const years = yearBuckets(record.year);
  if (title) {
    const words = title.contentWords.length > 0 ? title.contentWords : title.words;
    if (title.weak) {
      // Generic or short titles ("Editorial", "Eculizumab") recur: only with the first author is
      // the title selective; without authors only the locator key below can find a duplicate
      // (rule D needs the locator anyway).
      const firstAuthor = prepared.authors[0]?.surname;
      if (firstAuthor !== undefined) for (const year of years) keys.add(`tw:${title.key}:${firstAuthor}:${year}`);
    } else {
      // Head and tail stems: a typo or a truncation spoils at most one of the two.
      const head = words.slice(0, TITLE_KEY_WORDS).join(' ');
      const tail = words.slice(-TITLE_KEY_WORDS).join(' ');
      for (const year of years) {
        keys.add(`th:${head}:${year}`);
        keys.add(`tt:${tail}:${year}`);
      }
      if (words.length >= YEARLESS_MIN_WORDS) keys.add(`tx:${words.slice(0, YEARLESS_KEY_WORDS).join(' ')}`);
    }
  }
  // The printed locator (journal initial + volume + first or last page) reaches reworded or
  // translated titles, generic titles and title-less records; every rule that relies on it needs
  // a journal on both sides, and an abbreviation keeps the initial ("J Thromb Haemost").
  const venueInitial = prepared.venue?.tokens[0]?.[0];
  if (venueInitial !== undefined && prepared.volume !== null && prepared.pages !== null) {
    if (prepared.pages.first !== null) keys.add(`lp:${venueInitial}:${prepared.volume}:${prepared.pages.first}`);
    if (prepared.pages.last !== null) keys.add(`ll:${venueInitial}:${prepared.volume}:${prepared.pages.last}`);
  }
  return [...keys].sort();
}

/**
 * Whether a reference of `year` can be a duplicate of a candidate filed with `candidateYears`
 * (every year its content has had): publication years more than one apart are a veto in
 * score.ts, so such a candidate is not read or scored at all. The journal-locator keys find
 * references of any year (journal initial, volume and page recur across years), so in a large
 * store most of what they find is cut here. An unknown year on either side passes.
 */
export function yearsMayMatch(year: number | null, candidateYears: readonly number[] | undefined): boolean {
  if (year === null || candidateYears === undefined || candidateYears.length === 0) return true;
  return candidateYears.some((candidate) => Math.abs(candidate - year) <= 1);
}
