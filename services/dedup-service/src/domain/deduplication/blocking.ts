// Candidate blocking: the keys a record is filed and looked up under. Every positive rule in
// score.ts is reachable through at least one key both records share, while each key stays narrow
// (a title stem within a two-year window, a volume + page pair, an identifier).

import { type DedupRecord } from './record';
import { prepare } from './score';

/** Content words of the title head key. */
export const TITLE_KEY_WORDS = 5;
/** Letters of the title tail key (content words run together: about five words). */
export const TITLE_TAIL_CHARS = 36;
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

/**
 * A record's keys: `filed` are those it is stored under, `probed` those it looks candidates up
 * under. Two records that may be duplicates must meet whichever arrives first: the later one's
 * probed keys include one of the earlier one's filed keys (recall), while keys stay selective
 * (each key should hit few records even in a large store). Identifier and title keys are both
 * filed and probed; the journal-locator keys are not (see `locatorKeys`).
 */
export function blockingKeySets(record: DedupRecord): { filed: string[]; probed: string[] } {
  const prepared = prepare(record);
  const both = new Set<string>();
  for (const [type, value] of prepared.uniqueIds) both.add(`id:${type}:${value}`);

  const title = prepared.title;
  const years = yearBuckets(record.year);
  if (title) {
    const words = title.contentWords.length > 0 ? title.contentWords : title.words;
    if (title.weak) {
      // Generic or short titles ("Editorial", "Eculizumab") recur: only with the first author is
      // the title selective; without authors only the locator key below can find a duplicate
      // (rule D needs the locator anyway).
      const firstAuthor = prepared.authors[0]?.surname;
      if (firstAuthor !== undefined) for (const year of years) both.add(`tw:${title.key}:${firstAuthor}:${year}`);
    } else {
      // Head and tail stems: a typo or a truncation spoils at most one of the two. The tail is cut
      // from the content words run together, so a word one export splits and another joins
      // ("p16(INK4a)" / "p16INK4a", "COVID-19" / "COVID19", "well-being" / "wellbeing"), which shifts
      // every word-counted stem of a short title, leaves it whole; the head, counted in words, stays
      // whole in a title cut short.
      const head = words.slice(0, TITLE_KEY_WORDS).join(' ');
      const tail = words.join('').slice(-TITLE_TAIL_CHARS);
      for (const year of years) {
        both.add(`th:${head}:${year}`);
        both.add(`tt:${tail}:${year}`);
      }
      if (words.length >= YEARLESS_MIN_WORDS) both.add(`tx:${words.slice(0, YEARLESS_KEY_WORDS).join(' ')}`);
    }
  }
  const filed = new Set(both);
  const probed = new Set(both);
  // The printed locator (journal initial + volume + first or last page) reaches reworded or
  // translated titles, generic titles and title-less records; every rule that relies on it needs
  // a journal on both sides, and an abbreviation keeps the initial ("J Thromb Haemost").
  const venueInitial = prepared.venue?.tokens[0]?.[0];
  if (venueInitial !== undefined && prepared.volume !== null && prepared.pages !== null) {
    const places = [
      ...(prepared.pages.first !== null ? [`lp:${venueInitial}:${prepared.volume}:${prepared.pages.first}`] : []),
      ...(prepared.pages.last !== null ? [`ll:${venueInitial}:${prepared.volume}:${prepared.pages.last}`] : []),
    ];
    for (const place of places) {
      const keys = locatorKeys(place, record.year);
      for (const key of keys.filed) filed.add(key);
      for (const key of keys.probed) probed.add(key);
    }
  }
  return { filed: [...filed].sort(), probed: [...probed].sort() };
}

/**
 * A journal locator recurs across years (journal initial, volume and page), so its keys carry the
 * year: a record of year y is filed under y and probes y − 1, y and y + 1 (the year veto allows
 * nothing further apart). A record without a year is filed under "-" and probes "*", under which
 * every record is also filed, so it meets records of any year and they meet it through "-".
 * The locator alone (`place`, how keys were written before they carried years) is probed too, so
 * references filed that way stay reachable.
 */
function locatorKeys(place: string, year: number | null): { filed: string[]; probed: string[] } {
  if (year === null) return { filed: [`${place}:-`, `${place}:*`], probed: [`${place}:*`, place] };
  return { filed: [`${place}:${year}`, `${place}:*`], probed: [`${place}:${year - 1}`, `${place}:${year}`, `${place}:${year + 1}`, `${place}:-`, place] };
}

/**
 * The version of how records are filed: changes whenever normalisation or the key rules file a record
 * under other keys, so references filed in an earlier format are filed again (refile-blocking-keys.usecase.ts).
 */
export const blockingFormat = 3;

/** The keys a record is filed under (see `blockingKeySets`). */
export function blockingKeys(record: DedupRecord): string[] {
  return blockingKeySets(record).filed;
}

/** The keys a record looks its candidates up under (see `blockingKeySets`). */
export function probeKeys(record: DedupRecord): string[] {
  return blockingKeySets(record).probed;
}

/**
 * Whether a reference of `year` can be a duplicate of a candidate filed with `candidateYears`
 * (every year its content has had): publication years more than one apart are a veto in
 * score.ts, so such a candidate is not read or scored at all. The journal-locator keys find
 * references of any year for a record without one, and references filed before their keys carried
 * years, so what they find is cut here. An unknown year on either side passes.
 */
export function yearsMayMatch(year: number | null, candidateYears: readonly number[] | undefined): boolean {
  if (year === null || candidateYears === undefined || candidateYears.length === 0) return true;
  return candidateYears.some((candidate) => Math.abs(candidate - year) <= 1);
}
