// Percolation with the automation index of contract §13.3: stored queries over nested
// identifiers/enhancements/annotations, percolated {reference, changeset} documents.
import { type SearchFixture, esError, startSearchFixture } from './search-test-server';

let fixture: SearchFixture;
const INDEX = 'robot-automation-percolation-v1';

function referenceDocMapping() {
  return {
    properties: {
      visibility: { type: 'keyword' as const },
      duplicate_determination: { type: 'keyword' as const },
      identifiers: {
        type: 'nested' as const,
        properties: {
          reference_id: { type: 'keyword' as const },
          identifier: { type: 'keyword' as const },
          identifier_type: { type: 'keyword' as const },
          other_identifier_name: { type: 'keyword' as const },
        },
      },
      enhancements: {
        type: 'nested' as const,
        properties: {
          id: { type: 'keyword' as const },
          reference_id: { type: 'keyword' as const },
          visibility: { type: 'keyword' as const },
          source: { type: 'keyword' as const },
          robot_version: { type: 'keyword' as const },
          created_at: { type: 'date' as const },
          content: {
            type: 'object' as const,
            dynamic: true,
            properties: {
              enhancement_type: { type: 'keyword' as const },
              annotations: {
                type: 'nested' as const,
                dynamic: true,
                properties: {
                  scheme: { type: 'keyword' as const },
                  label: { type: 'keyword' as const },
                  annotation_type: { type: 'keyword' as const },
                  value: { type: 'boolean' as const },
                },
              },
            },
          },
        },
      },
    },
  };
}

const DOI_WITHOUT_ABSTRACT = {
  bool: {
    must: [{ nested: { path: 'changeset.identifiers', query: { term: { 'changeset.identifiers.identifier_type': 'doi' } } } }],
    must_not: [{ nested: { path: 'reference.enhancements', query: { term: { 'reference.enhancements.content.enhancement_type': 'abstract' } } } }],
  },
};

const INCLUDED_BY_DESTINY = {
  nested: {
    path: 'changeset.enhancements.content.annotations',
    query: {
      bool: {
        must: [{ term: { 'changeset.enhancements.content.annotations.scheme': 'inclusion:destiny' } }, { term: { 'changeset.enhancements.content.annotations.value': true } }],
      },
    },
  },
};

const REFERENCE_ID = '0b3c8f0e-8a4f-4c57-b1e1-5e3c2a9d7f10';

function identifier(type: string, value: string) {
  return { reference_id: REFERENCE_ID, identifier: value, identifier_type: type };
}

function enhancement(content: Record<string, unknown>) {
  return { id: 'e-1', reference_id: REFERENCE_ID, visibility: 'public', source: 'openalex', robot_version: '1.2.0', created_at: '2026-01-31T12:00:00Z', content };
}

async function percolate(document: Record<string, unknown>, filterRobot?: string): Promise<string[]> {
  const percolateQuery = { percolate: { field: 'query', document } };
  const query = filterRobot ? { bool: { filter: [{ term: { robot_id: filterRobot } }, percolateQuery] } } : percolateQuery;
  const result = await fixture.client.search({ index: 'robot-automation-percolation', size: 1000, query });
  return result.hits.hits.map((hit) => hit._id as string).sort();
}

beforeAll(async () => {
  fixture = await startSearchFixture();
  await fixture.client.indices.create({
    index: INDEX,
    aliases: { 'robot-automation-percolation': {} },
    mappings: { properties: { query: { type: 'percolator' }, robot_id: { type: 'keyword' }, reference: referenceDocMapping(), changeset: referenceDocMapping() } },
  });
  await fixture.client.index({ index: 'robot-automation-percolation', id: 'doi-no-abstract', document: { robot_id: 'robot-a', query: DOI_WITHOUT_ABSTRACT } });
  await fixture.client.index({ index: 'robot-automation-percolation', id: 'destiny-included', document: { robot_id: 'robot-b', query: INCLUDED_BY_DESTINY } });
  await fixture.client.index({
    index: 'robot-automation-percolation',
    id: 'public-canonical',
    document: { robot_id: 'robot-c', query: { bool: { filter: [{ term: { 'changeset.visibility': 'public' } }, { match: { 'reference.duplicate_determination': 'canonical' } }] } } },
  });
  await fixture.client.indices.refresh({ index: INDEX });
});

afterAll(async () => {
  await fixture.close();
});

