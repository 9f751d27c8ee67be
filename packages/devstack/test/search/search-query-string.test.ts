// query_string and simple_query_string with Lucene syntax; expected results follow Elasticsearch's
// documented semantics (default operator OR, phrases, ranges, wildcards, negation, field groups).
import { type SearchFixture, esError, startSearchFixture } from './search-test-server';

let fixture: SearchFixture;

const references = [
  { id: 'r1', title: 'Malaria prevention in children', abstract: 'Bed nets reduce malaria in young children', authors: ['Jane Smith'], publication_year: 2015, evaluated_schemes: ['inclusion:destiny'] },
  { id: 'r2', title: 'Climate change and agriculture', abstract: 'Crop yields under warming scenarios', authors: ['Ken Adams', 'Jane Doe'], publication_year: 2020 },
  { id: 'r3', title: 'Malaria vaccines: a review', abstract: 'Vaccine trials for malaria prevention', authors: ['Ravi Patel'], publication_year: 2022, evaluated_schemes: ['taxonomy:x'] },
  { id: 'r4', title: 'School feeding programmes', abstract: 'Nutrition and education outcomes in children', authors: ['Jane Smith'], publication_year: 2018 },
  { id: 'r5', title: 'Child nutrition and climate', abstract: 'Drought affects child nutrition', authors: ['Li Wei'], publication_year: 2023 },
];

async function found(query: string, extra: Record<string, unknown> = {}): Promise<string[]> {
  const result = await fixture.client.search({ index: 'reference', size: 50, query: { query_string: { query, fields: ['title', 'abstract'], ...extra } } });
  return result.hits.hits.map((hit) => hit._id as string).sort();
}

beforeAll(async () => {
  fixture = await startSearchFixture();
  await fixture.client.indices.create({
    index: 'reference-20260101',
    aliases: { reference: {} },
    mappings: {
      properties: {
        title: { type: 'text' },
        abstract: { type: 'text' },
        authors: { type: 'text' },
        publication_year: { type: 'integer' },
        evaluated_schemes: { type: 'keyword' },
      },
    },
  });
  await fixture.client.bulk({ refresh: true, operations: references.flatMap(({ id, ...document }) => [{ index: { _index: 'reference', _id: id } }, document]) });
});

afterAll(async () => {
  await fixture.close();
});

