import { blockingKeys } from './blocking';
import { type DedupRecord } from './record';
import { dedupRecord } from './record.fixture';

const record = (fields: Partial<DedupRecord> = {}): DedupRecord => dedupRecord({ authors: ['Zuber, J.', 'Le Quintrec, M.'], ...fields });

function share(a: DedupRecord, b: DedupRecord): boolean {
  const keys = new Set(blockingKeys(a));
  return blockingKeys(b).some((key) => keys.has(key));
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
  });
});
