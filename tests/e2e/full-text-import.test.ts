import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256, startContentServer, type ContentServer } from '../../packages/platform/test/enhancement-content/content-server';
import { studyData } from '../../packages/platform/test/enhancement-content/linked-data-fixtures';
import { requestDevelopmentToken } from '@destiny/devstack/identity';
import { startSystemUnderTest, type Provisioned, type SystemUnderTest } from './support/system-under-test';

// Full texts and linked data end to end (§6.6): an import line's full text is downloaded, checked
// and stored, its bad linked data dropped with the reason; an entitled reader gets a signed URL
// that downloads the same bytes; a robot's bad full text or linked data becomes that reference's
// error in the batch's validation file.

type Reference = { id: string; enhancements: Array<{ source: string; content: { enhancement_type: string; file_url?: string; sha256_checksum?: string; byte_size?: number } }> };

describe('full-text and linked-data enhancements end to end', () => {
  let system: SystemUnderTest;
  let content: ContentServer;
  let reader: Record<string, string>;
  const url = (route: string) => system.url(route);
  const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    let value = await read();
    for (let attempt = 0; attempt < 600 && !done(value); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      value = await read();
    }
    return value;
  };

  beforeAll(async () => {
    content = await startContentServer({ bigBytes: 1024 });
    system = await startSystemUnderTest({
      label: 'full-text',
      services: ['dedup-service', 'robot-broker', 'import-service'],
      env: { 'import-service': { IMPORT_RETRY_BASE_MS: '50' } },
    });
    reader = { authorization: `Bearer ${await requestDevelopmentToken(system.identity.url, 'reader')}` };
  });

  afterAll(async () => {
    await system?.stop();
    await content?.stop();
  });

  const fullText = (path: string, extra: Record<string, unknown> = {}) => ({ source: 'importer', visibility: 'public', content: { enhancement_type: 'full_text', file_url: `${content.base}${path}`, ...extra } });
  const linkedData = (vocabulary: string, extra: Record<string, unknown> = {}) => ({
    source: 'importer',
    visibility: 'public',
    content: { enhancement_type: 'linked_data', vocabulary_uri: `${content.base}${vocabulary}`, data: studyData(`${content.base}/context.jsonld`, extra) },
  });
  let importedId: string;

  it('when an import line carries a full text and bad linked data, then the line is partially_failed with the reason and an entitled reader downloads the same bytes', async () => {
    const doi = `10.7777/full-text-${Date.now()}`;
    const lines = [
      { identifiers: [{ identifier_type: 'doi', identifier: doi }], enhancements: [fullText('/paper.pdf', { sha256_checksum: sha256(content.paper) }), linkedData('/vocabulary.ttl', { unknownTerm: 'x' })] },
      { identifiers: [{ identifier_type: 'doi', identifier: `${doi}.valid` }], enhancements: [linkedData('/vocabulary.ttl')] },
    ];
    const files = await startBatchFileServer(lines.map((line) => JSON.stringify(line)).join('\n'));
    try {
      const record = (await (await fetch(url('/imports/records/'), system.bearer('POST', { processor_name: 'full-text-e2e', processor_version: '1', expected_reference_count: 2, source_name: 'test' }))).json()) as { id: string };
      const batch = (await (await fetch(url(`/imports/records/${record.id}/batches/`), system.bearer('POST', { storage_url: files.url }))).json()) as { id: string };
      const batchUrl = url(`/imports/records/${record.id}/batches/${batch.id}/`);
      const status = await until(
        async () => ((await (await fetch(batchUrl, { headers: system.admin })).json()) as { status: string }).status,
        (value) => ['completed', 'failed', 'partially_failed'].includes(value),
      );
      expect(status).toBe('partially_failed');
      const results = (await (await fetch(`${batchUrl}results/`, { headers: system.admin })).json()) as Array<{ status: string; reference_id: string; failure_details: string | null }>;
      const partial = results.find((result) => result.status === 'partially_failed');
      expect(partial?.failure_details).toBe(`Entry ref 1:\n\nLinkedData validation failed: property <https://vocab.example.org/destiny#notInVocabulary> is not defined in the vocabulary (vocabulary ${content.base}/vocabulary.ttl).`);
      expect(results.filter((result) => result.status === 'completed')).toHaveLength(1);
      importedId = partial!.reference_id;
    } finally {
      await files.stop();
    }

    const asAdmin = (await (await fetch(url(`/references/${importedId}/`), { headers: system.admin })).json()) as Reference;
    expect(asAdmin.enhancements.map((enhancement) => enhancement.content.enhancement_type)).toEqual(['full_text']);
    const stored = asAdmin.enhancements[0].content;
    expect(stored).toMatchObject({ sha256_checksum: sha256(content.paper), byte_size: content.paper.length, mime_type: 'application/pdf' });
    expect(stored.file_url).not.toContain(content.base);
    const download = await fetch(stored.file_url as string);
    expect(download.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await download.arrayBuffer()), content.paper)).toBe(0);

    const asReader = (await (await fetch(url(`/references/${importedId}/`), { headers: reader })).json()) as Reference;
    expect(asReader.enhancements).toEqual([]);
  });

  it('when a robot returns a bad full text or bad linked data, then each is that reference\'s error in the validation file and a good full text is stored', async () => {
    const [badFullText, badLinkedData, good] = await system.ingest(
      [1, 2, 3].map((n) => ({ identifiers: [{ identifier_type: 'doi', identifier: `10.7777/robot-${n}-${Date.now()}` }], enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: `Paper ${n}` } }] })),
    );
    const registered = await fetch(url('/robots/'), system.bearer('POST', { name: `pdf-robot-${Date.now()}`, description: 'Finds full texts', owner: 'Team A', entitlements: ['full_text'] }));
    expect(registered.status).toBe(201);
    const robot = (await registered.json()) as Provisioned;
    const references = [badFullText, badLinkedData, good, importedId];
    expect((await fetch(url('/enhancement-requests/'), system.bearer('POST', { robot_id: robot.id, reference_ids: references }))).status).toBe(202);
    const batch = (await (await fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}&limit=10`), system.signed(robot, 'POST'))).json()) as { id: string; reference_storage_url: string; result_storage_url: string };

    // The robot holds full_text: the imported reference's full text reaches it as a signed URL of the stored copy.
    const file = (await (await fetch(batch.reference_storage_url)).text()).trim().split('\n').map((line) => JSON.parse(line) as Reference);
    const withFullText = file.find((reference) => reference.id === importedId);
    const signed = withFullText?.enhancements.find((enhancement) => enhancement.content.enhancement_type === 'full_text')?.content.file_url as string;
    expect(Buffer.compare(Buffer.from(await (await fetch(signed)).arrayBuffer()), content.paper)).toBe(0);

    const result = (referenceId: string, enhancement: { content: Record<string, unknown> }) => JSON.stringify({ reference_id: referenceId, source: 'pdf-robot', visibility: 'public', robot_version: '1', content: enhancement.content });
    const results = [
      result(badFullText, fullText('/paper.pdf', { sha256_checksum: 'f'.repeat(64) })),
      result(badLinkedData, linkedData('/no-vocabulary.ttl')),
      result(good, fullText('/paper-chunked.pdf')),
      JSON.stringify({ reference_id: importedId, message: 'nothing new' }),
    ].join('\n');
    expect((await fetch(batch.result_storage_url, { method: 'PUT', body: results })).status).toBe(200);
    expect((await fetch(url(`/robot-enhancement-batches/${batch.id}/results/`), system.signed(robot, 'POST', JSON.stringify({ request_id: batch.id, error: null })))).status).toBe(202);

    const read = await until(
      async () => (await (await fetch(url(`/robot-enhancement-batches/${batch.id}/`), system.signed(robot, 'GET'))).json()) as { validation_result_url?: string | null },
      (value) => Boolean(value.validation_result_url),
    );
    expect(read.validation_result_url).toBeTruthy();
    const entries = (await (await fetch(read.validation_result_url as string)).text()).trim().split('\n').map((line) => JSON.parse(line) as { reference_id?: string; error?: string });
    expect(entries).toEqual([
      { reference_id: badFullText, error: `Full text at ${content.base}/paper.pdf has SHA-256 checksum ${sha256(content.paper)}, but sha256_checksum declares ${'f'.repeat(64)}.` },
      { reference_id: badLinkedData, error: `Could not fetch or parse the vocabulary needed to validate this enhancement. This may be transient. Detail: ${content.base}/no-vocabulary.ttl answered HTTP 404` },
      { reference_id: good },
      { reference_id: importedId, error: 'nothing new' },
    ]);
    const stored = (await (await fetch(url(`/references/${good}/`), { headers: system.admin })).json()) as Reference;
    const robotFullText = stored.enhancements.find((enhancement) => enhancement.source === 'pdf-robot')?.content;
    expect(robotFullText).toMatchObject({ sha256_checksum: sha256(content.paper), byte_size: content.paper.length });
  });
});

async function startBatchFileServer(body: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/batch.jsonl`, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
