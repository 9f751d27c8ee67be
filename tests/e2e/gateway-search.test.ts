import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSystemUnderTest, type SystemUnderTest } from './support/system-under-test';

// Search through the gateway: references imported over HTTP reach the search index through
// dedup-service's events, and search hits are redacted like every other reference read (§6.1).

const MARKER = `zanzibarium${Date.now()}`;
// The full text is served by the test's own file server: import-service downloads it.
const line = (filesUrl: string) =>
  JSON.stringify({
    identifiers: [{ identifier_type: 'doi', identifier: `10.5555/${MARKER}` }],
    enhancements: [
      { source: 'importer', visibility: 'public', content: { enhancement_type: 'bibliographic', title: `On ${MARKER} in coastal wetlands`, publication_year: 2024 } },
      { source: 'importer', visibility: 'public', content: { enhancement_type: 'full_text', file_url: `${filesUrl}/paper.pdf` } },
    ],
  });

describe('api-gateway reference search end to end', () => {
  let system: SystemUnderTest;
  let files: http.Server;
  const url = (route: string) => system.url(route);
  const bearer = (roles: string[]) => ({ authorization: `Bearer ${system.issuer.mint({ roles })}`, 'content-type': 'application/json' });

  beforeAll(async () => {
    files = http.createServer((request, response) =>
      request.url === '/paper.pdf' ? response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7 a paper') : response.writeHead(200).end(`${line(`http://127.0.0.1:${(files.address() as AddressInfo).port}`)}\n`),
    );
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
    system = await startSystemUnderTest({
      label: 'gateway-search',
      auth: 'test-issuer',
      services: ['dedup-service', 'import-service', 'search-request-service'],
      env: { 'import-service': { OUTBOUND_ALLOWLIST: '127.0.0.0/8' }, 'search-request-service': { INDEXING_BATCH_WAIT_MS: '10' } },
    });
  });

  afterAll(async () => {
    await system?.stop();
    await new Promise<void>((resolve) => (files ? files.close(() => resolve()) : resolve()));
  });

  it('when an imported reference is indexed, then search finds it through the gateway with full texts removed for a plain reader', async () => {
    const writer = bearer(['import.writer']);
    const record = (await (await fetch(url('/imports/records/'), { method: 'POST', headers: writer, body: JSON.stringify({ processor_name: 'p', processor_version: '1', expected_reference_count: 1, source_name: 's' }) })).json()) as { id: string };
    const batch = await fetch(url(`/imports/records/${record.id}/batches/`), { method: 'POST', headers: writer, body: JSON.stringify({ storage_url: `http://127.0.0.1:${(files.address() as AddressInfo).port}/batch.jsonl` }) });
    expect(batch.status).toBe(202);

    type SearchResult = { total: { count: number; is_lower_bound: boolean }; page: { count: number; number: number }; references: Array<{ enhancements: Array<{ content: { enhancement_type: string } }> }> };
    let result: SearchResult = { total: { count: 0, is_lower_bound: false }, page: { count: 0, number: 1 }, references: [] };
    for (let attempt = 0; attempt < 600 && result.total.count === 0; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const response = await fetch(url(`/references/search/?q=${MARKER}`), { headers: bearer(['reference.reader']) });
      expect(response.status).toBe(200);
      result = (await response.json()) as SearchResult;
    }
    expect(result).toMatchObject({ total: { count: 1, is_lower_bound: false }, page: { count: 1, number: 1 } });
    expect(result.references[0].enhancements.map((item) => item.content.enhancement_type)).toEqual(['bibliographic']);

    const withFullText = (await (await fetch(url(`/references/search/?q=${MARKER}`), { headers: bearer(['reference.reader', 'reference.full_text.reader']) })).json()) as SearchResult;
    expect(withFullText.references[0].enhancements.map((item) => item.content.enhancement_type).sort()).toEqual(['bibliographic', 'full_text']);

    const ids = await fetch(url(`/references/search/ids/?q=${MARKER}`), { headers: bearer(['reference.reader']) });
    expect(ids.status).toBe(200);
    expect(await ids.json()).toMatchObject({ total: { count: 1 }, reference_ids: [expect.any(String)] });
  });

  it('when the query string is malformed or the page out of range, then 400 from the search service and 422 from validation', async () => {
    const malformed = await fetch(url('/references/search/?q=title:(unclosed'), { headers: bearer(['reference.reader']) });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { detail: string }).detail).toMatch(/^Elasticsearch query failed: /);
    const page = await fetch(url('/references/search/?q=x&page=501'), { headers: bearer(['reference.reader']) });
    expect(page.status).toBe(422);
  });

  it('when the query string nests groups 5000 deep, then 400 from the search service (not 503) and search keeps answering', async () => {
    const deep = await fetch(url(`/references/search/?q=${'('.repeat(5000)}a${')'.repeat(5000)}`), { headers: bearer(['reference.reader']) });
    expect(deep.status).toBe(400);
    expect(((await deep.json()) as { detail: string }).detail).toMatch(/^Elasticsearch query failed: /);
    const plain = await fetch(url(`/references/search/?q=${'('.repeat(20)}${MARKER}${')'.repeat(20)}`), { headers: bearer(['reference.reader']) });
    expect(plain.status).toBe(200);
  });
});
