// Query DSL, relevance, sorting, paging and response shaping through the official client.
import { type SearchFixture, esError, startSearchFixture } from './search-test-server';

let fixture: SearchFixture;

const papers = [
  { id: 'p1', title: 'The quick brown fox', abstract: 'A fox story about speed', authors: ['Ann Lee', 'Bob Stone'], year: 2019, published: '2019-05-01', score: 0.42, code: 'A-1', open: true },
  { id: 'p2', title: 'The lazy dog', abstract: 'Dogs sleeping all day', authors: ['Carla Diaz'], year: 2020, published: '2020-01-15', score: 0.9, code: 'B-2', open: false },
  { id: 'p3', title: 'Quick quick fox jumps over the lazy dog', abstract: 'Classic pangram with a fox and a dog', authors: ['Ann Lee'], year: 2021, published: '2021-12-31T23:00:00Z', score: 0.1, code: 'A-3', open: true },
  { id: 'p4', title: 'Café culture in Zürich', abstract: 'Coffee houses and their history', authors: ['Émile Zola'], year: 2018, code: 'C-4' },
];

async function ids(request: Parameters<SearchFixture['client']['search']>[0]): Promise<string[]> {
  const result = await fixture.client.search({ index: 'papers', ...request });
  return result.hits.hits.map((hit) => hit._id as string);
}

beforeAll(async () => {
  fixture = await startSearchFixture();
  await fixture.client.indices.create({
    index: 'papers',
    settings: { analysis: { analyzer: { folding: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] } } } },
    mappings: {
      properties: {
        title: { type: 'text', fields: { keyword: { type: 'keyword' } } },
        abstract: { type: 'text', analyzer: 'folding' },
        authors: { type: 'text' },
        year: { type: 'integer' },
        published: { type: 'date' },
        score: { type: 'scaled_float', scaling_factor: 100 },
        code: { type: 'keyword' },
        open: { type: 'boolean' },
        folded: { type: 'text', analyzer: 'folding' },
      },
    },
  });
  await fixture.client.bulk({
    refresh: true,
    operations: papers.flatMap(({ id, ...document }) => [{ index: { _index: 'papers', _id: id } }, { ...document, folded: document.title }]),
  });
});

afterAll(async () => {
  await fixture.close();
});

describe('relevance', () => {
  test('when a term matches two documents, then scores are BM25 with Lucene idf and length norms', async () => {
    const result = await fixture.client.search({ index: 'papers', query: { match: { title: 'fox' } } });
    // Oracle: idf = ln(1 + (N - n + 0.5) / (n + 0.5)), tf = f / (f + k1 (1 - b + b dl / avgdl)).
    const docCount = 4;
    const docFreq = 2;
    const averageLength = (4 + 3 + 8 + 4) / 4;
    const idf = Math.log(1 + (docCount - docFreq + 0.5) / (docFreq + 0.5));
    const score = (freq: number, length: number) => (idf * freq) / (freq + 1.2 * (1 - 0.75 + (0.75 * length) / averageLength));
    expect(result.hits.hits.map((hit) => hit._id)).toEqual(['p1', 'p3']);
    expect(result.hits.hits[0]._score).toBeCloseTo(score(1, 4), 5);
    expect(result.hits.hits[1]._score).toBeCloseTo(score(1, 8), 5);
    expect(result.hits.max_score).toBeCloseTo(score(1, 4), 5);
  });

  test('when equal scores tie, then hits keep index order', async () => {
    expect(await ids({ query: { constant_score: { filter: { exists: { field: 'code' } } } } })).toEqual(['p1', 'p2', 'p3', 'p4']);
  });

  test('when dis_max combines clauses, then the best score plus tie_breaker times the others counts', async () => {
    const single = await fixture.client.search({ index: 'papers', query: { match: { title: 'fox' } } });
    const abstractOnly = await fixture.client.search({ index: 'papers', query: { match: { abstract: 'fox' } } });
    const combined = await fixture.client.search({ index: 'papers', query: { dis_max: { tie_breaker: 0.5, queries: [{ match: { title: 'fox' } }, { match: { abstract: 'fox' } }] } } });
    const titleScore = single.hits.hits.find((hit) => hit._id === 'p1')?._score as number;
    const abstractScore = abstractOnly.hits.hits.find((hit) => hit._id === 'p1')?._score as number;
    const expected = Math.max(titleScore, abstractScore) + 0.5 * Math.min(titleScore, abstractScore);
    expect(combined.hits.hits.find((hit) => hit._id === 'p1')?._score).toBeCloseTo(expected, 5);
  });
});

