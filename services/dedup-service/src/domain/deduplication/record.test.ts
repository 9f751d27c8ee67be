import { toDedupRecord } from './record';

const bibliographic = (content: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  source: 'test',
  visibility: 'public',
  content: { enhancement_type: 'bibliographic', ...content },
  ...extra,
});

describe('toDedupRecord', () => {
  it('when a view has one bibliographic enhancement, then every field is taken from it', () => {
    const record = toDedupRecord({
      id: 'r1',
      identifiers: [
        { identifier: '10.1000/ABC', identifier_type: 'doi' },
        { identifier: 123, identifier_type: 'pm_id' },
        { identifier: 'id_1', identifier_type: 'other', other_identifier_name: 'benchmark_record_id' },
      ],
      enhancements: [
        bibliographic({
          title: 'A title',
          authorship: [
            { display_name: 'Last, L.', position: 'last' },
            { display_name: 'First, F.', position: 'first' },
            { display_name: 'Middle, M.', position: 'middle' },
          ],
          publication_year: 2011,
          publication_venue: { display_name: 'Blood' },
          pagination: { volume: '112', issue: '11', first_page: '800', last_page: '805' },
        }),
        { source: 'test', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'x' } },
      ],
    });
    expect(record).toEqual({
      id: 'r1',
      title: 'A title',
      authors: ['First, F.', 'Middle, M.', 'Last, L.'],
      year: 2011,
      venue: 'Blood',
      volume: '112',
      issue: '11',
      pages: '800-805',
      doi: '10.1000/ABC',
      identifiers: [
        { type: 'doi', value: '10.1000/ABC', name: null },
        { type: 'pm_id', value: '123', name: null },
        { type: 'other', value: 'id_1', name: 'benchmark_record_id' },
      ],
    });
  });

  it('when several bibliographic enhancements exist, then the newest wins per field and older ones fill gaps', () => {
    const record = toDedupRecord({
      id: 'r1',
      identifiers: [],
      enhancements: [
        bibliographic({ title: 'Old title', publication_year: 2010, publication_venue: { display_name: 'Old venue' } }, { created_at: '2024-01-01T00:00:00Z' }),
        bibliographic({ title: 'New title', publication_year: null }, { created_at: '2025-01-01T00:00:00Z' }),
      ],
    });
    expect(record).toMatchObject({ title: 'New title', year: 2010, venue: 'Old venue' });
  });

  it('when an enhancement is superseded, then the current one wins even if older', () => {
    const record = toDedupRecord({
      id: 'r1',
      identifiers: [],
      enhancements: [
        bibliographic({ title: 'Current title' }, { id: 'e1', created_at: '2024-01-01T00:00:00Z' }),
        bibliographic({ title: 'Replaced title' }, { id: 'e2', created_at: '2025-01-01T00:00:00Z', superseded_by: 'e1' }),
        bibliographic({ title: 'Parent title' }, { id: 'e3', created_at: '2026-01-01T00:00:00Z' }),
        bibliographic({ pagination: { volume: '3' } }, { id: 'e4', created_at: '2023-01-01T00:00:00Z', derived_from: ['e3'] }),
      ],
    });
    expect(record).toMatchObject({ title: 'Current title', volume: '3' });
  });

  it('when fields are empty, blank or only a publication date is given, then they are null or derived', () => {
    const record = toDedupRecord({
      id: 'r1',
      identifiers: [null, { identifier_type: 'doi' }],
      enhancements: [bibliographic({ title: '  ', publication_date: '2019-05-01', pagination: { first_page: '\u00a0e1234 ', last_page: null } })],
    });
    expect(record).toEqual({ id: 'r1', title: null, authors: [], year: 2019, venue: null, volume: null, issue: null, pages: 'e1234', doi: null, identifiers: [] });
  });

  it('when a view has no enhancements, then only identifiers are filled', () => {
    expect(toDedupRecord({ id: 'r1', identifiers: [], enhancements: [] })).toMatchObject({ title: null, authors: [], year: null, pages: null });
  });
});
