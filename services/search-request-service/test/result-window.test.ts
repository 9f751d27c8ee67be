import { uuidv7, type ReferenceIdsSearchResult, type ReferenceSearchResult } from '@destiny/contracts';
import { bibliographic, changed, startSearchHarness, view, type SearchHarness } from './search-fixtures';

// More matches than the 10,000-result window, indexed from events like any others.
describe('search-request-service result window', () => {
  let harness: SearchHarness;
  const total = 10_050;

  beforeAll(async () => {
    harness = await startSearchHarness('search-window');
    const events = Array.from({ length: total }, (_, position) => {
      const id = uuidv7();
      return changed(view(id, [bibliographic(id, { title: `Window study ${position}`, publication_year: 1900 + (position % 100) })]), 1);
    });
    await harness.index(events);
  }, 180_000);

  afterAll(async () => {
    await harness?.stop();
  });

  it('when more than 10,000 references match, then the total is 10,000 as a lower bound and the count is exact', async () => {
    const result = await harness.call<ReferenceSearchResult>('SearchReferences', { q: 'window' });
    expect(result.total).toEqual({ count: 10_000, is_lower_bound: true });
    expect(result.page).toEqual({ count: 20, number: 1 });
    expect(await harness.count('window')).toEqual({ count: total, is_lower_bound: false });
  });

  it('when page 500 is asked, then the last 20 results of the window come back; page 501 is refused', async () => {
    const last = await harness.call<ReferenceSearchResult>('SearchReferences', { q: 'window', page: 500, sort: ['-id'] });
    expect(last.page).toEqual({ count: 20, number: 500 });
    const ids = await harness.call<ReferenceIdsSearchResult>('SearchReferenceIds', { q: 'window', sort: ['-id'] });
    expect(ids.reference_ids).toHaveLength(10_000);
    expect(last.references.map((reference) => reference.id)).toEqual(ids.reference_ids.slice(9980));
    await expect(harness.call('SearchReferences', { q: 'window', page: 501 })).rejects.toMatchObject({ httpStatus: 422 });
  });
});
