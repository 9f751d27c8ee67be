import zlib from 'node:zlib';
import type { ImportBatchSummary } from '@destiny/contracts';
import { createInProcessBus, type MessageBus, type RunningBackendService } from '@destiny/platform';
import { startDedupService } from '../../dedup-service/src/index';
import { call as dedupCall, dedupClient, startInfrastructure, type DedupClient } from '../../dedup-service/test/dedup-helpers';
import { startImportService } from '../src/index';
import { call, importClient, startFileServer, waitFor, type ImportClient } from './import-helpers';
import { abstract, doi, expectMixedFileResults, MIXED_FILE_STRATEGIES, mixedFile, seedFile } from './mixed-import-file';

describe('import-service batch processing with dedup-service', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let dedup: RunningBackendService;
  let service: RunningBackendService;
  let client: ImportClient;
  let references: DedupClient;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('import-batches');
    dedup = await startDedupService(infrastructure.env);
    files = await startFileServer();
    env = {
      ...infrastructure.env,
      DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`,
      OUTBOUND_ALLOWLIST: '127.0.0.0/8',
      IMPORT_RETRY_BASE_MS: '20',
      IMPORT_MAX_LINE_BYTES: '5000',
      IMPORT_MAX_FILE_BYTES: '1000000',
      IMPORT_CHUNK_SIZE: '100',
    };
    service = await startImportService(env);
    client = importClient(service.grpcPort);
    references = dedupClient(dedup.grpcPort);
  });

  afterAll(async () => {
    client?.close();
    references?.close();
    await service?.stop();
    await dedup?.stop();
    await files?.stop();
    await infrastructure?.stop();
  });

  const createRecord = async () =>
    JSON.parse((await call<{ json: string }>(client, 'CreateImportRecord', { json: JSON.stringify({ processor_name: 'test', processor_version: '1', expected_reference_count: -1, source_name: 'tests' }) })).json) as { id: string; status: string };
  const register = async (recordId: string, batch: Record<string, unknown>, on: ImportClient = client) =>
    JSON.parse((await call<{ json: string }>(on, 'RegisterImportBatch', { import_record_id: recordId, batch_json: JSON.stringify(batch) })).json) as { id: string; status: string; import_record_id: string };
  const summaryOf = async (recordId: string, batchId: string) =>
    JSON.parse((await call<{ json: string }>(client, 'GetImportBatchSummary', { import_record_id: recordId, import_batch_id: batchId })).json) as ImportBatchSummary;
  const finished = (recordId: string, batchId: string) =>
    waitFor(async () => {
      const summary = await summaryOf(recordId, batchId);
      return ['completed', 'failed', 'partially_failed'].includes(summary.import_batch_status) && summary;
    }, `batch ${batchId} to finish`);
  const results = async (recordId: string, batchId: string, status = '') =>
    (await call<{ json: string[] }>(client, 'ListImportResults', { import_record_id: recordId, import_batch_id: batchId, result_status: status })).json.map(
      (item) => JSON.parse(item) as { id: string; status: string; reference_id: string | null; failure_details: string | null },
    );

  let seedRecord: string;
  const seeds = new Map<number, string>();

  it('when a seed file is imported, then every line completes and the batch summary counts them', async () => {
    const record = await createRecord();
    seedRecord = record.id;
    const batch = await register(record.id, { storage_url: files.serve('/seed.jsonl', seedFile()) });
    expect(batch.status).toBe('created');
    const summary = await finished(record.id, batch.id);
    expect(summary).toMatchObject({ import_batch_status: 'completed', results: { created: 0, started: 0, completed: 100, partially_failed: 0, failed: 0, retrying: 0 }, failure_details: [] });
    const rows = await results(record.id, batch.id);
    for (const [k, row] of rows.entries()) seeds.set(k, row.reference_id as string);
    expect(seeds.size).toBe(100);
  });

  it.each(MIXED_FILE_STRATEGIES)('when a 1,000-line mixed file is imported with %s, then results, wording and summary counts follow the contract', async (strategy) => {
    const record = await createRecord();
    const batch = await register(record.id, { storage_url: files.serve(`/mixed-${strategy}.jsonl`, mixedFile(strategy)), collision_strategy: strategy });
    const summary = await finished(record.id, batch.id);
    expectMixedFileResults(strategy, summary, await results(record.id, batch.id), (k) => seeds.get(k));
    expect((await results(record.id, batch.id, 'partially_failed')).every((row) => row.status === 'partially_failed')).toBe(true);
    expect(await results(record.id, batch.id, 'partially_failed')).toHaveLength(100);
  });

  it('when a colliding line with an invalid enhancement is discarded, then its result is completed with no reference and no failure details', async () => {
    const record = await createRecord();
    const line = JSON.stringify({ identifiers: [doi('10.5555/seed.2')], enhancements: [{ source: 'x' }, abstract('never stored')] });
    const batch = await register(record.id, { storage_url: files.serve('/discard-partial.jsonl', line), collision_strategy: 'discard' });
    expect(await finished(record.id, batch.id)).toMatchObject({ import_batch_status: 'completed', failure_details: [] });
    expect(await results(record.id, batch.id)).toEqual([expect.objectContaining({ status: 'completed', reference_id: null, failure_details: null })]);
  });

  it('when identifiers and enhancements carry unknown keys, then the stored reference keeps none of them, identifier keys come in the §6.3 order and an unknown top-level key still fails its line', async () => {
    const record = await createRecord();
    const eric = `ED${Date.now()}`;
    const free = { any: { nested: [1, { key: 'kept' }] } };
    const line = JSON.stringify({
      identifiers: [
        { identifier_type: 'eric', identifier: eric, other_identifier_name: 'bogus', extra: true },
        { other_identifier_name: 'isbn', note: 1, identifier_type: 'other', identifier: `978-${eric}` },
      ],
      enhancements: [
        { source: 'importer', visibility: 'public', extra: 1, content: { enhancement_type: 'abstract', process: 'other', abstract: 'A', extra_key: 1 } },
        {
          source: 'importer',
          visibility: 'public',
          content: { enhancement_type: 'bibliographic', title: 'T', extra_key: 1, authorship: [{ display_name: 'Ada', position: 'first', affiliation: 'x' }], publication_venue: { display_name: 'J', impact: 2 }, pagination: { volume: '1', chapter: '2' } },
        },
        { source: 'importer', visibility: 'public', content: { enhancement_type: 'raw', source_export_date: '2026-01-31T12:00:00', description: 'd', metadata: free, data: free, extra_key: 1 } },
      ],
    });
    const strict = JSON.stringify({ identifiers: [doi(`10.5555/unknown-keys.${eric}`)], extra: true });
    const batch = await register(record.id, { storage_url: files.serve('/unknown-keys.jsonl', `${line}\n${strict}\n`) });
    expect(await finished(record.id, batch.id)).toMatchObject({ import_batch_status: 'partially_failed', results: { completed: 1, failed: 1 } });
    const [stored, refused] = await results(record.id, batch.id);
    expect(stored).toMatchObject({ status: 'completed', failure_details: null });
    expect(refused).toMatchObject({ status: 'failed', reference_id: null, failure_details: 'Entry 2:\n\nextra: Extra inputs are not permitted' });

    const text = (await dedupCall<{ json: string }>(references, 'GetReference', { id: stored.reference_id })).json;
    const view = JSON.parse(text) as { identifiers: unknown[]; enhancements: Array<{ content: Record<string, unknown> }> };
    expect(JSON.stringify(view.identifiers)).toBe(`[{"identifier":"${eric}","identifier_type":"eric"},{"identifier":"978-${eric}","identifier_type":"other","other_identifier_name":"isbn"}]`);
    expect(text).not.toMatch(/bogus|"extra"|"note"|extra_key|affiliation|impact|chapter/);
    expect(view.enhancements.map((enhancement) => enhancement.content)).toEqual([
      { enhancement_type: 'abstract', process: 'other', abstract: 'A' },
      expect.objectContaining({ enhancement_type: 'bibliographic', title: 'T', authorship: [{ display_name: 'Ada', orcid: null, position: 'first' }], publication_venue: expect.objectContaining({ display_name: 'J' }), pagination: expect.objectContaining({ volume: '1' }) }),
      { enhancement_type: 'raw', source_export_date: '2026-01-31T12:00:00', description: 'd', metadata: free, data: free },
    ]);
  });

  it('when a reference read back from the store is imported again under a new identifier, then its read-only keys (id, duplicate_decision) are ignored and the line completes', async () => {
    const record = await createRecord();
    const first = await register(record.id, { storage_url: files.serve('/read-back-source.jsonl', `${JSON.stringify({ identifiers: [doi('10.5555/read-back.1')], enhancements: [abstract('Read back')] })}\n`) });
    const [source] = (await finished(record.id, first.id)) && (await results(record.id, first.id));
    const readBack = await waitFor(async () => {
      const view = JSON.parse((await dedupCall<{ json: string }>(references, 'GetReference', { id: source.reference_id })).json) as Record<string, unknown>;
      return view.duplicate_decision ? view : false;
    }, 'the source reference decided');
    const again = JSON.stringify({ ...readBack, identifiers: [doi('10.5555/read-back.2')] });
    const second = await register(record.id, { storage_url: files.serve('/read-back-again.jsonl', `${again}\n`) });
    expect(await finished(record.id, second.id)).toMatchObject({ import_batch_status: 'completed', results: { completed: 1 } });
    const [copy] = await results(record.id, second.id);
    expect(copy.reference_id).not.toBe(source.reference_id);
  });

  it('when merges ran, then the seed keeps every version: aggressive superseded the same source, append added alongside', async () => {
    const view = JSON.parse((await dedupCall<{ json: string }>(references, 'GetReference', { id: seeds.get(1) })).json) as { enhancements: Array<{ content: { abstract: string } }> };
    expect(view.enhancements.map((enhancement) => enhancement.content.abstract)).toEqual(['merged from merge_aggressive', 'merged from append']);
  });

  it('when the callback receiver fails twice, then the summary is delivered on the third attempt and only once', async () => {
    const record = await createRecord();
    const calls: string[] = [];
    files.routes.set('/callback', (_request, response, body) => {
      calls.push(body);
      response.statusCode = calls.length <= 2 ? 500 : 200;
      response.end();
    });
    const batch = await register(record.id, { storage_url: files.serve('/callback.jsonl', JSON.stringify({ identifiers: [doi('10.5555/callback.1')] })), callback_url: `${files.base}/callback` });
    await waitFor(() => calls.length >= 3, 'three callback attempts');
    const delivered = JSON.parse(calls[2]) as ImportBatchSummary;
    expect(delivered).toMatchObject({ id: batch.id, import_batch_id: batch.id, import_batch_status: 'completed', results: { completed: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toHaveLength(3);
  });

  it('when the transfer breaks mid-file, then it resumes and every line is recorded once', async () => {
    const record = await createRecord();
    const content = Array.from({ length: 300 }, (_, i) => JSON.stringify({ identifiers: [doi(`10.5555/resume.${i}`)] })).join('\n');
    let attempts = 0;
    files.routes.set('/flaky.jsonl', (_request, response) => {
      attempts += 1;
      if (attempts === 1) {
        response.writeHead(200, { 'content-length': String(content.length) });
        response.write(content.slice(0, Math.floor(content.length * 0.6)));
        setTimeout(() => response.socket?.destroy(), 20);
        return;
      }
      response.end(content);
    });
    const batch = await register(record.id, { storage_url: `${files.base}/flaky.jsonl` });
    const summary = await finished(record.id, batch.id);
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(summary.results).toMatchObject({ completed: 300, failed: 0 });
  });

  it('when every transfer breaks mid-file, then the lines before the break are recorded once and the batch fails after the download\'s attempts, saying why', async () => {
    const record = await createRecord();
    const lines = Array.from({ length: 3 }, (_, i) => JSON.stringify({ identifiers: [doi(`10.5555/always-cut.${i}`)] }));
    const content = `${lines.join('\n')}\n`;
    let attempts = 0;
    files.routes.set('/always-cut.jsonl', (_request, response) => {
      attempts += 1;
      response.writeHead(200, { 'content-length': String(content.length) });
      response.write(content.slice(0, content.length - 10));
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const batch = await register(record.id, { storage_url: `${files.base}/always-cut.jsonl` });
    const summary = await finished(record.id, batch.id);
    expect(attempts).toBe(5);
    expect(summary).toMatchObject({ import_batch_status: 'failed', results: { completed: 2, failed: 0 } });
    expect(summary.failure_details).toEqual([expect.stringMatching(/^The file at storage_url could not be fetched: .*\(gave up after 5 attempts\)$/)]);
  });

  it('when the storage host does not resolve at registration, then the batch is accepted and fails as a download the transport could not make', async () => {
    // A DNS outage or a host not resolvable yet is a network condition, retried by the download; only refused addresses are refused up front.
    const strict = await startImportService({ ...env, OUTBOUND_ALLOWLIST: '' });
    const strictClient = importClient(strict.grpcPort);
    try {
      const record = await createRecord();
      const batch = await register(record.id, { storage_url: 'https://no-such-host.invalid/file.jsonl', callback_url: 'https://no-such-host.invalid/callback' }, strictClient);
      expect(batch).toMatchObject({ import_record_id: record.id, storage_url: 'https://no-such-host.invalid/file.jsonl' });
      const summary = await finished(record.id, batch.id);
      expect(summary).toMatchObject({ import_batch_status: 'failed', results: { completed: 0 } });
      expect(summary.failure_details).toEqual([expect.stringMatching(/^The file at storage_url could not be fetched: .*no-such-host\.invalid.*\(gave up after 5 attempts\)$/)]);
    } finally {
      strictClient.close();
      await strict.stop();
    }
  });

  it('when the file is served gzip-encoded, then it is decoded and imported', async () => {
    const record = await createRecord();
    const body = zlib.gzipSync(`${JSON.stringify({ identifiers: [doi('10.5555/gzip.1')] })}\n${JSON.stringify({ identifiers: [doi('10.5555/gzip.2')] })}\n`);
    files.routes.set('/gzip.jsonl', (_request, response) => {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(body.length) });
      response.end(body);
    });
    const batch = await register(record.id, { storage_url: `${files.base}/gzip.jsonl` });
    expect(await finished(record.id, batch.id)).toMatchObject({ import_batch_status: 'completed', results: { completed: 2 } });
  });

  it('when lines hold JSON nothing downstream can carry (deep nesting, infinite numbers, unsafe integers, NUL in keys, unpaired surrogates), then each fails alone, saying why, and the rest of the chunk is stored', async () => {
    const record = await createRecord();
    const raw = (data: string) => `{"source":"s","visibility":"public","content":{"enhancement_type":"raw","source_export_date":"2024-01-01T00:00:00Z","description":"d","data":${data}}}`;
    const line = (name: string, extra = '') => `{"identifiers":[{"identifier":"10.5555/structure.${name}","identifier_type":"doi"}]${extra}}`;
    const file = [
      line('good'),
      line('deep', `,"enhancements":[${raw(`${'['.repeat(150)}1${']'.repeat(150)}`)}]`),
      line('deeper', `,"enhancements":[${raw(`${'['.repeat(2_300)}1${']'.repeat(2_300)}`)}]`),
      line('infinite', `,"enhancements":[${raw('{"x":1e400}')}]`),
      line('nul-key', `,"enhancements":[${raw('{"a\\u0000":1}')}]`),
      '{"identifiers":[{"identifier":9007199254740993,"identifier_type":"pm_id"}]}',
      line('year', ',"enhancements":[{"source":"s","visibility":"public","content":{"enhancement_type":"bibliographic","publication_year":1e20}}]'),
      line('surrogate', ',"enhancements":[{"source":"s","visibility":"public","content":{"enhancement_type":"abstract","process":"other","abstract":"half \\ud83d of an emoji"}}]'),
      line('also-good'),
    ].join('\n');
    const batch = await register(record.id, { storage_url: files.serve('/structure.jsonl', file) });
    await finished(record.id, batch.id);
    const rows = await results(record.id, batch.id);
    expect(rows.map((row) => row.status)).toEqual(['completed', 'failed', 'failed', 'failed', 'failed', 'failed', 'partially_failed', 'failed', 'completed']);
    expect(rows.map((row) => row.failure_details)).toEqual([
      null,
      'Entry 2:\n\nJSON is nested deeper than 100 levels.',
      'Entry 3:\n\nJSON is nested deeper than 100 levels.',
      'Entry 4:\n\nA number is out of range: JSON numbers must be finite double-precision values.',
      'Entry 5:\n\nThe object key "a\\u0000" contains a NUL character.',
      expect.stringMatching(/^Entry 6\n\nAll identifiers failed to parse\.\n\nIdentifier 1: .*less than or equal to 9007199254740991/s),
      expect.stringMatching(/^Entry ref 7:\n\nEnhancement 1: .*less than or equal to 9007199254740991/s),
      'Entry 8:\n\nA string holds an unpaired UTF-16 surrogate escape (such as \\ud800), which is not valid Unicode.',
      null,
    ]);
  });

  it('when the file is still being read and no chunk is recorded yet, then the batch is started, and completed once read', async () => {
    const record = await createRecord();
    let finish = () => undefined as void;
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    files.routes.set('/held.jsonl', (_request, response) => {
      response.writeHead(200);
      response.write(`${JSON.stringify({ identifiers: [doi('10.5555/held.1')] })}\n`);
      void held.then(() => response.end(`${JSON.stringify({ identifiers: [doi('10.5555/held.2')] })}\n`));
    });
    const batch = await register(record.id, { storage_url: `${files.base}/held.jsonl` });
    expect(batch.status).toBe('created');
    const reading = await waitFor(async () => {
      const summary = await summaryOf(record.id, batch.id);
      return summary.import_batch_status !== 'created' && summary;
    }, 'the worker to pick the batch up');
    expect(reading).toMatchObject({ import_batch_status: 'started', results: { completed: 0, failed: 0 } });
    finish();
    expect(await finished(record.id, batch.id)).toMatchObject({ import_batch_status: 'completed', results: { completed: 2 } });
  });

  it('when slow storage hosts hold three batch files, then a fourth batch is still read and completed (four files at a time by default)', async () => {
    const record = await createRecord();
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const waiting: string[] = [];
    for (const name of ['stall-1', 'stall-2', 'stall-3']) {
      // Headers never come until released: each of these batches holds one download slot.
      files.routes.set(`/${name}.jsonl`, (_request, response) => {
        waiting.push(name);
        void held.then(() => response.end(`${JSON.stringify({ identifiers: [doi(`10.5555/${name}`)] })}\n`));
      });
    }
    try {
      const stalled = [];
      for (const name of ['stall-1', 'stall-2', 'stall-3']) stalled.push(await register(record.id, { storage_url: `${files.base}/${name}.jsonl` }));
      await waitFor(async () => waiting.length === 3, 'the three slow downloads to start');
      const quick = await register(record.id, { storage_url: files.serve('/after-stalls.jsonl', `${JSON.stringify({ identifiers: [doi('10.5555/after-stalls')] })}\n`) });
      expect(await finished(record.id, quick.id)).toMatchObject({ import_batch_status: 'completed', results: { completed: 1 } });
      expect((await summaryOf(record.id, stalled[0].id)).import_batch_status).toBe('started');
      release();
      for (const batch of stalled) expect(await finished(record.id, batch.id)).toMatchObject({ import_batch_status: 'completed', results: { completed: 1 } });
    } finally {
      release();
    }
  });

  it('when a line or the file is too large, then the line fails clearly and the oversize file fails the batch saying so', async () => {
    const record = await createRecord();
    const long = JSON.stringify({ identifiers: [doi('10.5555/long.1')], enhancements: [abstract('x'.repeat(6000))] });
    const batch = await register(record.id, { storage_url: files.serve('/long-line.jsonl', `${JSON.stringify({ identifiers: [doi('10.5555/long.0')] })}\n${long}\n`) });
    const summary = await finished(record.id, batch.id);
    expect(summary.import_batch_status).toBe('partially_failed');
    expect(summary.failure_details).toEqual(['Entry 2:\n\nLine exceeds the maximum line length of 5000 bytes.']);

    const huge = Array.from({ length: 400 }, (_, i) => JSON.stringify({ identifiers: [doi(`10.5555/huge.${i}`)], enhancements: [abstract('y'.repeat(3000))] })).join('\n');
    const big = await register(record.id, { storage_url: files.serve('/huge.jsonl', huge) });
    const failed = await finished(record.id, big.id);
    expect(failed.import_batch_status).toBe('failed');
    expect(failed.failure_details?.[0]).toBe('The file at storage_url is larger than the limit of 1000000 bytes.');
  });

  it('when a file without a declared length outgrows the limit while streaming, then every line read whole before the limit has its result and the batch fails saying so', async () => {
    const record = await createRecord();
    // 2,000 lines of exactly 920 bytes sent chunked: the size shows only once a million bytes have arrived.
    const line = (i: number, pad: number) => JSON.stringify({ identifiers: [doi(`10.5555/chunked-huge.${String(i).padStart(4, '0')}`)], enhancements: [abstract('z'.repeat(pad))] });
    const pad = 919 - line(0, 0).length;
    const lines = Array.from({ length: 2000 }, (_, i) => line(i, pad));
    files.routes.set('/chunked-huge.jsonl', (_request, response) => {
      response.writeHead(200, { 'transfer-encoding': 'chunked' });
      for (const line of lines) response.write(`${line}\n`);
      response.end();
    });
    const batch = await register(record.id, { storage_url: `${files.base}/chunked-huge.jsonl` });
    const summary = await finished(record.id, batch.id);
    expect(summary).toMatchObject({ import_batch_status: 'failed', failure_details: ['The file at storage_url is larger than the limit of 1000000 bytes.'] });
    const recorded = await results(record.id, batch.id);
    // Every line ending within the first million bytes has its result (1,086, not a whole number
    // of 100-line chunks), and no line past the limit.
    expect(lines[0].length).toBe(919);
    expect(recorded).toHaveLength(Math.floor(1_000_000 / 920));
    expect(recorded.every((result) => result.status === 'completed')).toBe(true);
    expect(summary.results.completed).toBe(recorded.length);
  });

  it('when the file redirects or cannot be found, then the batch fails with the reason', async () => {
    const record = await createRecord();
    files.routes.set('/redirect.jsonl', (_request, response) => {
      response.writeHead(302, { location: 'http://169.254.169.254/latest' });
      response.end();
    });
    const redirected = await register(record.id, { storage_url: `${files.base}/redirect.jsonl` });
    expect((await finished(record.id, redirected.id)).failure_details?.[0]).toMatch(/^The file at storage_url could not be fetched: redirects are not followed \(got 302/);
    const missing = await register(record.id, { storage_url: `${files.base}/missing.jsonl` });
    expect((await finished(record.id, missing.id)).failure_details).toEqual(['The file at storage_url could not be fetched: storage_url answered HTTP 404']);
    const empty = await register(record.id, { storage_url: files.serve('/empty.jsonl', '') });
    expect((await finished(record.id, empty.id)).import_batch_status).toBe('completed');
  });

  it('when registration breaks the rules, then 404, 409, 422 and 403 come back with the contract details', async () => {
    const record = await createRecord();
    const url = files.serve('/once.jsonl', JSON.stringify({ identifiers: [doi('10.5555/once.1')] }));
    await register(record.id, { storage_url: url });
    await expect(register(record.id, { storage_url: url })).rejects.toMatchObject({
      httpStatus: 409,
      detail: `Unable to perform operation on ImportBatch. Violation: Key (import_record_id, storage_url)=(${record.id}, ${url}) already exists.`,
    });
    await expect(register(record.id, { storage_url: `${url}?v=2`, collision_strategy: 'overwrite' })).rejects.toMatchObject({ httpStatus: 422, detail: 'overwrite is not supported: the store is append-only.' });
    await expect(register(record.id, { storage_url: 'ftp://example.org/x' })).rejects.toMatchObject({ httpStatus: 422 });
    const other = await createRecord();
    await expect(register(record.id, { storage_url: `${url}?v=3`, import_record_id: other.id })).rejects.toMatchObject({
      httpStatus: 422,
      detail: 'import_record_id in the body must equal the import record id in the path.',
    });
    expect((await register(record.id, { storage_url: `${url}?v=4`, import_record_id: record.id.toUpperCase() })).import_record_id).toBe(record.id);
    const missing = '01890a5d-ac96-774b-bcce-b302099a8057';
    await expect(register(missing, { storage_url: url })).rejects.toMatchObject({ httpStatus: 404, detail: `ImportRecord with id ${missing} does not exist.` });
    await expect(call(client, 'GetImportRecord', { id: missing })).rejects.toMatchObject({ httpStatus: 404 });
    await call(client, 'FinaliseImportRecord', { id: record.id });
    expect(JSON.parse((await call<{ json: string }>(client, 'GetImportRecord', { id: record.id })).json)).toMatchObject({ status: 'completed', batches: null });
    expect(seedRecord).toBeDefined();
  });

  it('when the registering process cannot reach the broker, then registration still answers with the batch, and its job goes out through the outbox so the file is read', async () => {
    // A second process on the same database whose message bus is gone (closed, as when the broker is out of reach).
    let lostBus: MessageBus | undefined;
    const cutOff = await startImportService(env, {
      createBus: async () => {
        lostBus = createInProcessBus();
        return lostBus;
      },
    });
    const cutOffClient = importClient(cutOff.grpcPort);
    try {
      await lostBus?.close();
      const record = await createRecord();
      const batch = await register(record.id, { storage_url: files.serve('/unqueued.jsonl', JSON.stringify({ identifiers: [doi('10.5555/unqueued.1')] })) }, cutOffClient);
      expect(batch.status).toBe('created');
      // The job waits in the batch until a relay that reaches the broker publishes it: the first process's
      // (this one's, stopped, lets go of the relay lease should it hold it).
      await cutOff.stop();
      expect(await finished(record.id, batch.id)).toMatchObject({ import_batch_status: 'completed', results: { completed: 1 } });
    } finally {
      cutOffClient.close();
      await cutOff.stop();
    }
  });

  it('when the record list outgrows the page budget, then each page stops at the budget and the next continues after its last record, newest first, without gaps or repeats', async () => {
    interface Page {
      json: string[];
      more: boolean;
      last_id: string;
    }
    const paged = await startImportService({ ...env, IMPORT_RECORDS_PAGE_BYTES: '3000' });
    const pagedClient = importClient(paged.grpcPort);
    try {
      for (let index = 0; index < 6; index += 1) {
        await call(client, 'CreateImportRecord', { json: JSON.stringify({ processor_name: 'paged', processor_version: '1', expected_reference_count: -1, source_name: 'tests', notes: `${index}`.repeat(1200) }) });
      }
      const whole = await call<Page>(client, 'ListImportRecords', { limit: 6, before_id: '' });
      expect(whole).toMatchObject({ more: false });
      expect(whole.json.map((text) => (JSON.parse(text) as { notes: string }).notes[0])).toEqual(['5', '4', '3', '2', '1', '0']);

      const pages: Page[] = [];
      let remaining = 6;
      let beforeId = '';
      for (;;) {
        const page = await call<Page>(pagedClient, 'ListImportRecords', { limit: remaining, before_id: beforeId });
        pages.push(page);
        remaining -= page.json.length;
        if (!page.more) break;
        beforeId = page.last_id;
      }
      expect(pages.map((page) => page.json.length)).toEqual([3, 3]);
      expect(pages.flatMap((page) => page.json)).toEqual(whole.json);
      expect(pages[0].last_id).toBe((JSON.parse(whole.json[2]) as { id: string }).id);
    } finally {
      pagedClient.close();
      await paged.stop();
    }
  });

  it('when a batch\'s results outgrow the page budget, then each page stops at the budget and the next continues after its last line, in line order, without gaps or repeats, filtered or not', async () => {
    interface Page {
      json: string[];
      more: boolean;
      last_line: number;
    }
    const paged = await startImportService({ ...env, IMPORT_RESULTS_PAGE_BYTES: '500' });
    const pagedClient = importClient(paged.grpcPort);
    try {
      // Lines 1, 4, 7, 10 fail, 2, 5, 8, 11 are stored, every third line is blank (no result).
      const lines = Array.from({ length: 12 }, (_, index) => (index % 3 === 2 ? '' : index % 3 === 0 ? '{}' : JSON.stringify({ identifiers: [doi(`10.5555/paged-results.${index}`)] })));
      const record = await createRecord();
      const batch = await register(record.id, { storage_url: files.serve('/paged-results.jsonl', lines.join('\n')) });
      await finished(record.id, batch.id);
      const read = async (on: ImportClient, status: string) => {
        const pages: Page[] = [];
        for (let afterLine = 0; ; ) {
          const page = await call<Page>(on, 'ListImportResults', { import_record_id: record.id, import_batch_id: batch.id, result_status: status, after_line: afterLine });
          pages.push(page);
          if (!page.more) return pages;
          afterLine = page.last_line;
        }
      };
      for (const [status, count] of [['', 8], ['failed', 4]] as const) {
        const [whole] = await read(client, status);
        expect(whole).toMatchObject({ more: false, last_line: status ? 10 : 11 });
        expect(whole.json).toHaveLength(count);
        const pages = await read(pagedClient, status);
        expect(pages.length).toBeGreaterThan(1);
        expect(pages.flatMap((page) => page.json)).toEqual(whole.json);
        for (const page of pages.slice(0, -1)) expect(page.json.reduce((bytes, text) => bytes + text.length, 0)).toBeGreaterThanOrEqual(500);
      }
    } finally {
      pagedClient.close();
      await paged.stop();
    }
  });

  it('when a batch\'s failure details outgrow the page budget, then the summary carries the first page and the rest follow page by page after its last line, in line order, without gaps or repeats', async () => {
    interface SummaryPage {
      json: string;
      more: boolean;
      last_line: number;
    }
    interface DetailsPage {
      failure_details: string[];
      more: boolean;
      last_line: number;
    }
    const paged = await startImportService({ ...env, IMPORT_RESULTS_PAGE_BYTES: '100' });
    const pagedClient = importClient(paged.grpcPort);
    try {
      // A file of the wrong format: every line fails, the blank ones aside; one line is stored.
      const lines = Array.from({ length: 12 }, (_, index) => (index === 5 ? JSON.stringify({ identifiers: [doi('10.5555/paged-details.5')] }) : index % 4 === 3 ? '' : `${index},Smith J,A study,2020`));
      const record = await createRecord();
      const batch = await register(record.id, { storage_url: files.serve('/paged-details.jsonl', lines.join('\n')) });
      const whole = await finished(record.id, batch.id);
      expect(whole.failure_details).toHaveLength(8);
      const request = { import_record_id: record.id, import_batch_id: batch.id };
      expect(await call<SummaryPage>(client, 'GetImportBatchSummary', request)).toMatchObject({ more: false, last_line: 11 });

      const first = await call<SummaryPage>(pagedClient, 'GetImportBatchSummary', request);
      const summary = JSON.parse(first.json) as ImportBatchSummary;
      expect(first.more).toBe(true);
      expect({ ...summary, failure_details: null }).toEqual({ ...whole, failure_details: null });
      const pages: DetailsPage[] = [];
      for (let afterLine = first.last_line; ; ) {
        const page = await call<DetailsPage>(pagedClient, 'ListImportFailureDetails', { ...request, after_line: afterLine });
        pages.push(page);
        if (!page.more) break;
        afterLine = page.last_line;
      }
      expect(pages.length).toBeGreaterThan(1);
      expect([...(summary.failure_details ?? []), ...pages.flatMap((page) => page.failure_details)]).toEqual(whole.failure_details);
    } finally {
      pagedClient.close();
      await paged.stop();
    }
  });

  it('when outbound rules are strict, then loopback, private, metadata and disallowed domains are refused at registration', async () => {
    const strict = await startImportService({ ...env, OUTBOUND_ALLOWLIST: '' });
    const domains = await startImportService({ ...env, IMPORT_ALLOWED_DOMAINS: 'blob.core.windows.net' });
    const strictClient = importClient(strict.grpcPort);
    const domainsClient = importClient(domains.grpcPort);
    try {
      const record = await createRecord();
      for (const url of [`${files.base}/seed.jsonl`, 'https://10.1.2.3/file.jsonl', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/x.jsonl']) {
        await expect(register(record.id, { storage_url: url }, strictClient)).rejects.toMatchObject({ httpStatus: 422, detail: expect.stringMatching(/^storage_url is not allowed: /) });
      }
      await expect(register(record.id, { storage_url: 'https://evil.example.org/x.jsonl' }, domainsClient)).rejects.toMatchObject({ httpStatus: 403, detail: 'storage_url hostname is not allowed.' });
    } finally {
      strictClient.close();
      domainsClient.close();
      await strict.stop();
      await domains.stop();
    }
  });
});