describe('full-text queries', () => {
  test('when match uses operator and, then all terms are required', async () => {
    expect(await ids({ query: { match: { title: { query: 'quick dog', operator: 'and' } } } })).toEqual(['p3']);
    expect((await ids({ query: { match: { title: 'quick dog' } } })).sort()).toEqual(['p1', 'p2', 'p3']);
  });

  test('when match sets minimum_should_match, then that many terms must match', async () => {
    expect((await ids({ query: { match: { title: { query: 'quick lazy fox', minimum_should_match: 2 } } } })).sort()).toEqual(['p1', 'p3']);
    expect(await ids({ query: { match: { title: { query: 'quick lazy fox', minimum_should_match: '100%' } } } })).toEqual(['p3']);
    // 60% of 3 clauses rounds down to 1.
    expect((await ids({ query: { match: { title: { query: 'quick lazy fox', minimum_should_match: '60%' } } } })).sort()).toEqual(['p1', 'p2', 'p3']);
  });

  test('when match uses fuzziness AUTO, then near spellings match and short terms stay exact', async () => {
    expect(await ids({ query: { match: { title: { query: 'qiuck', fuzziness: 'AUTO' } } } })).toEqual(['p3', 'p1']);
    expect(await ids({ query: { match: { title: { query: 'fax', fuzziness: 'AUTO' } } } })).toEqual(['p1', 'p3']);
    expect(await ids({ query: { match: { title: { query: 'ox', fuzziness: 'AUTO' } } } })).toEqual([]);
  });

  test('when match_phrase is used, then terms must be adjacent unless slop allows otherwise', async () => {
    expect(await ids({ query: { match_phrase: { title: 'lazy dog' } } })).toEqual(['p2', 'p3']);
    expect(await ids({ query: { match_phrase: { title: 'quick fox' } } })).toEqual(['p3']);
    expect((await ids({ query: { match_phrase: { title: { query: 'quick fox', slop: 1 } } } })).sort()).toEqual(['p1', 'p3']);
  });

  test('when a text field has several values, then a phrase never spans two of them', async () => {
    await fixture.client.index({ index: 'papers', id: 'multi', document: { authors: ['', 'Jane Smith', 'Ken Adams'] }, refresh: true });
    try {
      expect(await ids({ query: { match_phrase: { authors: 'jane smith' } } })).toEqual(['multi']);
      expect(await ids({ query: { match_phrase: { authors: 'smith ken' } } })).toEqual([]);
      expect(await ids({ query: { match_phrase: { authors: { query: 'smith ken', slop: 3 } } } })).toEqual([]);
    } finally {
      await fixture.client.delete({ index: 'papers', id: 'multi', refresh: true });
    }
  });

  test('when multi_match boosts a field, then hits in that field rank first', async () => {
    const result = await ids({ query: { multi_match: { query: 'dog', fields: ['title', 'abstract^5'] } } });
    expect(result[0]).toBe('p3');
    expect(result.sort()).toEqual(['p2', 'p3']);
  });

  test('when an analyzer has asciifolding, then accented and plain spellings match each other', async () => {
    expect(await ids({ query: { match: { folded: 'cafe zurich' } } })).toEqual(['p4']);
    expect(await ids({ query: { match: { title: 'cafe' } } })).toEqual([]);
    expect(await ids({ query: { match: { title: 'café' } } })).toEqual(['p4']);
  });
});

