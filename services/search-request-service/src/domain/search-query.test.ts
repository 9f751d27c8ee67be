import { ServiceError } from '@destiny/platform';
import { annotationFilter, buildSearchQuery, buildSort, pageOffset } from './search-query';

const QUERY_STRING = { query_string: { query: 'x', fields: ['title', 'abstract'], default_operator: 'OR' } };

describe('search query (§7.3)', () => {
  it('when only q is given, then it is a query_string over title and abstract', () => {
    expect(buildSearchQuery({ q: 'x' })).toEqual(QUERY_STRING);
  });

  it('when filters are given, then they are ANDed as non-scoring filters', () => {
    expect(buildSearchQuery({ q: 'x', start_year: 2000, end_year: 2001, concept: ['a, b', 'c'], country: ['ke,ug'], country_wb_region: ['ssf'] })).toEqual({
      bool: {
        must: [QUERY_STRING],
        filter: [
          { range: { publication_year: { gte: 2000, lte: 2001 } } },
          { terms: { linked_data_concepts: ['a', 'b'] } },
          { terms: { linked_data_concepts: ['c'] } },
          { terms: { linked_data_countries: ['KE', 'UG'] } },
          { terms: { linked_data_country_wb_regions: ['SSF'] } },
        ],
      },
    });
  });

  it.each([
    ['topic', { prefix: { annotations: 'topic/' } }],
    ['topic/climate', { term: { annotations: 'topic/climate' } }],
    ['inclusion:destiny@0.5', { range: { inclusion_destiny: { gte: 0.5 } } }],
    ['inclusion:destiny/include@1', { range: { inclusion_destiny_include: { gte: 1 } } }],
  ])('when the annotation filter is %p, then it becomes %p', (raw, expected) => {
    expect(annotationFilter(raw)).toEqual(expected);
  });

  it.each(['', '/x', 'scheme/', 'a@', 'a@-0.1', 'a@2', 'a@x'])('when the annotation filter is %p, then it is a 400', (raw) => {
    expect(() => annotationFilter(raw)).toThrow(ServiceError);
  });

  it('when no sort is given, then relevance then id descending; otherwise the fields then id', () => {
    expect(buildSort(undefined)).toEqual([{ _score: { order: 'desc' } }, { id: { order: 'desc' } }]);
    expect(buildSort(['-relevance'])).toEqual([{ _score: { order: 'asc' } }, { id: { order: 'desc' } }]);
    expect(buildSort(['publication_year', '-inclusion_destiny'])).toEqual([{ publication_year: { order: 'asc' } }, { inclusion_destiny: { order: 'desc' } }, { id: { order: 'desc' } }]);
  });

  it('when a free-text or unknown field is a sort key, then it is a 400', () => {
    for (const field of ['title', '-abstract', 'authors', 'linked_data_labels', 'nope']) {
      expect(() => buildSort([field])).toThrow(expect.objectContaining({ httpStatus: 400 }) as Error);
    }
  });

  it('when a page is asked, then the offset stays within the 10,000-result window', () => {
    expect(pageOffset(1)).toBe(0);
    expect(pageOffset(500)).toBe(9980);
    expect(() => pageOffset(501)).toThrow(ServiceError);
    expect(() => pageOffset(0)).toThrow(ServiceError);
  });
});