describe('contract example queries', () => {
  test('when the changeset has a DOI and the reference has no enhancements at all, then the DOI automation fires', async () => {
    const document = { reference: { visibility: 'public', identifiers: [identifier('doi', '10.1234/abc')] }, changeset: { visibility: 'public', identifiers: [identifier('doi', '10.1234/abc')] } };
    expect(await percolate(document)).toEqual(['doi-no-abstract']);
  });

  test('when the reference already has an abstract, then the DOI automation does not fire', async () => {
    const document = {
      reference: { visibility: 'public', identifiers: [identifier('doi', '10.1234/abc')], enhancements: [enhancement({ enhancement_type: 'abstract', process: 'other', abstract: 'Text' })] },
      changeset: { visibility: 'public', identifiers: [identifier('doi', '10.1234/abc')] },
    };
    expect(await percolate(document)).toEqual([]);
  });

  test('when the reference only has other enhancement types, then must_not nested is satisfied', async () => {
    const document = {
      reference: { visibility: 'public', enhancements: [enhancement({ enhancement_type: 'bibliographic', title: 'T' })] },
      changeset: { visibility: 'public', identifiers: [identifier('pm_id', '123'), identifier('doi', '10.1/x')] },
    };
    expect(await percolate(document)).toEqual(['doi-no-abstract']);
  });

  test('when an inclusion:destiny annotation is true in the changeset, then the annotation automation fires', async () => {
    const annotations = [
      { annotation_type: 'boolean', scheme: 'taxonomy:x', label: 'y', value: false },
      { annotation_type: 'boolean', scheme: 'inclusion:destiny', label: 'destiny', value: true },
    ];
    const document = { reference: { visibility: 'public' }, changeset: { visibility: 'public', enhancements: [enhancement({ enhancement_type: 'annotation', annotations })] } };
    expect(await percolate(document)).toEqual(['destiny-included']);
  });

  test('when scheme and true value sit in different annotations, then the nested query does not match', async () => {
    const annotations = [
      { annotation_type: 'boolean', scheme: 'inclusion:destiny', label: 'destiny', value: false },
      { annotation_type: 'boolean', scheme: 'taxonomy:x', label: 'y', value: true },
    ];
    const document = { reference: { visibility: 'public' }, changeset: { visibility: 'public', enhancements: [enhancement({ enhancement_type: 'annotation', annotations })] } };
    expect(await percolate(document)).toEqual([]);
  });

  test('when match on a keyword field and a term filter combine, then exact values fire the automation', async () => {
    const document = { reference: { visibility: 'public', duplicate_determination: 'canonical' }, changeset: { visibility: 'public', duplicate_determination: 'canonical' } };
    expect(await percolate(document)).toEqual(['public-canonical']);
    expect(await percolate({ ...document, reference: { visibility: 'public', duplicate_determination: 'Canonical' } })).toEqual([]);
  });

  test('when the search filters on robot_id too, then only that robot\'s automations are returned', async () => {
    const document = { reference: { visibility: 'public' }, changeset: { visibility: 'public', identifiers: [identifier('doi', '10.1/x')] } };
    expect(await percolate(document, 'robot-a')).toEqual(['doi-no-abstract']);
    expect(await percolate(document, 'robot-b')).toEqual([]);
  });
});

