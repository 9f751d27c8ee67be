// Point-in-time paging with search_after through thousands of documents, and durability of
// indices (mappings, settings, aliases, documents) across a restart with a data folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type SearchFixture, esError, startSearchFixture } from './search-test-server';

describe('point in time', () => {
  let fixture: SearchFixture;

  beforeAll(async () => {
    fixture = await startSearchFixture();
    await fixture.client.indices.create({ index: 'pit-v1', aliases: { 'pit-alias': {} }, mappings: { properties: { n: { type: 'integer' }, group: { type: 'keyword' } } } });
    const operations: unknown[] = [];
    for (let n = 0; n < 2500; n += 1) operations.push({ index: { _index: 'pit-v1', _id: `d${n}` } }, { n, group: n % 2 === 0 ? 'even' : 'odd' });
    const bulk = await fixture.client.bulk({ refresh: true, operations });
    expect(bulk.errors).toBe(false);
  });

  afterAll(async () => {
    await fixture.close();
  });

  test('when paging with a PIT and search_after in pages of 1000, then all 2,500 documents come back once, despite concurrent writes', async () => {
    const pit = await fixture.client.openPointInTime({ index: 'pit-alias', keep_alive: '1m' });
    expect(typeof pit.id).toBe('string');
    // Changes after the PIT opened must not be visible through it.
    await fixture.client.index({ index: 'pit-v1', id: 'late', document: { n: 99999, group: 'even' }, refresh: true });
    await fixture.client.delete({ index: 'pit-v1', id: 'd7', refresh: true });
    const seen: string[] = [];
    let searchAfter: unknown[] | undefined;
    let pages = 0;
    for (;;) {
      const page = await fixture.client.search({
        pit: { id: pit.id, keep_alive: '1m' },
        size: 1000,
        sort: [{ n: 'asc' }],
        track_total_hits: true,
        ...(searchAfter ? { search_after: searchAfter as never } : {}),
      });
      expect(page.pit_id).toBe(pit.id);
      expect(page.hits.total).toEqual({ value: 2500, relation: 'eq' });
      if (page.hits.hits.length === 0) break;
      pages += 1;
      for (const hit of page.hits.hits) seen.push(hit._id as string);
      searchAfter = page.hits.hits[page.hits.hits.length - 1].sort;
      expect(searchAfter).toHaveLength(2);
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(2500);
    expect(new Set(seen).size).toBe(2500);
    expect(seen[0]).toBe('d0');
    expect(seen[2499]).toBe('d2499');
    expect(seen).toContain('d7');
    const closed = await fixture.client.closePointInTime({ id: pit.id });
    expect(closed).toEqual({ succeeded: true, num_freed: 1 });
  });

  test('when a PIT has no sort, then hits are paged by score and the implicit _shard_doc tiebreaker', async () => {
    const pit = await fixture.client.openPointInTime({ index: 'pit-v1', keep_alive: '30s' });
    const seen = new Set<string>();
    let searchAfter: unknown[] | undefined;
    for (;;) {
      const page = await fixture.client.search({ pit: { id: pit.id }, size: 400, query: { term: { group: 'odd' } }, ...(searchAfter ? { search_after: searchAfter as never } : {}) });
      if (page.hits.hits.length === 0) break;
      for (const hit of page.hits.hits) seen.add(hit._id as string);
      searchAfter = page.hits.hits[page.hits.hits.length - 1].sort;
    }
    expect(seen.size).toBe(1249);
    await fixture.client.closePointInTime({ id: pit.id });
  });

  test('when a closed PIT is used, then search_context_missing_exception 404', async () => {
    const pit = await fixture.client.openPointInTime({ index: 'pit-v1', keep_alive: '1m' });
    await fixture.client.closePointInTime({ id: pit.id });
    const failure = await esError(fixture.client.search({ pit: { id: pit.id }, size: 1 }));
    expect(failure.statusCode).toBe(404);
    expect(failure.body.error.type).toBe('search_context_missing_exception');
  });
});

describe('restart with a data folder', () => {
  test('when the stand-in restarts, then indices, mappings, settings, aliases, documents and versions survive', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-standin-'));
    try {
      const first = await startSearchFixture(dataDir);
      await first.client.indices.create({
        index: 'durable-v1',
        settings: { analysis: { analyzer: { folding: { type: 'custom', tokenizer: 'standard', filter: ['lowercase', 'asciifolding'] } } } },
        mappings: { properties: { title: { type: 'text', analyzer: 'folding' }, year: { type: 'integer' } } },
        aliases: { durable: {} },
      });
      await first.client.index({ index: 'durable', id: 'a', document: { title: 'Café society', year: 2001 } });
      await first.client.index({ index: 'durable', id: 'ext', document: { title: 'versioned' }, version: 42, version_type: 'external' });
      await first.client.bulk({ operations: [{ index: { _index: 'durable', _id: 'b' } }, { title: 'Second', year: 2002 }, { delete: { _index: 'durable', _id: 'a' } }, { index: { _index: 'durable', _id: 'c' } }, { title: 'Third café', year: 2003, extra: 'dynamic' }] });
      await first.client.indices.create({ index: 'temporary' });
      await first.client.indices.delete({ index: 'temporary' });
      await first.close();

      const second = await startSearchFixture(dataDir);
      try {
        expect(await second.client.indices.exists({ index: 'temporary' })).toBe(false);
        const index = await second.client.indices.get({ index: 'durable' });
        expect(Object.keys(index)).toEqual(['durable-v1']);
        expect(index['durable-v1'].aliases).toEqual({ durable: {} });
        expect(index['durable-v1'].mappings?.properties?.extra).toEqual({ type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } });
        expect(await second.client.exists({ index: 'durable', id: 'a' })).toBe(false);
        const ext = await second.client.get({ index: 'durable', id: 'ext' });
        expect(ext._version).toBe(42);
        const stale = await esError(second.client.index({ index: 'durable', id: 'ext', document: { title: 'stale' }, version: 41, version_type: 'external' }));
        expect(stale.statusCode).toBe(409);
        const hits = await second.client.search({ index: 'durable', query: { match: { title: 'cafe' } } });
        expect(hits.hits.hits.map((hit) => hit._id)).toEqual(['c']);
        await second.client.index({ index: 'durable', id: 'd', document: { title: 'After restart' } });
      } finally {
        await second.close();
      }

      const third = await startSearchFixture(dataDir);
      try {
        const count = await third.client.count({ index: 'durable' });
        expect(count.count).toBe(4);
      } finally {
        await third.close();
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
