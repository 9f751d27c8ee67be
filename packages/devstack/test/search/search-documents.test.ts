// Document APIs through the official client: index/create/update/delete/get, _mget, _bulk and
// Elasticsearch's version semantics (seq_no/primary_term, external versioning, conflicts).
import { type SearchFixture, esError, startSearchFixture } from './search-test-server';

let fixture: SearchFixture;

beforeAll(async () => {
  fixture = await startSearchFixture();
  await fixture.client.indices.create({ index: 'docs', mappings: { properties: { title: { type: 'text' }, tags: { type: 'keyword' }, year: { type: 'integer' }, meta: { properties: { a: { type: 'keyword' }, b: { type: 'keyword' } } } } } });
});

afterAll(async () => {
  await fixture.close();
});

describe('single documents', () => {
  test('when a document is indexed then re-indexed, then version, seq_no and result follow Elasticsearch', async () => {
    const first = await fixture.client.index({ index: 'docs', id: 'v', document: { title: 'first' } });
    expect(first).toMatchObject({ _index: 'docs', _id: 'v', _version: 1, result: 'created', _primary_term: 1, _shards: { total: 2, successful: 1, failed: 0 } });
    const second = await fixture.client.index({ index: 'docs', id: 'v', document: { title: 'second' } });
    expect(second).toMatchObject({ _version: 2, result: 'updated' });
    expect(second._seq_no).toBe((first._seq_no ?? 0) + 1);
    const got = await fixture.client.get({ index: 'docs', id: 'v' });
    expect(got).toEqual({ _index: 'docs', _id: 'v', _version: 2, _seq_no: second._seq_no, _primary_term: 1, found: true, _source: { title: 'second' } });
  });

  test('when a document is indexed without id, then an id is generated', async () => {
    const created = await fixture.client.index({ index: 'docs', document: { title: 'no id' } });
    expect(created.result).toBe('created');
    expect(created._id).toMatch(/^[A-Za-z0-9_-]{20}$/);
  });

  test('when _create targets an existing id, then version_conflict_engine_exception 409', async () => {
    await fixture.client.create({ index: 'docs', id: 'c1', document: { title: 'x' } });
    const failure = await esError(fixture.client.create({ index: 'docs', id: 'c1', document: { title: 'y' } }));
    expect(failure.statusCode).toBe(409);
    expect(failure.body.error).toMatchObject({ type: 'version_conflict_engine_exception', reason: '[c1]: version conflict, document already exists (current version [1])', index: 'docs', shard: '0' });
  });

  test('when if_seq_no/if_primary_term do not match, then 409 and the document is unchanged', async () => {
    const written = await fixture.client.index({ index: 'docs', id: 'occ', document: { title: 'v1' } });
    const ok = await fixture.client.index({ index: 'docs', id: 'occ', document: { title: 'v2' }, if_seq_no: written._seq_no, if_primary_term: written._primary_term });
    expect(ok._version).toBe(2);
    const failure = await esError(fixture.client.index({ index: 'docs', id: 'occ', document: { title: 'v3' }, if_seq_no: written._seq_no, if_primary_term: 1 }));
    expect(failure.statusCode).toBe(409);
    expect(failure.body.error.reason).toBe(`[occ]: version conflict, required seqNo [${written._seq_no}], primary term [1]. current document has seqNo [${ok._seq_no}] and primary term [1]`);
    expect((await fixture.client.get({ index: 'docs', id: 'occ' }))._source).toEqual({ title: 'v2' });
  });

  test('when external versions arrive out of order, then the older one is rejected with 409', async () => {
    const newer = await fixture.client.index({ index: 'docs', id: 'ext', document: { title: 'newer' }, version: 10, version_type: 'external' });
    expect(newer._version).toBe(10);
    const older = await esError(fixture.client.index({ index: 'docs', id: 'ext', document: { title: 'older' }, version: 7, version_type: 'external' }));
    expect(older.statusCode).toBe(409);
    expect(older.body.error.type).toBe('version_conflict_engine_exception');
    expect(older.body.error.reason).toBe('[ext]: version conflict, current version [10] is higher or equal to the one provided [7]');
    const same = await esError(fixture.client.index({ index: 'docs', id: 'ext', document: { title: 'same' }, version: 10, version_type: 'external' }));
    expect(same.statusCode).toBe(409);
    const gte = await fixture.client.index({ index: 'docs', id: 'ext', document: { title: 'same again' }, version: 10, version_type: 'external_gte' });
    expect(gte._version).toBe(10);
    expect((await fixture.client.get({ index: 'docs', id: 'ext' }))._source).toEqual({ title: 'same again' });
  });

  test('when an external delete precedes an older write of an absent document, then the write is refused', async () => {
    const deleted = await esError(fixture.client.delete({ index: 'docs', id: 'never-there', version: 5, version_type: 'external' }));
    expect(deleted.statusCode).toBe(404);
    const stale = await esError(fixture.client.index({ index: 'docs', id: 'never-there', document: { title: 'old' }, version: 4, version_type: 'external' }));
    expect(stale.statusCode).toBe(409);
    const newer = await fixture.client.index({ index: 'docs', id: 'never-there', document: { title: 'new' }, version: 6, version_type: 'external' });
    expect(newer.result).toBe('created');
  });

  test('when internal version is used for concurrency control, then the request is refused', async () => {
    const failure = await esError(fixture.client.index({ index: 'docs', id: 'intv', document: { title: 'x' }, version: 3 }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('action_request_validation_exception');
  });

  test('when an update merges a partial doc, then nested objects merge and an identical update is a noop', async () => {
    await fixture.client.index({ index: 'docs', id: 'u', document: { title: 'base', meta: { a: '1' } } });
    const updated = await fixture.client.update({ index: 'docs', id: 'u', doc: { meta: { b: '2' } } });
    expect(updated).toMatchObject({ result: 'updated', _version: 2 });
    expect((await fixture.client.get({ index: 'docs', id: 'u' }))._source).toEqual({ title: 'base', meta: { a: '1', b: '2' } });
    const noop = await fixture.client.update({ index: 'docs', id: 'u', doc: { meta: { b: '2' } } });
    expect(noop).toMatchObject({ result: 'noop', _version: 2 });
  });

  test('when an update targets a missing document, then document_missing_exception 404 unless upserting', async () => {
    const missing = await esError(fixture.client.update({ index: 'docs', id: 'nobody', doc: { title: 'x' } }));
    expect(missing.statusCode).toBe(404);
    expect(missing.body.error).toMatchObject({ type: 'document_missing_exception', reason: '[nobody]: document missing' });
    const asUpsert = await fixture.client.update({ index: 'docs', id: 'up1', doc: { title: 'made' }, doc_as_upsert: true });
    expect(asUpsert.result).toBe('created');
    const withUpsert = await fixture.client.update({ index: 'docs', id: 'up2', doc: { title: 'ignored' }, upsert: { title: 'initial' } });
    expect(withUpsert.result).toBe('created');
    expect((await fixture.client.get({ index: 'docs', id: 'up2' }))._source).toEqual({ title: 'initial' });
    const second = await fixture.client.update({ index: 'docs', id: 'up2', doc: { title: 'changed' }, upsert: { title: 'initial' } });
    expect(second.result).toBe('updated');
  });

  test('when a document is deleted, then get is 404 and a second delete reports not_found', async () => {
    await fixture.client.index({ index: 'docs', id: 'del', document: { title: 'bye' } });
    const deleted = await fixture.client.delete({ index: 'docs', id: 'del' });
    expect(deleted).toMatchObject({ result: 'deleted', _version: 2 });
    const get = await esError(fixture.client.get({ index: 'docs', id: 'del' }));
    expect(get.statusCode).toBe(404);
    expect(get.body).toEqual({ _index: 'docs', _id: 'del', found: false });
    expect(await fixture.client.exists({ index: 'docs', id: 'del' })).toBe(false);
    const again = await esError(fixture.client.delete({ index: 'docs', id: 'del' }));
    expect(again.statusCode).toBe(404);
    expect((again.body as unknown as { result: string }).result).toBe('not_found');
  });

  test('when a document has a malformed number, then document_parsing_exception 400', async () => {
    const failure = await esError(fixture.client.index({ index: 'docs', id: 'bad', document: { year: 'soon' } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('document_parsing_exception');
    expect(failure.body.error.reason).toContain('failed to parse field [year] of type [integer]');
  });

  test('when _source filtering is requested on get, then only the chosen fields come back', async () => {
    await fixture.client.index({ index: 'docs', id: 'src', document: { title: 't', tags: ['a'], meta: { a: 'x', b: 'y' } } });
    const included = await fixture.client.get({ index: 'docs', id: 'src', _source_includes: ['meta.a', 'title'] });
    expect(included._source).toEqual({ title: 't', meta: { a: 'x' } });
    const excluded = await fixture.client.get({ index: 'docs', id: 'src', _source_excludes: ['meta'] });
    expect(excluded._source).toEqual({ title: 't', tags: ['a'] });
    const none = await fixture.client.get({ index: 'docs', id: 'src', _source: false });
    expect(none._source).toBeUndefined();
  });
});

describe('multi get and bulk', () => {
  test('when _mget asks for present and absent documents, then each is reported', async () => {
    await fixture.client.index({ index: 'docs', id: 'm1', document: { title: 'one' } });
    const result = await fixture.client.mget({ index: 'docs', ids: ['m1', 'm-missing'] });
    expect(result.docs).toEqual([
      expect.objectContaining({ _index: 'docs', _id: 'm1', found: true, _source: { title: 'one' } }),
      { _index: 'docs', _id: 'm-missing', found: false },
    ]);
    const mixed = await fixture.client.mget({ docs: [{ _index: 'docs', _id: 'm1' }, { _index: 'nowhere', _id: 'x' }] });
    expect(mixed.docs[1]).toMatchObject({ _index: 'nowhere', _id: 'x', error: { type: 'index_not_found_exception' } });
  });

  test('when a bulk mixes every action and failures, then per-item results, statuses and the errors flag match', async () => {
    await fixture.client.index({ index: 'docs', id: 'b-exists', document: { title: 'present' } });
    const result = await fixture.client.bulk({
      refresh: true,
      operations: [
        { index: { _index: 'docs', _id: 'b1' } },
        { title: 'bulk one', year: 2001 },
        { create: { _index: 'docs', _id: 'b-exists' } },
        { title: 'dup' },
        { update: { _index: 'docs', _id: 'b1' } },
        { doc: { year: 2002 } },
        { update: { _index: 'docs', _id: 'b-none' } },
        { doc: { year: 1 } },
        { delete: { _index: 'docs', _id: 'b-exists' } },
        { index: { _index: 'docs', _id: 'b-bad' } },
        { year: 'not a number' },
        { index: { _index: 'docs', _id: 'b-ext', version: 5, version_type: 'external' } },
        { title: 'external' },
      ],
    });
    expect(result.errors).toBe(true);
    const summary = result.items.map((item) => {
      const [action, body] = Object.entries(item)[0];
      return [action, body.status, body.result ?? body.error?.type];
    });
    expect(summary).toEqual([
      ['index', 201, 'created'],
      ['create', 409, 'version_conflict_engine_exception'],
      ['update', 200, 'updated'],
      ['update', 404, 'document_missing_exception'],
      ['delete', 200, 'deleted'],
      ['index', 400, 'document_parsing_exception'],
      ['index', 201, 'created'],
    ]);
    expect(result.items[6].index?._version).toBe(5);
    expect((await fixture.client.get({ index: 'docs', id: 'b1' }))._source).toEqual({ title: 'bulk one', year: 2002 });
    const count = await fixture.client.count({ index: 'docs', query: { ids: { values: ['b1', 'b-exists', 'b-ext'] } } });
    expect(count.count).toBe(2);
  });

  test('when a bulk succeeds entirely, then errors is false and missing indices are created', async () => {
    const result = await fixture.client.bulk({ operations: [{ index: { _index: 'auto-created', _id: '1' } }, { name: 'x' }] });
    expect(result.errors).toBe(false);
    expect(await fixture.client.indices.exists({ index: 'auto-created' })).toBe(true);
  });

  test('when a bulk action line is unknown, then the whole request fails with illegal_argument_exception', async () => {
    const failure = await esError(fixture.client.bulk({ operations: [{ upsert: { _index: 'docs', _id: '1' } } as never, { a: 1 }] }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('illegal_argument_exception');
    expect(failure.body.error.reason).toContain('Malformed action/metadata line [1]');
  });

  test('when delete_by_query runs, then matching documents are gone', async () => {
    await fixture.client.bulk({
      refresh: true,
      operations: [{ index: { _index: 'dbq', _id: '1' } }, { kind: 'old' }, { index: { _index: 'dbq', _id: '2' } }, { kind: 'new' }],
    });
    const result = await fixture.client.deleteByQuery({ index: 'dbq', query: { term: { 'kind.keyword': 'old' } }, refresh: true });
    expect(result.deleted).toBe(1);
    const remaining = await fixture.client.search({ index: 'dbq' });
    expect(remaining.hits.hits.map((hit) => hit._id)).toEqual(['2']);
  });
});

describe('malformed requests', () => {
  test('when a document carries a metadata field, then document_parsing_exception 400', async () => {
    const failure = await esError(fixture.client.index({ index: 'docs', id: 'meta', document: { _id: 'other', title: 'x' } }));
    expect(failure.statusCode).toBe(400);
    expect(failure.body.error.type).toBe('document_parsing_exception');
    expect(failure.body.error.reason).toContain('Field [_id] is a metadata field and cannot be added inside a document');
  });

  test('when bodies are malformed in many ways, then each gets a 4xx Elasticsearch error and the server keeps answering', async () => {
    const attempts: Array<Promise<unknown>> = [
      fixture.client.search({ index: 'docs', query: { bool: { must: 'x' } } as never }),
      fixture.client.search({ index: 'docs', query: { range: { year: { gte: {} } } } as never }),
      fixture.client.search({ index: 'docs', query: { nested: { path: 5 } } as never }),
      fixture.client.search({ index: 'docs', query: {} as never }),
      fixture.client.search({ index: 'docs', sort: [{}] as never }),
      fixture.client.search({ index: 'docs', size: -1 }),
      fixture.client.search({ index: 'docs', from: 9995, size: 10 }),
      fixture.client.search({ index: 'docs', sort: [{ year: 'asc' }], search_after: [1, 2, 3] }),
      fixture.client.search({ index: 'docs', query: { match: { year: 'not a number' } } }),
      fixture.client.indices.create({ index: 'bad-mapping', mappings: { properties: { a: null } } as never }),
      fixture.client.transport.request({ method: 'POST', path: '/docs/_search', body: '{"query": {' }),
      fixture.client.transport.request({ method: 'POST', path: '/_bulk', bulkBody: '{"index":{"_index":"docs"}}\nnot json\n' }),
    ];
    for (const attempt of attempts) {
      const failure = await esError(attempt);
      expect(failure.statusCode).toBeGreaterThanOrEqual(400);
      expect(failure.statusCode).toBeLessThan(500);
      expect(typeof failure.body.error.type).toBe('string');
    }
    expect((await fixture.client.info()).tagline).toBe('You Know, for Search');
  });
});
