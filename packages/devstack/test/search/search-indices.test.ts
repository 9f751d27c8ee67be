// Index administration through the official client: info, health, create/exists/delete, mappings,
// aliases, refresh and Elasticsearch's error bodies for each failure.
import http from 'node:http';
import { type SearchFixture, esError, startSearchFixture } from './search-test-server';

let fixture: SearchFixture;

beforeAll(async () => {
  fixture = await startSearchFixture();
});

afterAll(async () => {
  await fixture.close();
});

function rawRequest(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${fixture.standIn.url}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('cluster endpoints', () => {
  test('when the client asks for info, then it gets an Elasticsearch 9 identity with the product header', async () => {
    const info = await fixture.client.info();
    expect(info.version.number.startsWith('9.')).toBe(true);
    expect(info.tagline).toBe('You Know, for Search');
    const raw = await rawRequest('GET', '/');
    expect(raw.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  test('when a HEAD request is made, then the answer has the product header and no body', async () => {
    const raw = await rawRequest('HEAD', '/');
    expect(raw.status).toBe(200);
    expect(raw.body).toBe('');
    expect(raw.headers['x-elastic-product']).toBe('Elasticsearch');
  });

  test('when a body is sent with the vnd compatible-with=9 content type, then it is parsed', async () => {
    const raw = await rawRequest(
      'PUT',
      '/vnd-typed',
      { 'content-type': 'application/vnd.elasticsearch+json; compatible-with=9', accept: 'application/vnd.elasticsearch+json; compatible-with=9' },
      JSON.stringify({ mappings: { properties: { code: { type: 'keyword' } } } }),
    );
    expect(raw.status).toBe(200);
    expect(raw.headers['content-type']).toContain('application/vnd.elasticsearch+json');
    const mapping = await fixture.client.indices.getMapping({ index: 'vnd-typed' });
    expect(mapping['vnd-typed'].mappings.properties?.code).toEqual({ type: 'keyword' });
  });

  test('when cluster health is requested, then the single node reports green', async () => {
    const health = await fixture.client.cluster.health({ wait_for_status: 'yellow' });
    expect(health.status).toBe('green');
    expect(health.number_of_nodes).toBe(1);
  });
});

describe('indices', () => {
  test('when an index is created with settings, mappings and aliases, then get returns them', async () => {
    const created = await fixture.client.indices.create({
      index: 'books-v1',
      settings: { number_of_shards: 1, analysis: { analyzer: { folding: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] } } } },
      mappings: { dynamic: 'strict', properties: { title: { type: 'text', analyzer: 'folding' }, year: { type: 'integer' } } },
      aliases: { books: {} },
    });
    expect(created).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'books-v1' });
    const index = await fixture.client.indices.get({ index: 'books' });
    expect(Object.keys(index)).toEqual(['books-v1']);
    expect(index['books-v1'].aliases).toEqual({ books: {} });
    expect(index['books-v1'].mappings).toEqual({ dynamic: 'strict', properties: { title: { type: 'text', analyzer: 'folding' }, year: { type: 'integer' } } });
    expect(index['books-v1'].settings?.index?.number_of_shards).toBe('1');
    expect(await fixture.client.indices.exists({ index: 'books-v1' })).toBe(true);
    expect(await fixture.client.indices.exists({ index: 'books' })).toBe(true);
    expect(await fixture.client.indices.exists({ index: 'no-such-index' })).toBe(false);
  });

  test('when an index is created twice, then the second gets resource_already_exists_exception 400', async () => {
    await fixture.client.indices.create({ index: 'twice' });
    const failure = await esError(fixture.client.indices.create({ index: 'twice' }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('resource_already_exists_exception');
    expect(failure.body.error.reason).toMatch(/^index \[twice\/[^\]]+\] already exists$/);
    expect(failure.body.error.root_cause[0].type).toBe('resource_already_exists_exception');
  });

  test('when an index name has upper case, then invalid_index_name_exception 400', async () => {
    const failure = await esError(fixture.client.indices.create({ index: 'Books' }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('invalid_index_name_exception');
    expect(failure.body.error.reason).toBe('Invalid index name [Books], must be lowercase');
  });

  test('when a missing index is deleted or searched, then index_not_found_exception 404', async () => {
    const deletion = await esError(fixture.client.indices.delete({ index: 'ghost' }));
    expect(deletion.statusCode).toBe(404);
    expect(deletion.body.error).toMatchObject({ type: 'index_not_found_exception', reason: 'no such index [ghost]', index: 'ghost', 'resource.id': 'ghost' });
    const search = await esError(fixture.client.search({ index: 'ghost', query: { match_all: {} } }));
    expect(search.statusCode).toBe(404);
    expect(search.body.error.type).toBe('index_not_found_exception');
  });

  test('when an index is deleted, then it no longer exists', async () => {
    await fixture.client.indices.create({ index: 'short-lived' });
    expect(await fixture.client.indices.delete({ index: 'short-lived' })).toEqual({ acknowledged: true });
    expect(await fixture.client.indices.exists({ index: 'short-lived' })).toBe(false);
  });

  test('when a mapping is extended, then new fields are added and a type change is refused', async () => {
    await fixture.client.indices.create({ index: 'mapped', mappings: { properties: { name: { type: 'keyword' } } } });
    await fixture.client.indices.putMapping({ index: 'mapped', properties: { score: { type: 'scaled_float', scaling_factor: 100 } } });
    const mapping = await fixture.client.indices.getMapping({ index: 'mapped' });
    expect(mapping.mapped.mappings.properties).toEqual({ name: { type: 'keyword' }, score: { type: 'scaled_float', scaling_factor: 100 } });
    const failure = await esError(fixture.client.indices.putMapping({ index: 'mapped', properties: { name: { type: 'text' } } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('illegal_argument_exception');
    expect(failure.body.error.reason).toBe('mapper [name] cannot be changed from type [keyword] to [text]');
  });

  test('when documents introduce new fields, then dynamic mapping adds them as Elasticsearch does', async () => {
    await fixture.client.index({ index: 'dynamic-index', id: '1', document: { title: 'A title', count: 3, ratio: 0.5, flag: true, when: '2024-01-02', nested: { inner: 'x' } } });
    const mapping = await fixture.client.indices.getMapping({ index: 'dynamic-index' });
    expect(mapping['dynamic-index'].mappings.properties).toEqual({
      title: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      count: { type: 'long' },
      ratio: { type: 'float' },
      flag: { type: 'boolean' },
      when: { type: 'date' },
      nested: { properties: { inner: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } } } },
    });
  });

  test('when a strict mapping meets an unknown field, then strict_dynamic_mapping_exception 400', async () => {
    const failure = await esError(fixture.client.index({ index: 'books-v1', id: 'x', document: { title: 'ok', publisher: 'nope' } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('strict_dynamic_mapping_exception');
    expect(failure.body.error.reason).toContain('mapping set to strict, dynamic introduction of [publisher] within [_doc] is not allowed');
  });

  test('when a sub-object is strict inside a dynamic root, then only its own unknown fields are refused', async () => {
    await fixture.client.indices.create({ index: 'mixed-dynamic', mappings: { properties: { meta: { type: 'object', dynamic: 'strict', properties: { a: { type: 'keyword' } } } } } });
    await fixture.client.index({ index: 'mixed-dynamic', id: '1', document: { free: 'ok', meta: { a: 'x' } } });
    const failure = await esError(fixture.client.index({ index: 'mixed-dynamic', id: '2', document: { meta: { a: 'x', b: 'y' } } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('strict_dynamic_mapping_exception');
    expect(failure.body.error.reason).toContain('dynamic introduction of [b] within [meta] is not allowed');
  });

  test('when dynamic is false, then unknown fields are kept in _source but not searchable', async () => {
    await fixture.client.indices.create({ index: 'loose', mappings: { dynamic: false, properties: { known: { type: 'keyword' } } } });
    await fixture.client.index({ index: 'loose', id: '1', document: { known: 'a', extra: 'hidden' }, refresh: true });
    const document = await fixture.client.get({ index: 'loose', id: '1' });
    expect(document._source).toEqual({ known: 'a', extra: 'hidden' });
    const hits = await fixture.client.search({ index: 'loose', query: { match: { extra: 'hidden' } } });
    expect(hits.hits.total).toEqual({ value: 0, relation: 'eq' });
    const mapping = await fixture.client.indices.getMapping({ index: 'loose' });
    expect(Object.keys(mapping.loose.mappings.properties ?? {})).toEqual(['known']);
  });

  test('when an object is mapped with enabled false, then its content is stored but never mapped or searchable', async () => {
    await fixture.client.indices.create({ index: 'stored-view', mappings: { properties: { id: { type: 'keyword' }, view: { type: 'object', enabled: false } } } });
    await fixture.client.index({ index: 'stored-view', id: '1', document: { id: '1', view: { title: 'kept', nested: { n: [1, 'mixed'] } } }, refresh: true });
    expect((await fixture.client.get({ index: 'stored-view', id: '1' }))._source).toEqual({ id: '1', view: { title: 'kept', nested: { n: [1, 'mixed'] } } });
    const mapping = await fixture.client.indices.getMapping({ index: 'stored-view' });
    expect(mapping['stored-view'].mappings.properties?.view).toEqual({ enabled: false });
    expect((await fixture.client.count({ index: 'stored-view', query: { match: { 'view.title': 'kept' } } })).count).toBe(0);
  });

  test('when an unknown field type is mapped, then mapper_parsing_exception 400', async () => {
    const failure = await esError(fixture.client.indices.create({ index: 'bad-type', mappings: { properties: { x: { type: 'strange' } } } as never }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('mapper_parsing_exception');
    expect(failure.body.error.reason).toBe('No handler for type [strange] declared on field [x]');
  });

  test('when refresh is called, then shard counts come back', async () => {
    const refreshed = await fixture.client.indices.refresh({ index: 'books-v1' });
    expect(refreshed._shards?.failed).toBe(0);
  });
});

describe('aliases', () => {
  test('when an alias is switched atomically, then searches and writes follow it', async () => {
    await fixture.client.indices.create({ index: 'reference-v1', mappings: { properties: { title: { type: 'text' } } }, aliases: { reference: {} } });
    await fixture.client.index({ index: 'reference', id: 'a', document: { title: 'old copy' }, refresh: true });
    await fixture.client.indices.create({ index: 'reference-v2', mappings: { properties: { title: { type: 'text' } } } });
    await fixture.client.index({ index: 'reference-v2', id: 'b', document: { title: 'new copy' }, refresh: true });
    const switched = await fixture.client.indices.updateAliases({
      actions: [{ remove: { index: 'reference-v1', alias: 'reference' } }, { add: { index: 'reference-v2', alias: 'reference' } }],
    });
    expect(switched.acknowledged).toBe(true);
    const result = await fixture.client.search({ index: 'reference', query: { match_all: {} } });
    expect(result.hits.hits.map((hit) => [hit._index, hit._id])).toEqual([['reference-v2', 'b']]);
    const aliases = await fixture.client.indices.getAlias({ name: 'reference' });
    expect(aliases).toEqual({ 'reference-v2': { aliases: { reference: {} } } });
    const written = await fixture.client.index({ index: 'reference', id: 'c', document: { title: 'via alias' } });
    expect(written._index).toBe('reference-v2');
  });

  test('when an alias action names a missing alias, then nothing changes (the request is atomic)', async () => {
    await fixture.client.indices.create({ index: 'atomic-a', aliases: { 'atomic-alias': {} } });
    const failure = await esError(
      fixture.client.indices.updateAliases({
        actions: [{ add: { index: 'atomic-a', alias: 'atomic-extra' } }, { remove: { index: 'atomic-a', alias: 'not-there' } }],
      }),
    );
    expect(failure.statusCode).toBe(404);
    expect(failure.body.error.type).toBe('aliases_not_found_exception');
    const aliases = await fixture.client.indices.getAlias({ index: 'atomic-a' });
    expect(aliases).toEqual({ 'atomic-a': { aliases: { 'atomic-alias': {} } } });
  });

  test('when an alias points at two indices without a write index, then writing through it is refused', async () => {
    await fixture.client.indices.create({ index: 'multi-a', aliases: { multi: {} } });
    await fixture.client.indices.create({ index: 'multi-b', aliases: { multi: {} } });
    const failure = await esError(fixture.client.index({ index: 'multi', id: '1', document: { a: 1 } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('illegal_argument_exception');
    expect(failure.body.error.reason).toContain('no write index is defined for alias [multi]');
  });

  test('when a missing alias is requested, then 404 and exists is false', async () => {
    const failure = await esError(fixture.client.indices.getAlias({ name: 'absent-alias' }));
    expect(failure.statusCode).toBe(404);
    expect(await fixture.client.indices.existsAlias({ name: 'absent-alias' })).toBe(false);
    expect(await fixture.client.indices.existsAlias({ name: 'multi' })).toBe(true);
  });

  test('when an alias is put and deleted on one index, then get alias reflects both', async () => {
    await fixture.client.indices.create({ index: 'single-alias' });
    await fixture.client.indices.putAlias({ index: 'single-alias', name: 'one' });
    expect(await fixture.client.indices.getAlias({ index: 'single-alias' })).toEqual({ 'single-alias': { aliases: { one: {} } } });
    await fixture.client.indices.deleteAlias({ index: 'single-alias', name: 'one' });
    expect(await fixture.client.indices.getAlias({ index: 'single-alias' })).toEqual({ 'single-alias': { aliases: {} } });
  });
});

describe('settings, filters and URI parameters', () => {
  test('when dynamic settings are updated, then they show in get settings and static ones are refused', async () => {
    await fixture.client.indices.create({ index: 'tunable' });
    expect(await fixture.client.indices.putSettings({ index: 'tunable', settings: { index: { refresh_interval: '-1' } } })).toEqual({ acknowledged: true });
    const settings = await fixture.client.indices.getSettings({ index: 'tunable' });
    expect(settings.tunable.settings?.index?.refresh_interval).toBe('-1');
    const failure = await esError(fixture.client.indices.putSettings({ index: 'tunable', settings: { index: { number_of_shards: 3 } } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.reason).toContain("Can't update non dynamic settings [[index.number_of_shards]]");
  });

  test('when an alias has a filter, then searches through it only see matching documents', async () => {
    await fixture.client.indices.create({ index: 'filtered-src', mappings: { properties: { kind: { type: 'keyword' } } } });
    await fixture.client.bulk({ refresh: true, operations: [{ index: { _index: 'filtered-src', _id: '1' } }, { kind: 'a' }, { index: { _index: 'filtered-src', _id: '2' } }, { kind: 'b' }] });
    await fixture.client.indices.updateAliases({ actions: [{ add: { index: 'filtered-src', alias: 'only-a', filter: { term: { kind: 'a' } } } }] });
    const result = await fixture.client.search({ index: 'only-a' });
    expect(result.hits.hits.map((hit) => hit._id)).toEqual(['1']);
    expect((await fixture.client.count({ index: 'only-a' })).count).toBe(1);
  });

  test('when filter_path is given, then the response keeps only those paths', async () => {
    const result = await fixture.client.bulk({ filter_path: 'errors,items.*.status', operations: [{ index: { _index: 'filtered-src', _id: '3' } }, { kind: 'c' }] });
    expect(result).toEqual({ errors: false, items: [{ index: { status: 201 } }] });
  });

  test('when a URI search uses q, then it is a query_string query', async () => {
    const result = await fixture.client.search({ index: 'filtered-src', q: 'kind:b' });
    expect(result.hits.hits.map((hit) => hit._id)).toEqual(['2']);
  });
});
