import type { ImportBatchSummary } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { startDedupService } from '../../dedup-service/src/index';
import { call as dedupCall, dedupClient, startInfrastructure } from '../../dedup-service/test/dedup-helpers';
import { startImportService } from '../src/index';
import { call, freePort, importClient, startFileServer, waitFor, type ImportClient } from './import-helpers';

// §8.5 `retrying`: a transient ingest failure (dedup-service unavailable) marks the lines
// `retrying` and re-queues them with back-off up to 3 more times; then they fail with
// `Retries exhausted.`.

describe('import lines retrying while dedup-service is unavailable', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  const running: RunningBackendService[] = [];
  const clients: ImportClient[] = [];

  beforeAll(async () => {
    infrastructure = await startInfrastructure('import-retrying');
    files = await startFileServer();
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    for (const service of running.reverse()) await service.stop().catch(() => undefined);
    await files?.stop();
    await infrastructure?.stop();
  });

  async function register(client: ImportClient, storageUrl: string) {
    const record = JSON.parse((await call<{ json: string }>(client, 'CreateImportRecord', { json: JSON.stringify({ processor_name: 't', processor_version: '1', expected_reference_count: -1, source_name: 's' }) })).json) as { id: string };
    const batch = JSON.parse((await call<{ json: string }>(client, 'RegisterImportBatch', { import_record_id: record.id, batch_json: JSON.stringify({ storage_url: storageUrl }) })).json) as { id: string };
    const summary = async () => JSON.parse((await call<{ json: string }>(client, 'GetImportBatchSummary', { import_record_id: record.id, import_batch_id: batch.id })).json) as ImportBatchSummary;
    return { record, batch, summary };
  }

  const line = (prefix: string, i: number) => `${JSON.stringify({ identifiers: [{ identifier: `10.6666/${prefix}.${i}`, identifier_type: 'doi' }] })}\n`;

  it('when dedup-service stops mid-batch and comes back, then the waiting lines are retrying and then complete, each once', async () => {
    const dedupPort = await freePort();
    const dedupEnv = { ...infrastructure.env, GRPC_PORT: String(dedupPort) };
    let dedup = await startDedupService(dedupEnv);
    running.push(dedup);
    const imports = await startImportService({ ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedupPort}`, IMPORT_CHUNK_SIZE: '50', IMPORT_RETRY_BASE_MS: '2000' });
    running.push(imports);
    const client = importClient(imports.grpcPort);
    clients.push(client);

    // The file's second half is held back until dedup-service has been stopped.
    const lines = Array.from({ length: 200 }, (_, i) => line('retry', i));
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    files.routes.set('/gated.jsonl', (_request, response) => {
      response.write(lines.slice(0, 100).join(''));
      void released.then(() => response.end(lines.slice(100).join('')));
    });
    const { summary } = await register(client, `${files.base}/gated.jsonl`);
    await waitFor(async () => (await summary()).results.completed >= 100, 'the first two chunks');
    await dedup.stop();
    release();

    const retrying = await waitFor(async () => {
      const current = await summary();
      return current.results.retrying > 0 && current;
    }, 'lines to be retrying');
    expect(retrying.import_batch_status).toBe('started');
    expect(retrying.results.retrying).toBe(50);

    dedup = await startDedupService(dedupEnv);
    running.push(dedup);
    const done = await waitFor(async () => {
      const current = await summary();
      return current.import_batch_status === 'completed' && current;
    }, 'the batch to complete after dedup-service is back', 30_000);
    expect(done.results).toEqual({ created: 0, started: 0, completed: 200, partially_failed: 0, failed: 0, retrying: 0 });
    const references = dedupClient(dedupPort);
    try {
      const found = await dedupCall<{ json: string[] }>(references, 'LookupReferences', { identifiers: ['doi:10.6666/retry.0', 'doi:10.6666/retry.100', 'doi:10.6666/retry.199'] });
      expect(found.json).toHaveLength(3);
    } finally {
      references.close();
      // Both consume the same import queue as the next test's service: stopped here so only that one runs its batch.
      await imports.stop();
      await dedup.stop();
    }
  }, 60_000);

  it('when dedup-service never answers, then after 3 more attempts every line fails with "Retries exhausted." and the batch fails', async () => {
    const nobody = await freePort();
    const imports = await startImportService({ ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${nobody}`, IMPORT_CHUNK_SIZE: '50', IMPORT_RETRY_BASE_MS: '20' });
    running.push(imports);
    const client = importClient(imports.grpcPort);
    clients.push(client);
    const storageUrl = files.serve('/unreachable.jsonl', [line('never', 1), 'not json\n', line('never', 2)].join(''));
    const { summary } = await register(client, storageUrl);

    const done = await waitFor(async () => {
      const current = await summary();
      return current.import_batch_status === 'failed' && current;
    }, 'the batch to fail', 30_000);
    expect(done.results).toEqual({ created: 0, started: 0, completed: 0, partially_failed: 0, failed: 3, retrying: 0 });
    expect(done.failure_details).toEqual(['Retries exhausted.', expect.stringMatching(/^Entry 2:/), 'Retries exhausted.']);
  }, 60_000);
});
