import { blockingKeys, probeKeys, yearsMayMatch } from './blocking';
import { labelledLineToView } from './evaluation';
import { loadHaematologySample } from './labelled-sample.fixture';
import { toDedupRecord } from './record';
import { scorePair } from './score';
import { type DedupRecord } from './record';
import { dedupRecord } from './record.fixture';

const record = (fields: Partial<DedupRecord> = {}): DedupRecord => dedupRecord({ authors: ['Zuber, J.', 'Le Quintrec, M.'], ...fields });

/** Whether `later`, looking its candidates up, finds `earlier` as filed. */
function finds(later: DedupRecord, earlier: DedupRecord): boolean {
  const filed = new Set(blockingKeys(earlier));
  return probeKeys(later).some((key) => filed.has(key));
}

/** Whether the two meet through a key whichever arrives first. */
function share(a: DedupRecord, b: DedupRecord): boolean {
  return finds(a, b) && finds(b, a);
}

describe('blockingKeys', () => {
  it('when the same record is exported with formatting differences, then both share a key', () => {
    expect(share(record(), record({ title: 'COMPLEMENT FACTOR H MUTATIONS IN ATYPICAL HEMOLYTIC-UREMIC SYNDROME - A COHORT STUDY. [Review]', volume: null, pages: null }))).toBe(true);
  });

  it('when the years are one apart, then they still share a key; when further apart and nothing else agrees, then not', () => {
    expect(share(record({ year: 2011, volume: null }), record({ year: 2012, volume: null }))).toBe(true);
    expect(share(record({ year: 2010, volume: null }), record({ year: 2011, volume: null }))).toBe(true);
    expect(share(record({ year: 2009, title: 'Short title here now', volume: null }), record({ year: 2011, title: 'Short title here now', volume: null }))).toBe(false);
  });

  it('when one title has a typo early and the other is truncated late, then the head or tail stem still matches', () => {
    expect(share(record({ volume: null }), record({ title: 'Complemnt factor H mutations in atypical haemolytic uraemic syndrome: a cohort study', volume: null }))).toBe(true);
    expect(share(record({ volume: null }), record({ title: 'Complement factor H mutations in atypical haemolytic uraemic synd', volume: null }))).toBe(true);
  });

  it('when a record has no year, then a long title still meets its duplicate through the year-less key', () => {
    expect(share(record({ year: null, volume: null }), record({ volume: null }))).toBe(true);
  });

  it('when titles are reworded but volume and first page agree, then the locator key matches', () => {
    expect(share(record({ title: 'Something else entirely in Spanish' }), record())).toBe(true);
    expect(share(record({ title: null }), record())).toBe(true);
  });

  it('when only the journal, volume and page agree, then records meet if their years are at most one apart or one has no year, and not otherwise', () => {
    const place = (title: string, year: number | null) => record({ title, year, authors: ['Other, A.'] });
    expect(share(place('A first title about one thing entirely', 2011), place('A second title about something else', 2012))).toBe(true);
    expect(share(place('A first title about one thing entirely', 2011), place('A second title about something else', null))).toBe(true);
    expect(share(place('A first title about one thing entirely', null), place('A second title about something else', null))).toBe(true);
    expect(finds(place('A first title about one thing entirely', 2011), place('A second title about something else', 2013))).toBe(false);
    expect(finds(place('A first title about one thing entirely', 2013), place('A second title about something else', 2011))).toBe(false);
  });

  it('when a reference was filed under a locator key without a year (as before keys carried years), then a new record still finds it', () => {
    const subject = record({ title: 'A second title about something else', authors: ['Other, A.'] });
    const legacyLocatorKeys = blockingKeys(subject).filter((key) => key.startsWith('lp:') || key.startsWith('ll:')).map((key) => key.slice(0, key.lastIndexOf(':')));
    expect(legacyLocatorKeys.length).toBeGreaterThan(0);
    expect(probeKeys(record({ title: 'A first title about one thing entirely' })).filter((key) => legacyLocatorKeys.includes(key))).not.toHaveLength(0);
  });

  it('when a title is generic, then its key includes the first author, so editorials of other authors are not candidates', () => {
    expect(share(record({ title: 'Editorial', authors: ['Smith, J.'], volume: null }), record({ title: 'Editorial', authors: ['Brown, A.'], volume: null }))).toBe(false);
    expect(share(record({ title: 'Editorial', authors: ['Smith, J.'], volume: null }), record({ title: 'Editorial.', authors: ['Smith, J'], volume: null }))).toBe(true);
  });

  it('when records share a DOI, then they share a key whatever the rest', () => {
    expect(share(record({ doi: '10.1000/ABC', title: 'One', year: 1990, volume: null }), record({ doi: '10.1000/abc', title: 'Two', year: 2020, volume: null }))).toBe(true);
  });

  it('when called twice on the same record, then the keys are identical and sorted', () => {
    const subject = record();
    expect(blockingKeys(subject)).toEqual(blockingKeys({ ...subject }));
    expect(blockingKeys(subject)).toEqual([...blockingKeys(subject)].sort());
    expect(probeKeys(subject)).toEqual([...probeKeys(subject)].sort());
  });
});

describe('yearsMayMatch', () => {
  it('when the candidate was filed with a year at most one apart, then it may match; when every filed year is further apart, then not', () => {
    expect(yearsMayMatch(2011, [2011])).toBe(true);
    expect(yearsMayMatch(2011, [2012])).toBe(true);
    expect(yearsMayMatch(2011, [2010])).toBe(true);
    expect(yearsMayMatch(2011, [2013])).toBe(false);
    expect(yearsMayMatch(2011, [1990, 2009])).toBe(false);
    expect(yearsMayMatch(2011, [1990, 2012])).toBe(true);
  });

  it('when either year is unknown, then the candidate may match', () => {
    expect(yearsMayMatch(null, [2011])).toBe(true);
    expect(yearsMayMatch(2011, undefined)).toBe(true);
    expect(yearsMayMatch(2011, [])).toBe(true);
  });

  it('when the labelled sample\'s pairs that share a blocking key are filtered by year, then every pair left out is one scoring rules out as distinct', () => {
    const records = loadHaematologySample().lines.map((line) => toDedupRecord(labelledLineToView(line)));
    const byKey = new Map<string, typeof records>();
    for (const item of records) for (const key of [...blockingKeys(item), ...probeKeys(item)]) byKey.set(key, [...(byKey.get(key) ?? []), item]);
    let leftOut = 0;
    for (const block of byKey.values()) {
      for (const a of block) {
        for (const b of block) {
          if (a === b || yearsMayMatch(a.year, b.year === null ? undefined : [b.year])) continue;
          leftOut += 1;
          expect(scorePair(a, b).verdict).toBe('distinct');
        }
      }
    }
    // The sample has pairs of this kind (a DOI-less set: titles and locators recur across years).
    expect(leftOut).toBeGreaterThan(0);
  });
});
