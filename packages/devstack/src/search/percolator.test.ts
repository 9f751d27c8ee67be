import { Mapping, normalizeMapping } from './field-mapping';
import { SegmentSet } from './index-segment';
import { PercolateQuery, PercolatorStore, compileRecordingFields } from './percolator';
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

describe('percolating with only the fields stored queries read', () => {
  const percolatorMapping = new Mapping(
    normalizeMapping({
      properties: {
        query: { type: 'percolator' },
        title: { type: 'text', fields: { raw: { type: 'keyword' } } },
        year: { type: 'long' },
        tags: { type: 'keyword' },
        items: { type: 'nested', properties: { kind: { type: 'keyword' }, note: { type: 'text' } } },
      },
    }),
    new AnalyzerRegistry(undefined),
  );
  const documents = [
    { title: 'Deep sea fish', year: 2001, tags: ['a'], items: [{ kind: 'x', note: 'large' }], extra: { free: 'text' } },
    { title: 'Shallow reef', tags: ['b', 'a'], items: [{ kind: 'y' }, { kind: 'x', note: 'small fish' }] },
    { year: 1999, items: [] },
  ];

  /** Score and slots of each matching stored query, with the store's field set (fast path) or every field indexed. */
  function slotsPerQuery(queries: unknown[], fullParsing: boolean): { slots: Record<number, unknown[]>; fields: ReadonlySet<string> | null } {
    const store = new PercolatorStore();
    queries.forEach((query, doc) => {
      const { query: compiled, fields } = compileRecordingFields(percolatorMapping, (recording) => compileQuery(query, { mapping: recording, strict: true, now: 0 }));
      store.add(doc, compiled, fields);
    });
    const percolate = new PercolateQuery('query', documents, percolatorMapping, undefined, fullParsing ? undefined : () => store);
    const hitFields = new Map<number, Record<string, unknown[]>>();
    const segments = new SegmentSet(() => '');
    const result = percolate.execute({ segments, level: '', scoring: true, now: 0, percolators: () => store, hitFields });
    const slots: Record<number, unknown[]> = {};
    result.docs.forEach((doc, position) => (slots[doc] = [result.scores[position], ...(hitFields.get(doc)?._percolator_document_slot ?? [])]));
    return { slots, fields: store.fieldsInUse().fields };
  }

  test.each([
    ['a term and a match on referenced fields', [{ term: { tags: 'a' } }, { match: { title: 'fish' } }, { term: { 'title.raw': 'Shallow reef' } }]],
    ['nested queries', [{ nested: { path: 'items', query: { bool: { must: [{ term: { 'items.kind': 'x' } }, { match: { 'items.note': 'fish' } }] } } } }, { nested: { path: 'items', query: { match_all: {} } } }]],
    ['exists and missing fields', [{ exists: { field: 'year' } }, { bool: { must_not: [{ exists: { field: 'title' } }] } }, { exists: { field: 'items.note' } }]],
    ['a query_string over every field (the fallback)', [{ query_string: { query: 'fish OR text' } }, { term: { tags: 'b' } }]],
  ])('when stored queries use %s, then the fast path gives the slots of full parsing', (_name, queries) => {
    const fast = slotsPerQuery(queries, false);
    const full = slotsPerQuery(queries, true);
    expect(fast.slots).toEqual(full.slots);
    expect(Object.keys(full.slots).length).toBeGreaterThan(0);
  });

  test('when a stored query reads named fields, then only those are indexed; an undeterminable one needs all', () => {
    expect(slotsPerQuery([{ bool: { filter: [{ term: { tags: 'a' } }, { nested: { path: 'items', query: { exists: { field: 'items.kind' } } } }] } }], false).fields).toEqual(new Set(['tags', 'items.kind']));
    expect(slotsPerQuery([{ term: { tags: 'a' } }, { query_string: { query: 'fish' } }], false).fields).toBeNull();
  });

  test('when a query is stored after the percolation was compiled, then it still sees the fields it reads', () => {
    const store = new PercolatorStore();
    const compileStored = (query: unknown) => compileRecordingFields(percolatorMapping, (recording) => compileQuery(query, { mapping: recording, strict: true, now: 0 }));
    const first = compileStored({ term: { tags: 'a' } });
    store.add(0, first.query, first.fields);
    const percolate = new PercolateQuery('query', documents, percolatorMapping, undefined, () => store);
    const second = compileStored({ range: { year: { gte: 2000 } } });
    store.add(1, second.query, second.fields);
    const hitFields = new Map<number, Record<string, unknown[]>>();
    const result = percolate.execute({ segments: new SegmentSet(() => ''), level: '', scoring: false, now: 0, percolators: () => store, hitFields });
    expect([...result.docs]).toEqual([0, 1]);
    expect(hitFields.get(1)?._percolator_document_slot).toEqual([0]);
  });

  test('when an unindexed field holds a malformed value, then percolation fails as with full parsing', () => {
    const store = new PercolatorStore();
    const { query, fields } = compileRecordingFields(percolatorMapping, (recording) => compileQuery({ term: { tags: 'a' } }, { mapping: recording, strict: true, now: 0 }));
    store.add(0, query, fields);
    expect(() => new PercolateQuery('query', [{ tags: 'a', year: 'not a year' }], percolatorMapping, undefined, () => store)).toThrow(/failed to parse field \[year\]/);
  });
});