describe('term-level queries', () => {
  test('when term, terms, ids, prefix and wildcard run on keywords, then matching is exact', async () => {
    expect(await ids({ query: { term: { code: 'A-1' } } })).toEqual(['p1']);
    expect(await ids({ query: { term: { code: 'a-1' } } })).toEqual([]);
    expect(await ids({ query: { terms: { code: ['A-1', 'C-4', 'Z-9'] } } })).toEqual(['p1', 'p4']);
    expect(await ids({ query: { ids: { values: ['p2', 'p4', 'nope'] } } })).toEqual(['p2', 'p4']);
    expect(await ids({ query: { prefix: { code: 'A-' } } })).toEqual(['p1', 'p3']);
    expect(await ids({ query: { wildcard: { code: '?-[0-9]' } } })).toEqual([]);
    expect(await ids({ query: { wildcard: { code: '*-3' } } })).toEqual(['p3']);
    expect(await ids({ query: { term: { open: true } } })).toEqual(['p1', 'p3']);
    expect(await ids({ query: { term: { 'title.keyword': 'The lazy dog' } } })).toEqual(['p2']);
  });

  test('when range filters numbers, dates and scaled floats, then bounds are honoured', async () => {
    expect(await ids({ query: { range: { year: { gte: 2019, lt: 2021 } } } })).toEqual(['p1', 'p2']);
    expect(await ids({ query: { range: { year: { gt: 2019 } } } })).toEqual(['p2', 'p3']);
    expect(await ids({ query: { range: { published: { gte: '2020-01-01', lte: '2021-12-31' } } } })).toEqual(['p2', 'p3']);
    // Missing date components on lte/gt become 01 for month/day and 23:59:59.999 for the time.
    expect(await ids({ query: { range: { published: { lte: '2019-05' } } } })).toEqual(['p1']);
    expect(await ids({ query: { range: { published: { lte: '2019' } } } })).toEqual([]);
    expect(await ids({ query: { range: { published: { gt: '2019-05' } } } })).toEqual(['p2', 'p3']);
    expect(await ids({ query: { range: { score: { gte: 0.42, lte: 0.9 } } } })).toEqual(['p1', 'p2']);
  });

  test('when exists is used, then only documents with a value match', async () => {
    expect(await ids({ query: { exists: { field: 'published' } } })).toEqual(['p1', 'p2', 'p3']);
    expect(await ids({ query: { bool: { must_not: [{ exists: { field: 'published' } }] } } })).toEqual(['p4']);
  });
});