describe('query_string', () => {
  test('when two words are given, then the default operator OR matches either', async () => {
    expect(await found('malaria nutrition')).toEqual(['r1', 'r3', 'r4', 'r5']);
  });

  test('when default_operator is AND, then every word is required', async () => {
    expect(await found('malaria children', { default_operator: 'AND' })).toEqual(['r1']);
  });

  test('when AND, OR, NOT and && || ! are combined, then Lucene boolean semantics apply', async () => {
    expect(await found('malaria AND children')).toEqual(['r1']);
    expect(await found('malaria && children')).toEqual(['r1']);
    expect(await found('malaria NOT vaccines')).toEqual(['r1']);
    expect(await found('malaria !vaccines')).toEqual(['r1']);
    expect(await found('climate OR drought')).toEqual(['r2', 'r5']);
    expect(await found('climate || drought')).toEqual(['r2', 'r5']);
  });

  test('when + and - prefixes are used, then terms are required or excluded', async () => {
    expect(await found('+children -malaria')).toEqual(['r4']);
    expect(await found('+nutrition climate')).toEqual(['r4', 'r5']);
  });

  test('when a query is only negative, then everything else matches', async () => {
    expect(await found('NOT malaria')).toEqual(['r2', 'r4', 'r5']);
  });

  test('when a phrase is quoted, then words must be adjacent, with ~ slop allowing gaps', async () => {
    expect(await found('"malaria prevention"')).toEqual(['r1', 'r3']);
    expect(await found('"prevention malaria"')).toEqual([]);
    expect(await found('"child nutrition"')).toEqual(['r5']);
    // Lucene sloppy phrase: the spread of (position - index in phrase) must not exceed the slop.
    expect(await found('"nutrition outcomes children"~2')).toEqual([]);
    expect(await found('"nutrition outcomes children"~3')).toEqual(['r4']);
    expect(await found('"nutrition outcomes children"', { phrase_slop: 3 })).toEqual(['r4']);
    // Swapping two words costs a slop of 2.
    expect(await found('"prevention malaria"~1')).toEqual([]);
    expect(await found('"prevention malaria"~2')).toEqual(['r1', 'r3']);
  });

  test('when groups and field groups are used, then they scope the sub-query', async () => {
    expect(await found('(malaria OR climate) AND children')).toEqual(['r1']);
    expect(await found('title:(malaria OR school)')).toEqual(['r1', 'r3', 'r4']);
    expect(await found('abstract:(nutrition AND drought)')).toEqual(['r5']);
  });

  test('when fields carry boosts, then hits in the boosted field rank first', async () => {
    const result = await fixture.client.search({ index: 'reference', query: { query_string: { query: 'children', fields: ['title^10', 'abstract'] } } });
    expect(result.hits.hits[0]._id).toBe('r1');
  });

  test('when a term carries ^ boost, then documents matching it rank higher', async () => {
    const plain = await fixture.client.search({ index: 'reference', query: { query_string: { query: 'vaccines nutrition', fields: ['title', 'abstract'] } } });
    const boosted = await fixture.client.search({ index: 'reference', query: { query_string: { query: 'vaccines nutrition^20', fields: ['title', 'abstract'] } } });
    expect(plain.hits.hits[0]._id).toBe('r3');
    expect(boosted.hits.hits[0]._id).not.toBe('r3');
    expect(['r4', 'r5']).toContain(boosted.hits.hits[0]._id);
    const group = await fixture.client.search({ index: 'reference', query: { query_string: { query: '(vaccines)^0.01 nutrition', fields: ['title', 'abstract'] } } });
    expect(group.hits.hits[group.hits.hits.length - 1]._id).toBe('r3');
  });

  test('when ranges use brackets, braces, * and comparison operators, then bounds are inclusive or exclusive', async () => {
    expect(await found('publication_year:[2018 TO 2022]')).toEqual(['r2', 'r3', 'r4']);
    expect(await found('publication_year:{2018 TO 2022}')).toEqual(['r2']);
    expect(await found('publication_year:[2020 TO *]')).toEqual(['r2', 'r3', 'r5']);
    expect(await found('publication_year:>=2022')).toEqual(['r3', 'r5']);
    expect(await found('publication_year:<2018')).toEqual(['r1']);
    expect(await found('malaria AND publication_year:>2015')).toEqual(['r3']);
  });

  test('when wildcards and prefixes are used, then terms expand, lowercased for text fields', async () => {
    expect(await found('vacc*')).toEqual(['r3']);
    expect(await found('Nutrit*')).toEqual(['r4', 'r5']);
    expect(await found('ch?ld')).toEqual(['r5']);
    expect(await found('evaluated_schemes:inclusion*')).toEqual(['r1']);
  });

  test('when ~ asks for fuzzy matching, then near spellings match', async () => {
    expect(await found('malarai~')).toEqual(['r1', 'r3']);
    expect(await found('climat~1')).toEqual(['r2', 'r5']);
  });

  test('when _exists_ or field:* is used, then documents with the field match', async () => {
    expect(await found('_exists_:evaluated_schemes')).toEqual(['r1', 'r3']);
    expect(await found('evaluated_schemes:*')).toEqual(['r1', 'r3']);
    expect(await found('NOT _exists_:evaluated_schemes')).toEqual(['r2', 'r4', 'r5']);
  });

  test('when a keyword value contains a colon, then escaping keeps it one term', async () => {
    expect(await found('evaluated_schemes:inclusion\\:destiny')).toEqual(['r1']);
    expect(await found('evaluated_schemes:"inclusion:destiny"')).toEqual(['r1']);
  });

  test('when no field is named and no fields are given, then every field is searched leniently', async () => {
    const result = await fixture.client.search({ index: 'reference', query: { query_string: { query: 'patel' } } });
    expect(result.hits.hits.map((hit) => hit._id)).toEqual(['r3']);
  });

  test('when default_field is set, then unqualified terms search only that field', async () => {
    const result = await fixture.client.search({ index: 'reference', query: { query_string: { query: 'jane', default_field: 'authors' } } });
    expect(result.hits.hits.map((hit) => hit._id).sort()).toEqual(['r1', 'r2', 'r4']);
  });

  test('when the query string is malformed, then search_phase_execution_exception with query_shard_exception and parse_exception', async () => {
    const failure = await esError(fixture.client.search({ index: 'reference', query: { query_string: { query: 'title:(' } } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('search_phase_execution_exception');
    expect(failure.body.error.reason).toBe('all shards failed');
    const shardFailure = (failure.body.error.failed_shards as Array<{ reason: { type: string; reason: string; caused_by: { type: string; reason: string } } }>)[0].reason;
    expect(shardFailure.type).toBe('query_shard_exception');
    expect(shardFailure.reason).toBe('Failed to parse query [title:(]');
    expect(shardFailure.caused_by.type).toBe('parse_exception');
    expect(shardFailure.caused_by.reason).toContain("Cannot parse 'title:(': Encountered \"<EOF>\" at line 1, column 7.");
    expect(failure.body.error.root_cause[0].type).toBe('parse_exception');
  });

  test('when other malformed strings are sent, then each is a 400 parse failure', async () => {
    for (const query of ['"unterminated', 'a AND', '[1 TO', 'title:)']) {
      const failure = await esError(fixture.client.search({ index: 'reference', query: { query_string: { query } } }));
      expect([failure.statusCode, failure.body.error.type]).toEqual([400, 'search_phase_execution_exception']);
    }
  });
});

describe('query_string nesting', () => {
  const nested = (depth: number, inner: string) => `${'('.repeat(depth)}${inner}${')'.repeat(depth)}`;
  /** `(malaria OR (nutrition OR (…)))`: every level a boolean of its own, nothing collapses. */
  const chained = (depth: number) => `${'(malaria OR '.repeat(depth)}nutrition${')'.repeat(depth)}`;

  test('when a query_string nests groups 5000 deep, then a 400 parse failure (query_shard_exception, parse_exception) and the stand-in keeps answering', async () => {
    const query = nested(5000, 'malaria');
    const failure = await esError(fixture.client.search({ index: 'reference', query: { query_string: { query, fields: ['title', 'abstract'] } } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('search_phase_execution_exception');
    const shardFailure = (failure.body.error.failed_shards as Array<{ reason: { type: string; reason: string; caused_by: { type: string; reason: string } } }>)[0].reason;
    expect(shardFailure.type).toBe('query_shard_exception');
    expect(shardFailure.reason).toBe(`Failed to parse query [${query}]`);
    expect(shardFailure.caused_by.type).toBe('parse_exception');
    expect(shardFailure.caused_by.reason).toBe(`Cannot parse '${query}': too many nested groups: more than 256 levels of parentheses at line 1, column 256.`);
    expect(failure.body.error.root_cause[0].type).toBe('parse_exception');
    expect(await found('malaria')).toEqual(['r1', 'r3']);
  });

  test('when groups nest one level deeper than the limit (also as a URI search q), then 400; at the limit they are searched as usual', async () => {
    expect(await found(nested(256, 'malaria'))).toEqual(['r1', 'r3']);
    expect(await found(chained(255))).toEqual(['r1', 'r3', 'r4', 'r5']);
    for (const query of [nested(257, 'malaria'), chained(257), `title:${nested(257, 'malaria')}`, `${nested(300, 'malaria')}`.slice(0, 400)]) {
      const failure = await esError(fixture.client.search({ index: 'reference', query: { query_string: { query, fields: ['title', 'abstract'] } } }));
      expect([failure.statusCode, failure.body.error.type, failure.body.error.root_cause[0].type]).toEqual([400, 'search_phase_execution_exception', 'parse_exception']);
    }
    const uri = await esError(fixture.client.search({ index: 'reference', q: nested(5000, 'malaria') }));
    expect([uri.statusCode, uri.body.error.root_cause[0].type]).toEqual([400, 'parse_exception']);
  });

  test('when a simple_query_string nests groups 5000 deep, then a 400 parse failure instead of an overflow; at the limit it answers', async () => {
    const simple = (query: string) => fixture.client.search({ index: 'reference', size: 50, query: { simple_query_string: { query, fields: ['title', 'abstract'] } } });
    const failure = await esError(simple(nested(5000, 'malaria')));
    expect([failure.statusCode, failure.body.error.type, failure.body.error.root_cause[0].type]).toEqual([400, 'search_phase_execution_exception', 'parse_exception']);
    expect((await simple(nested(256, 'malaria'))).hits.hits.map((hit) => hit._id).sort()).toEqual(['r1', 'r3']);
  });
});

describe('simple_query_string', () => {
  async function simple(query: string, extra: Record<string, unknown> = {}): Promise<string[]> {
    const result = await fixture.client.search({ index: 'reference', size: 50, query: { simple_query_string: { query, fields: ['title', 'abstract'], ...extra } } });
    return result.hits.hits.map((hit) => hit._id as string).sort();
  }

  test('when + | and quotes are used, then they mean AND, OR and phrase', async () => {
    expect(await simple('malaria + children')).toEqual(['r1']);
    expect(await simple('climate | drought')).toEqual(['r2', 'r5']);
    expect(await simple('"malaria prevention"')).toEqual(['r1', 'r3']);
    expect(await simple('vacc*')).toEqual(['r3']);
  });

  test('when - negates with default operator AND, then the term is excluded', async () => {
    expect(await simple('malaria -vaccines', { default_operator: 'and' })).toEqual(['r1']);
  });

  test('when the syntax is broken, then simple_query_string still answers instead of failing', async () => {
    expect(await simple('"malaria (')).toEqual(['r1', 'r3']);
  });
});