describe('percolating many documents in one request', () => {
  const manyMapping = new Mapping(
    normalizeMapping({
      properties: {
        query: { type: 'percolator' },
        kind: { type: 'keyword' },
        tags: { type: 'keyword' },
        items: { type: 'nested', properties: { type: { type: 'keyword' }, notes: { type: 'nested', properties: { label: { type: 'keyword' } } } } },
      },
    }),
    new AnalyzerRegistry(undefined),
  );
  const queries = [
    { term: { kind: 'a' } },
    { bool: { filter: [{ term: { kind: 'b' } }, { nested: { path: 'items', query: { terms: { 'items.type': ['x', 'y'] } } } }] } },
    { bool: { must: [{ nested: { path: 'items.notes', query: { term: { 'items.notes.label': 'l1' } } } }], must_not: [{ term: { tags: 't0' } }] } },
    { bool: { should: [{ term: { tags: 't1' } }, { term: { kind: 'c' } }] } },
    { bool: { must_not: [{ term: { kind: 'a' } }] } },
  ];
  // 75 documents: slots span three 32-bit words, the last one partly.
  const documents = Array.from({ length: 75 }, (_, slot) => ({
    kind: ['a', 'b', 'c'][slot % 3],
    tags: slot % 4 === 0 ? [] : [`t${slot % 5}`],
    items: Array.from({ length: slot % 3 }, (_item, item) => ({ type: ['x', 'y', 'z'][(slot + item) % 3], notes: slot % 7 === 0 ? [{ label: `l${item}` }] : [] })),
  }));

  function percolate(batch: Array<Record<string, unknown>>): Map<number, { score: number; slots: unknown[] }> {
    const store = new PercolatorStore();
    queries.forEach((query, doc) => {
      const { query: compiled, fields } = compileRecordingFields(manyMapping, (recording) => compileQuery(query, { mapping: recording, strict: true, now: 0 }));
      store.add(doc, compiled, fields);
    });
    const hitFields = new Map<number, Record<string, unknown[]>>();
    const result = new PercolateQuery('query', batch, manyMapping, undefined, () => store).execute({ segments: new SegmentSet(() => ''), level: '', scoring: true, now: 0, percolators: () => store, hitFields });
    return new Map([...result.docs].map((doc, position) => [doc, { score: result.scores[position], slots: hitFields.get(doc)?._percolator_document_slot ?? [] }]));
  }

  test('when documents are percolated together, then each stored query matches the slots it matches one document at a time', () => {
    const alone = new Map<number, number[]>();
    documents.forEach((document, slot) => {
      for (const doc of percolate([document]).keys()) alone.set(doc, [...(alone.get(doc) ?? []), slot]);
    });
    const together = percolate(documents);
    expect(new Map([...together].map(([doc, hit]) => [doc, hit.slots]))).toEqual(alone);
    expect(together.size).toBe(queries.length);
  });
});
