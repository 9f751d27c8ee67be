import { Mapping, normalizeMapping } from './field-mapping';
import { PercolatorStore } from './percolator';
import { compileQuery } from './query.compiler';
import { termKey } from './query.model';
import { AnalyzerRegistry } from './text-analysis';

const mapping = new Mapping(
  normalizeMapping({
    properties: {
      kind: { type: 'keyword' },
      source: { type: 'keyword' },
      items: { type: 'nested', properties: { type: { type: 'keyword' } } },
    },
  }),
  new AnalyzerRegistry(undefined),
);

function compile(query: unknown) {
  return compileQuery(query, { mapping, strict: true, now: 0 });
}

describe('required terms of stored queries', () => {
  test('when a bool has several required clauses, then each contributes a set that must be hit', () => {
    const query = compile({ bool: { filter: [{ term: { kind: 'a' } }, { nested: { path: 'items', query: { terms: { 'items.type': ['x', 'y'] } } } }], must_not: [{ term: { source: 's' } }] } });
    expect(query.requiredTerms()).toEqual([new Set([termKey('kind', 'a')]), new Set([termKey('items.type', 'x'), termKey('items.type', 'y')])]);
  });

  test('when a bool has only should clauses, then any of their terms is required', () => {
    const query = compile({ bool: { should: [{ term: { kind: 'a' } }, { term: { source: 'b' } }] } });
    expect(query.requiredTerms()).toEqual([new Set([termKey('kind', 'a'), termKey('source', 'b')])]);
  });

  test('when a query is purely negative or exists-based, then nothing is required', () => {
    expect(compile({ bool: { must_not: [{ term: { kind: 'a' } }] } }).requiredTerms()).toBeNull();
    expect(compile({ exists: { field: 'kind' } }).requiredTerms()).toBeNull();
  });
});

describe('candidate selection', () => {
  test('when a document lacks one of the required sets, then the stored query is not a candidate', () => {
    const store = new PercolatorStore();
    store.add(0, compile({ bool: { filter: [{ term: { kind: 'a' } }, { term: { source: 's1' } }] } }));
    store.add(1, compile({ term: { kind: 'b' } }));
    store.add(2, compile({ bool: { must_not: [{ term: { kind: 'a' } }] } }));
    expect(store.candidates(new Set([termKey('kind', 'a'), termKey('source', 's2')]))).toEqual([2]);
    expect(store.candidates(new Set([termKey('kind', 'a'), termKey('source', 's1')]))).toEqual([0, 2]);
    expect(store.candidates(new Set([termKey('kind', 'b')]))).toEqual([1, 2]);
  });
});