describe('percolate responses', () => {
  test('when several documents are percolated, then each hit lists the matching slots', async () => {
    const withDoi = { reference: { visibility: 'public' }, changeset: { visibility: 'public', identifiers: [identifier('doi', '10.1/x')] } };
    const withoutDoi = { reference: { visibility: 'public' }, changeset: { visibility: 'restricted', identifiers: [identifier('pm_id', '1')] } };
    const result = await fixture.client.search({ index: 'robot-automation-percolation', query: { percolate: { field: 'query', documents: [withoutDoi, withDoi, withDoi] } } });
    expect(result.hits.hits.map((hit) => [hit._id, hit.fields])).toEqual([['doi-no-abstract', { _percolator_document_slot: [1, 2] }]]);
  });

  test('when one document is percolated, then the slot field is [0]', async () => {
    const document = { reference: { visibility: 'public' }, changeset: { visibility: 'public', identifiers: [identifier('doi', '10.1/x')] } };
    const result = await fixture.client.search({ index: 'robot-automation-percolation', query: { percolate: { field: 'query', document } } });
    expect(result.hits.hits[0].fields).toEqual({ _percolator_document_slot: [0] });
  });

  test('when many stored queries exist, then exactly those whose terms and structure match fire', async () => {
    await fixture.client.indices.create({
      index: 'bulk-automations',
      mappings: { properties: { query: { type: 'percolator' }, robot_id: { type: 'keyword' }, reference: referenceDocMapping(), changeset: referenceDocMapping() } },
    });
    const operations: unknown[] = [];
    for (let index = 0; index < 600; index += 1) {
      const query =
        index % 3 === 0
          ? { nested: { path: 'changeset.identifiers', query: { bool: { must: [{ term: { 'changeset.identifiers.identifier_type': 'doi' } }, { term: { 'changeset.identifiers.identifier': `10.1/${index}` } }] } } } }
          : index % 3 === 1
            ? { bool: { must_not: [{ nested: { path: 'reference.identifiers', query: { term: { 'reference.identifiers.identifier': `10.1/${index}` } } } }], filter: [{ term: { 'changeset.visibility': 'public' } }] } }
            : { nested: { path: 'changeset.enhancements', query: { terms: { 'changeset.enhancements.content.enhancement_type': ['abstract', `type-${index}`] } } } };
      operations.push({ index: { _index: 'bulk-automations', _id: `q${index}` } }, { robot_id: `robot-${index % 7}`, query });
    }
    const bulk = await fixture.client.bulk({ refresh: true, operations });
    expect(bulk.errors).toBe(false);
    const document = {
      reference: { visibility: 'public', identifiers: [identifier('doi', '10.1/1')] },
      changeset: { visibility: 'public', identifiers: [identifier('doi', '10.1/3'), identifier('doi', '10.1/4')], enhancements: [enhancement({ enhancement_type: 'type-5' })] },
    };
    const result = await fixture.client.search({ index: 'bulk-automations', size: 1000, query: { percolate: { field: 'query', document } } });
    const fired = result.hits.hits.map((hit) => hit._id as string).sort();
    const expected = ['q3', 'q5', ...Array.from({ length: 600 }, (_, index) => index).filter((index) => index % 3 === 1 && index !== 1).map((index) => `q${index}`)].sort();
    expect(fired).toEqual(expected);
  });
});

describe('registration validation', () => {
  test('when a stored query names an unmapped field, then registration fails with 400 naming the field', async () => {
    const failure = await esError(
      fixture.client.index({ index: 'robot-automation-percolation', id: 'bad-field', document: { robot_id: 'r', query: { term: { 'reference.enhancements.content.abstract': 'x' } } } }),
    );
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('document_parsing_exception');
    expect(failure.body.error.reason).toContain('No field mapping can be found for the field with name [reference.enhancements.content.abstract]');
    expect(failure.body.error.root_cause[0]).toMatchObject({ type: 'query_shard_exception', reason: 'No field mapping can be found for the field with name [reference.enhancements.content.abstract]' });
    expect(await fixture.client.exists({ index: 'robot-automation-percolation', id: 'bad-field' })).toBe(false);
  });

  test('when an unmapped field hides inside nested and bool clauses, then it is still rejected', async () => {
    const query = { bool: { should: [{ nested: { path: 'changeset.identifiers', query: { exists: { field: 'changeset.identifiers.doi' } } } }] } };
    const failure = await esError(fixture.client.index({ index: 'robot-automation-percolation', id: 'bad-nested', document: { robot_id: 'r', query } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.reason).toContain('No field mapping can be found for the field with name [changeset.identifiers.doi]');
  });

  test('when a stored query has an unknown type, then registration fails with 400 unknown query', async () => {
    const failure = await esError(fixture.client.index({ index: 'robot-automation-percolation', id: 'bad-type', document: { robot_id: 'r', query: { foo: { bar: 1 } } } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.reason).toContain('unknown query [foo]');
    expect(failure.body.error.root_cause[0].type).toBe('parsing_exception');
  });

  test('when a stored query uses an unknown nested path, then registration fails with 400', async () => {
    const failure = await esError(
      fixture.client.index({ index: 'robot-automation-percolation', id: 'bad-path', document: { robot_id: 'r', query: { nested: { path: 'changeset.robots', query: { match_all: {} } } } } }),
    );
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.reason).toContain('[nested] failed to find nested object under path [changeset.robots]');
  });
});
