import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSystemUnderTest, type SystemUnderTest } from './support/system-under-test';

// Search through the gateway over real imports: dedup-service decides, its events reach the index,
// a manual duplicate decision folds one reference into another, a merge import adds an
// enhancement, and a repair rebuilds the index from dedup-service's stream.

const MARK = `quillwort${Date.now()}`;
const bibliographic = (title: string, year: number) => ({ source: 'importer', visibility: 'public', content: { enhancement_type: 'bibliographic', title, publication_year: year } });
const abstract = (text: string) => ({ source: 'e2e-abstracts', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: text } });
const reference = (doi: string, enhancements: unknown[]) => JSON.stringify({ identifiers: [{ identifier_type: 'doi', identifier: doi }], enhancements });

const DOI = { canonical: `10.5555/${MARK}-a`, duplicate: `10.5555/${MARK}-b`, other: `10.5555/${MARK}-c` };
const files: Record<string, string> = {
  '/first.jsonl': [
    reference(DOI.canonical, [bibliographic(`Pollination of ${MARK} by bumblebees`, 2004)]),
    reference(DOI.duplicate, [bibliographic(`Seed dispersal of ${MARK} in fens`, 2011), abstract('Ants carry elaiosomes.')]),
    reference(DOI.other, [bibliographic(`Growth of ${MARK} in acidic lakes`, 1998)]),
  ].join('\n'),
  '/second.jsonl': reference(DOI.other, [abstract('Isoetes spores overwinter in sediment.')]),
};

interface SearchResult {
  total: { count: number; is_lower_bound: boolean };
  page: { count: number; number: number };
  references: Array<{ id: string; identifiers: Array<{ identifier: string }>; duplicate_determination?: string }>;
}

describe('reference search end to end over imports and deduplication', () => {
  let system: SystemUnderTest;
  let fileServer: http.Server;
  let filesUrl: string;
  const url = (route: string) => system.url(route);
  const bearer = (roles: string[]) => ({ authorization: `Bearer ${system.issuer.mint({ roles })}`, 'content-type': 'application/json' });

  async function searchFor(query: string): Promise<SearchResult> {
    const response = await fetch(url(`/references/search/?${query}`), { headers: bearer(['reference.reader']) });
    expect(response.status).toBe(200);
    return (await response.json()) as SearchResult;
  }

  /** Asks until the index reflects what the events carry (they are applied asynchronously). */
  async function searchUntil(query: string, done: (result: SearchResult) => boolean): Promise<SearchResult> {
    let result = await searchFor(query);
    for (let attempt = 0; attempt < 400 && !done(result); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      result = await searchFor(query);
    }
    return result;
  }

  async function importFile(file: string, collisionStrategy: string): Promise<void> {
    const writer = bearer(['import.writer']);
    const record = (await (await fetch(url('/imports/records/'), { method: 'POST', headers: writer, body: JSON.stringify({ processor_name: 'search-e2e', processor_version: '1', expected_reference_count: 1, source_name: 's' }) })).json()) as { id: string };
    const batch = await fetch(url(`/imports/records/${record.id}/batches/`), { method: 'POST', headers: writer, body: JSON.stringify({ storage_url: `${filesUrl}${file}`, collision_strategy: collisionStrategy }) });
    expect(batch.status).toBe(202);
  }

  beforeAll(async () => {
    fileServer = http.createServer((request, response) => response.writeHead(200).end(`${files[request.url ?? ''] ?? ''}\n`));
    await new Promise<void>((resolve) => fileServer.listen(0, '127.0.0.1', () => resolve()));
    filesUrl = `http://127.0.0.1:${(fileServer.address() as AddressInfo).port}`;
    system = await startSystemUnderTest({
      label: 'search-e2e',
      auth: 'test-issuer',
      services: ['dedup-service', 'import-service', 'search-request-service'],
      env: { 'import-service': { OUTBOUND_ALLOWLIST: '127.0.0.0/8' }, 'search-request-service': { INDEXING_BATCH_WAIT_MS: '10' } },
    });
  });

  afterAll(async () => {
    await system?.stop();
    await new Promise<void>((resolve) => (fileServer ? fileServer.close(() => resolve()) : resolve()));
  });

  it('when references are imported, deduplicated, folded, enhanced and the index repaired, then search follows each step', async () => {
    await importFile('/first.jsonl', 'fail');
    // Imported, then decided by dedup-service: each hit ends up carrying its determination.
    const imported = await searchUntil(`q=${MARK}`, (result) => result.total.count === 3 && result.references.every((hit) => hit.duplicate_determination !== undefined));
    expect(imported.total).toEqual({ count: 3, is_lower_bound: false });
    const idOf = (doi: string) => imported.references.find((hit) => hit.identifiers.some((identifier) => identifier.identifier === doi))!.id;
    const [canonical, duplicate, other] = [idOf(DOI.canonical), idOf(DOI.duplicate), idOf(DOI.other)];

    expect((await searchFor(`q=title:${MARK}&start_year=2000&end_year=2010`)).references.map((hit) => hit.id)).toEqual([canonical]);
    expect((await searchFor('q=%22seed%20dispersal%22')).references.map((hit) => hit.id)).toEqual([duplicate]);
    expect((await searchFor(`q=${MARK}%20-bumblebees&sort=publication_year`)).references.map((hit) => hit.id)).toEqual([other, duplicate]);

    const decided = await fetch(url('/references/duplicate-decisions/'), {
      method: 'POST',
      headers: bearer(['reference.reader', 'reference.deduplicator']),
      body: JSON.stringify([
        { reference_id: canonical, duplicate_determination: 'canonical', canonical_reference_id: null, detail: null },
        { reference_id: duplicate, duplicate_determination: 'duplicate', canonical_reference_id: canonical, detail: 'same plant study' },
      ]),
    });
    expect(decided.status).toBe(201);
    const folded = await searchUntil('q=elaiosomes', (result) => result.references.length === 1 && result.references[0].id === canonical);
    expect(folded.references.map((hit) => hit.id)).toEqual([canonical]);
    expect(folded.references[0].identifiers.map((identifier) => identifier.identifier)).toEqual([DOI.canonical, DOI.duplicate]);
    expect((await searchFor(`q=${MARK}`)).references.map((hit) => hit.id).sort()).toEqual([canonical, other].sort());

    await importFile('/second.jsonl', 'merge_defensive');
    const enhanced = await searchUntil('q=abstract:sediment', (result) => result.total.count === 1);
    expect(enhanced.references.map((hit) => hit.id)).toEqual([other]);

    const queries = [`q=${MARK}`, 'q=elaiosomes', 'q=sediment', `q=${MARK}&sort=-publication_year`, `q=title:${MARK}&start_year=1990&end_year=2005`];
    const before = await Promise.all(queries.map(searchFor));
    const repaired = await fetch(url('/system/indices/reference/repair/'), { method: 'POST', headers: bearer(['administrator']) });
    expect(repaired.status).toBe(202);
    expect(((await repaired.json()) as { message: string }).message).toMatch(/^Rebuilt index reference-v\d+ with 2 references\.$/);
    expect(await Promise.all(queries.map(searchFor))).toEqual(before);
  });
});