describe('compound queries', () => {
  test('when bool has must and should, then should is optional but adds score', async () => {
    const result = await fixture.client.search({ index: 'papers', query: { bool: { must: [{ match: { abstract: 'fox' } }], should: [{ term: { year: 2021 } }] } } });
    expect(result.hits.hits.map((hit) => hit._id)).toEqual(['p3', 'p1']);
  });

  test('when bool has only should, then at least one should clause must match', async () => {
    expect(await ids({ query: { bool: { should: [{ term: { code: 'A-1' } }, { term: { code: 'B-2' } }] } } })).toEqual(['p1', 'p2']);
    expect(await ids({ query: { bool: { should: [{ term: { code: 'A-1' } }, { term: { year: 2019 } }, { term: { open: true } }], minimum_should_match: 2 } } })).toEqual(['p1']);
  });

  test('when bool has filter and must_not, then filter does not score and must_not excludes', async () => {
    const result = await fixture.client.search({ index: 'papers', query: { bool: { filter: [{ range: { year: { gte: 2019 } } }], must_not: [{ term: { code: 'B-2' } }] } } });
    expect(result.hits.hits.map((hit) => [hit._id, hit._score])).toEqual([
      ['p1', 0],
      ['p3', 0],
    ]);
  });

  test('when function_score applies field_value_factor, weight and boost_mode, then scores follow', async () => {
    const result = await fixture.client.search({
      index: 'papers',
      query: { function_score: { query: { match_all: {} }, functions: [{ field_value_factor: { field: 'year', factor: 1, modifier: 'none', missing: 2000 } }, { filter: { term: { code: 'A-1' } }, weight: 2 }], score_mode: 'sum', boost_mode: 'replace' } },
    });
    expect(result.hits.hits.map((hit) => [hit._id, hit._score])).toEqual([
      ['p1', 2021],
      ['p3', 2021],
      ['p2', 2020],
      ['p4', 2018],
    ]);
  });

  test('when function_score uses a gauss decay with max_boost, then closer values score higher', async () => {
    const result = await fixture.client.search({
      index: 'papers',
      query: { function_score: { query: { exists: { field: 'year' } }, functions: [{ gauss: { year: { origin: 2020, scale: 1, decay: 0.5 } } }], boost_mode: 'replace', max_boost: 0.9 } },
    });
    const scores = Object.fromEntries(result.hits.hits.map((hit) => [hit._id, hit._score]));
    expect(scores.p2).toBeCloseTo(0.9, 5);
    expect(scores.p1).toBeCloseTo(0.5, 5);
    expect(scores.p3).toBeCloseTo(0.5, 5);
    expect(scores.p4).toBeCloseTo(0.0625, 5);
  });

  test('when boosting demotes negative matches, then their scores are multiplied by negative_boost', async () => {
    const plain = await fixture.client.search({ index: 'papers', query: { match: { title: 'fox' } } });
    const boosted = await fixture.client.search({ index: 'papers', query: { boosting: { positive: { match: { title: 'fox' } }, negative: { term: { code: 'A-1' } }, negative_boost: 0.5 } } });
    const before = Object.fromEntries(plain.hits.hits.map((hit) => [hit._id, hit._score as number]));
    const after = Object.fromEntries(boosted.hits.hits.map((hit) => [hit._id, hit._score as number]));
    expect(after.p1).toBeCloseTo(before.p1 * 0.5, 5);
    expect(after.p3).toBeCloseTo(before.p3, 5);
    expect(boosted.hits.hits.map((hit) => hit._id)).toEqual(['p3', 'p1']);
  });

  test('when an unknown query type is sent, then parsing_exception 400 "unknown query"', async () => {
    const failure = await esError(fixture.client.search({ index: 'papers', query: { foo: {} } as never }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('parsing_exception');
    expect(failure.body.error.reason).toBe('unknown query [foo]');
  });
});

describe('nested', () => {
  beforeAll(async () => {
    await fixture.client.indices.create({
      index: 'nested-docs',
      mappings: { properties: { people: { type: 'nested', properties: { name: { type: 'keyword' }, role: { type: 'keyword' }, age: { type: 'integer' } } } } },
    });
    await fixture.client.bulk({
      refresh: true,
      operations: [
        { index: { _index: 'nested-docs', _id: 'n1' } },
        { people: [{ name: 'ann', role: 'author', age: 30 }, { name: 'bob', role: 'editor', age: 50 }] },
        { index: { _index: 'nested-docs', _id: 'n2' } },
        { people: [{ name: 'ann', role: 'editor', age: 40 }] },
        { index: { _index: 'nested-docs', _id: 'n3' } },
        { title: 'nobody' },
      ],
    });
  });

  test('when a nested query combines clauses, then one nested object must satisfy all of them', async () => {
    const result = await fixture.client.search({ index: 'nested-docs', query: { nested: { path: 'people', query: { bool: { must: [{ term: { 'people.name': 'ann' } }, { term: { 'people.role': 'editor' } }] } } } } });
    expect(result.hits.hits.map((hit) => hit._id)).toEqual(['n2']);
  });

  test('when must_not wraps a nested query, then documents without the array match too', async () => {
    const result = await fixture.client.search({ index: 'nested-docs', query: { bool: { must_not: [{ nested: { path: 'people', query: { term: { 'people.role': 'author' } } } }] } } });
    expect(result.hits.hits.map((hit) => hit._id)).toEqual(['n2', 'n3']);
  });

  test('when score_mode is max or sum, then nested scores aggregate accordingly', async () => {
    const query = (scoreMode: 'max' | 'sum' | 'avg') => ({
      nested: { path: 'people', score_mode: scoreMode, query: { function_score: { query: { match_all: {} }, field_value_factor: { field: 'people.age' }, boost_mode: 'replace' as const } } },
    });
    const max = await fixture.client.search({ index: 'nested-docs', query: query('max') });
    const sum = await fixture.client.search({ index: 'nested-docs', query: query('sum') });
    const avg = await fixture.client.search({ index: 'nested-docs', query: query('avg') });
    expect(max.hits.hits.map((hit) => [hit._id, hit._score])).toEqual([['n1', 50], ['n2', 40]]);
    expect(sum.hits.hits.map((hit) => [hit._id, hit._score])).toEqual([['n1', 80], ['n2', 40]]);
    expect(avg.hits.hits.map((hit) => [hit._id, hit._score])).toEqual([['n1', 40], ['n2', 40]]);
  });

  test('when a nested path is unknown, then search_phase_execution_exception with query_shard_exception', async () => {
    const failure = await esError(fixture.client.search({ index: 'nested-docs', query: { nested: { path: 'ghosts', query: { match_all: {} } } } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('search_phase_execution_exception');
    expect(failure.body.error.root_cause[0]).toMatchObject({ type: 'query_shard_exception', reason: '[nested] failed to find nested object under path [ghosts]' });
  });
});

describe('sorting, paging and response shape', () => {
  test('when sorting on numbers, dates and keywords, then order and sort values follow', async () => {
    const byYear = await fixture.client.search({ index: 'papers', sort: [{ year: 'desc' }] });
    expect(byYear.hits.hits.map((hit) => [hit._id, hit.sort])).toEqual([['p3', [2021]], ['p2', [2020]], ['p1', [2019]], ['p4', [2018]]]);
    expect(byYear.hits.hits[0]._score).toBeNull();
    expect(byYear.hits.max_score).toBeNull();
    const byCode = await ids({ sort: ['code'] });
    expect(byCode).toEqual(['p1', 'p3', 'p2', 'p4']);
    const byDate = await fixture.client.search({ index: 'papers', sort: [{ published: { order: 'asc' } }] });
    expect(byDate.hits.hits.map((hit) => hit._id)).toEqual(['p1', 'p2', 'p3', 'p4']);
    expect(byDate.hits.hits[0].sort).toEqual([Date.parse('2019-05-01T00:00:00Z')]);
    const missingFirst = await ids({ sort: [{ published: { order: 'desc', missing: '_first' } }] });
    expect(missingFirst).toEqual(['p4', 'p3', 'p2', 'p1']);
  });

  test('when sorting by _score then a field, then both sort values are returned', async () => {
    const result = await fixture.client.search({ index: 'papers', query: { match: { abstract: 'fox dog' } }, sort: ['_score', { year: 'asc' }] });
    expect(result.hits.hits.every((hit) => Array.isArray(hit.sort) && hit.sort.length === 2 && typeof hit._score === 'number')).toBe(true);
  });

  test('when scores tie under a score-first sort, then the keyword tiebreaker orders every page', async () => {
    const request = { query: { constant_score: { filter: { exists: { field: 'code' } } } }, sort: [{ _score: { order: 'desc' } }, { code: { order: 'desc' } }] as never };
    expect(await ids({ ...request, size: 2 })).toEqual(['p4', 'p2']);
    expect(await ids({ ...request, from: 2, size: 2 })).toEqual(['p3', 'p1']);
    const scored = await fixture.client.search({ index: 'papers', query: { match: { abstract: 'fox dog' } }, sort: [{ _score: { order: 'desc' } }, { code: { order: 'desc' } }], size: 1 });
    const unsorted = await fixture.client.search({ index: 'papers', query: { match: { abstract: 'fox dog' } }, size: 1 });
    expect(scored.hits.hits[0]._id).toBe(unsorted.hits.hits[0]._id);
    expect(scored.hits.total).toEqual(unsorted.hits.total);
  });

  test('when sorting on a text field, then Elasticsearch\'s fielddata error comes back', async () => {
    const failure = await esError(fixture.client.search({ index: 'papers', sort: ['title'] }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('search_phase_execution_exception');
    expect(failure.body.error.root_cause[0].reason).toContain('Text fields are not optimised');
  });

  test('when paging with from/size and search_after, then pages do not overlap', async () => {
    expect(await ids({ sort: [{ year: 'asc' }], from: 1, size: 2 })).toEqual(['p1', 'p2']);
    const first = await fixture.client.search({ index: 'papers', sort: [{ year: 'asc' }], size: 2 });
    const next = await fixture.client.search({ index: 'papers', sort: [{ year: 'asc' }], size: 2, search_after: first.hits.hits[1].sort });
    expect(next.hits.hits.map((hit) => hit._id)).toEqual(['p2', 'p3']);
  });

  test('when track_total_hits is false, a number or true, then total is absent, capped or exact', async () => {
    const none = await fixture.client.search({ index: 'papers', track_total_hits: false });
    expect(none.hits.total).toBeUndefined();
    const capped = await fixture.client.search({ index: 'papers', track_total_hits: 2 });
    expect(capped.hits.total).toEqual({ value: 2, relation: 'gte' });
    const exact = await fixture.client.search({ index: 'papers', track_total_hits: true });
    expect(exact.hits.total).toEqual({ value: 4, relation: 'eq' });
  });

  test('when _source is filtered in a search, then hits carry only the selected fields', async () => {
    const disabled = await fixture.client.search({ index: 'papers', _source: false, size: 1 });
    expect(disabled.hits.hits[0]._source).toBeUndefined();
    const included = await fixture.client.search({ index: 'papers', _source: ['title', 'year'], size: 1 });
    expect(included.hits.hits[0]._source).toEqual({ title: 'The quick brown fox', year: 2019 });
    const excluded = await fixture.client.search({ index: 'papers', _source: { excludes: ['abstract', 'authors', 'folded', 'published', 'score', 'code', 'open'] }, size: 1 });
    expect(excluded.hits.hits[0]._source).toEqual({ title: 'The quick brown fox', year: 2019 });
  });

  test('when _count runs with a query, then it counts matches', async () => {
    expect((await fixture.client.count({ index: 'papers', query: { match: { title: 'dog' } } })).count).toBe(2);
    expect((await fixture.client.count({ index: 'papers' })).count).toBe(4);
  });
});

describe('numeric field types and remaining query forms', () => {
  beforeAll(async () => {
    await fixture.client.indices.create({
      index: 'numbers',
      mappings: { properties: { l: { type: 'long' }, f: { type: 'float' }, d: { type: 'double' }, i: { type: 'integer' }, tag: { type: 'keyword' } } },
    });
    await fixture.client.bulk({
      refresh: true,
      operations: [
        { index: { _index: 'numbers', _id: 'a' } },
        { l: 9007199254740991, f: 1.5, d: 0.1, i: '7', tag: 'x' },
        { index: { _index: 'numbers', _id: 'b' } },
        { l: -3, f: 2.25, d: 1e-9, i: 8, tag: 'y' },
        { index: { _index: 'numbers', _id: 'c' } },
        { tag: 'z' },
      ],
    });
  });

  async function numberIds(query: Record<string, unknown>, sort?: unknown): Promise<string[]> {
    const result = await fixture.client.search({ index: 'numbers', query, ...(sort ? { sort: sort as never } : {}) });
    return result.hits.hits.map((hit) => hit._id as string);
  }

  test('when long, float, double and coerced integer values are queried, then terms and ranges match exactly', async () => {
    expect(await numberIds({ term: { l: 9007199254740991 } })).toEqual(['a']);
    expect(await numberIds({ term: { f: 2.25 } })).toEqual(['b']);
    expect(await numberIds({ range: { d: { lt: 0.01 } } })).toEqual(['b']);
    expect(await numberIds({ term: { i: 7 } })).toEqual(['a']);
    expect(await numberIds({ range: { l: { lte: 0 } } })).toEqual(['b']);
  });

  test('when sorting ascending with missing values, then missing go last by default and _doc keeps index order', async () => {
    expect(await numberIds({ match_all: {} }, [{ i: 'asc' }])).toEqual(['a', 'b', 'c']);
    expect(await numberIds({ match_all: {} }, [{ i: { order: 'asc', missing: '_first' } }])).toEqual(['c', 'a', 'b']);
    expect(await numberIds({ match_all: {} }, ['_doc'])).toEqual(['a', 'b', 'c']);
  });

  test('when match_none is used, then nothing matches', async () => {
    expect(await numberIds({ match_none: {} })).toEqual([]);
  });

  test('when exp and linear decays are combined with score_mode avg, then the average of both is the score', async () => {
    const result = await fixture.client.search({
      index: 'numbers',
      query: {
        function_score: {
          query: { exists: { field: 'i' } },
          functions: [{ exp: { i: { origin: 7, scale: 1, decay: 0.5 } } }, { linear: { i: { origin: 7, scale: 2, decay: 0.5 } } }],
          score_mode: 'avg',
          boost_mode: 'replace',
        },
      },
    });
    const scores = Object.fromEntries(result.hits.hits.map((hit) => [hit._id, hit._score]));
    expect(scores.a).toBeCloseTo(1, 5);
    // exp: 0.5^(1/1) = 0.5; linear: s = 2 / (1 - 0.5) = 4, (4 - 1) / 4 = 0.75.
    expect(scores.b).toBeCloseTo((0.5 + 0.75) / 2, 5);
  });

  test('when function_score multiplies weights by default, then filtered weights compound', async () => {
    const result = await fixture.client.search({
      index: 'numbers',
      query: { function_score: { query: { match_all: {} }, functions: [{ filter: { term: { tag: 'x' } }, weight: 3 }, { filter: { exists: { field: 'f' } }, weight: 2 }], boost_mode: 'replace' } },
    });
    expect(result.hits.hits.map((hit) => [hit._id, hit._score])).toEqual([
      ['a', 6],
      ['b', 2],
      ['c', 1],
    ]);
  });
});

describe('date terms', () => {
  test('when a term query names a day on a date field, then every instant of that day matches', async () => {
    await fixture.client.indices.create({ index: 'days', mappings: { properties: { at: { type: 'date' } } } });
    await fixture.client.bulk({
      refresh: true,
      operations: [
        { index: { _index: 'days', _id: 'morning' } },
        { at: '2024-03-05T08:00:00Z' },
        { index: { _index: 'days', _id: 'night' } },
        { at: '2024-03-05T23:30:00Z' },
        { index: { _index: 'days', _id: 'next' } },
        { at: '2024-03-06T00:00:00Z' },
      ],
    });
    const result = await fixture.client.search({ index: 'days', query: { term: { at: '2024-03-05' } } });
    expect(result.hits.hits.map((hit) => hit._id)).toEqual(['morning', 'night']);
    const exact = await fixture.client.search({ index: 'days', query: { term: { at: Date.parse('2024-03-06T00:00:00Z') } } });
    expect(exact.hits.hits.map((hit) => hit._id)).toEqual(['next']);
  });
});
