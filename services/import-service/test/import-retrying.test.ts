import type { ImportBatchSummary } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { IngestReferencesRequest__Output } from '@destiny/contracts/generated/grpc/destiny/dedup_service/IngestReferencesRequest';
import { createGrpcServer, createLogger, ServiceError, type RunningBackendService } from '@destiny/platform';
import { startDedupService } from '../../dedup-service/src/index';
import { call as dedupCall, dedupClient, startInfrastructure } from '../../dedup-service/test/dedup-helpers';
import { startImportService } from '../src/index';
import { call, freePort, importClient, startFileServer, waitFor, type ImportClient } from './import-helpers';

// §8.5 `retrying`: a transient ingest failure (dedup-service unavailable) marks the lines
// `retrying` and re-queues them with back-off up to 3 more times; then they fail with
// `Retries exhausted.`, unless dedup-service says an earlier attempt stored them after all.

type Outcomes = { outcomes: Array<{ status: string; failure_details: string }> };

/**
 * A DedupService front for import-service whose `IngestReferences` answers follow a script, with
 * the real dedup-service behind it: a network that loses an answer, or delivers a request late,
 * cannot be made to do so on cue otherwise.
 */
async function startIngestFront(dedupPort: number, script: (attempt: number, request: IngestReferencesRequest__Output, forward: (request: IngestReferencesRequest__Output) => Promise<Outcomes>) => Promise<Outcomes>) {
  const dedup = dedupClient(dedupPort);
  const forward = (request: IngestReferencesRequest__Output) => dedupCall<Outcomes>(dedup, 'IngestReferences', request);
  const server = createGrpcServer({ host: '127.0.0.1', port: 0, logger: createLogger({ service: 'ingest-front', level: 'silent' }) });
  const requests: IngestReferencesRequest__Output[] = [];
  server.addService(loadDestinyProtos().destiny.dedup_service.DedupService.service, {
    IngestReferences: async (request: IngestReferencesRequest__Output) => {
      requests.push(request);
      return script(requests.length, request, forward);
    },
  });
  const port = await server.start();
  server.setServing(true);
  return {
    port,
    requests,
    async stop() {
      await server.stop(0);
      dedup.close();
    },
  };
}

// A transient failure that uses up the lines' attempts (§8.5); an unavailable dedup-service (503) is waited out instead.
const conflict = () => ServiceError.conflict('a write conflict in dedup-service');

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

  /**
   * Imports three lines through import-service, a scripted front and a real dedup-service, and
   * answers the batch's summary once it has ended, the requests the front saw, and how many of the
   * lines dedup-service stored.
   */
  async function importThroughFront(name: string, script: Parameters<typeof startIngestFront>[1]) {
    const dedupPort = await freePort();
    const dedup = await startDedupService({ ...infrastructure.env, GRPC_PORT: String(dedupPort) });
    running.push(dedup);
    const front = await startIngestFront(dedupPort, script);
    const imports = await startImportService({ ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${front.port}`, IMPORT_RETRY_BASE_MS: '20' });
    running.push(imports);
    const client = importClient(imports.grpcPort);
    clients.push(client);
    const references = dedupClient(dedupPort);
    try {
      const dois = [0, 1, 2].map((i) => `10.6666/${name}.${i}`);
      const { summary } = await register(client, files.serve(`/${name}.jsonl`, [0, 1, 2].map((i) => line(name, i)).join('')));
      const done = await waitFor(async () => {
        const current = await summary();
        return ['completed', 'failed', 'partially_failed'].includes(current.import_batch_status) && current;
      }, 'the batch to end', 30_000);
      const found = await dedupCall<{ json: string[] }>(references, 'LookupReferences', { identifiers: dois.map((doi) => `doi:${doi}`) });
      return { done, requests: front.requests, stored: found.json.length };
    } finally {
      references.close();
      // Both consume the same import queue as the next test's service: stopped here so only that one runs its batch.
      await imports.stop();
      await front.stop();
      await dedup.stop();
    }
  }

  it('when the first attempt was stored but its answer lost, and dedup-service answers conflicts until the retries run out, then the lines are recorded as stored, each once', async () => {
    const { done, requests, stored } = await importThroughFront('answer-lost', async (attempt, request, forward) => {
      if (attempt === 1) await forward(request);
      if (attempt <= 4) throw conflict();
      return forward(request);
    });

    expect(done.results).toEqual({ created: 0, started: 0, completed: 3, partially_failed: 0, failed: 0, retrying: 0 });
    expect(requests.map((request) => request.give_up_failure_details)).toEqual(['', '', '', '', 'Retries exhausted.']);
    expect(stored).toBe(3);
  }, 60_000);

  it('when the first attempt reaches dedup-service only after import-service gave up on its lines, then the lines fail with "Retries exhausted." and nothing is stored', async () => {
    let late: Outcomes | undefined;
    let delayed: IngestReferencesRequest__Output | undefined;
    const { done, stored } = await importThroughFront('delivered-late', async (attempt, request, forward) => {
      if (attempt === 1) delayed = request;
      if (attempt <= 4) throw conflict();
      const answer = await forward(request);
      late = await forward(delayed as IngestReferencesRequest__Output);
      return answer;
    });

    expect(done.results).toEqual({ created: 0, started: 0, completed: 0, partially_failed: 0, failed: 3, retrying: 0 });
    expect(done.failure_details).toEqual(['Retries exhausted.', 'Retries exhausted.', 'Retries exhausted.']);
    expect(late?.outcomes.map((outcome) => [outcome.status, outcome.failure_details])).toEqual(Array(3).fill(['failed', 'Retries exhausted.']));
    expect(stored).toBe(0);
  }, 60_000);

  describe('when dedup-service fails unexpectedly on one line of a chunk', () => {
    const failsOnLine2 = (storesFirst: boolean): Parameters<typeof startIngestFront>[1] => async (_attempt, request, forward) => {
      if (request.give_up_failure_details || !request.lines.some((line) => line.line_number === 2)) return forward(request);
      if (storesFirst) await forward(request);
      throw new ServiceError(500, 'unexpected failure');
    };

    it('when nothing of the failing attempts was stored, then only that line fails, "Uncaught exception at the repository.", and its neighbours are stored', async () => {
      const { done, requests, stored } = await importThroughFront('one-line-fails', failsOnLine2(false));

      expect(done.results).toMatchObject({ completed: 2, failed: 1 });
      expect(done.failure_details).toEqual(['Uncaught exception at the repository.']);
      expect(stored).toBe(2);
      // The chunk, then its halves, then the failing line alone, then that line given up on.
      expect(requests.map((request) => [request.lines.map((line) => line.line_number), request.give_up_failure_details])).toEqual([
        [[1, 2, 3], ''],
        [[1, 2], ''],
        [[1], ''],
        [[2], ''],
        [[2], 'Uncaught exception at the repository.'],
        [[3], ''],
      ]);
    }, 60_000);

    it('when the failing attempts had stored the line before failing, then its result says it was stored', async () => {
      const { done, stored } = await importThroughFront('stored-then-failed', failsOnLine2(true));

      expect(done.results).toMatchObject({ completed: 3, failed: 0 });
      expect(stored).toBe(3);
    }, 60_000);
  });

  it('when dedup-service is unreachable far longer than the retries would last, then its lines wait as retrying, none fails, and they complete once it is back', async () => {
    const dedupPort = await freePort();
    const imports = await startImportService({ ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedupPort}`, IMPORT_CHUNK_SIZE: '50', IMPORT_RETRY_BASE_MS: '20' });
    running.push(imports);
    const client = importClient(imports.grpcPort);
    clients.push(client);
    const storageUrl = files.serve('/unreachable.jsonl', [line('away', 1), 'not json\n', line('away', 2)].join(''));
    const { summary } = await register(client, storageUrl);

    await waitFor(async () => (await summary()).results.retrying === 2, 'the lines to be retrying');
    // Ten times as long as the three attempts §8.5 allows a transient failure take here (20 + 40 + 80 ms).
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await summary()).results).toMatchObject({ retrying: 2, failed: 0, completed: 0 });

    const dedup = await startDedupService({ ...infrastructure.env, GRPC_PORT: String(dedupPort) });
    running.push(dedup);
    const done = await waitFor(async () => {
      const current = await summary();
      return current.import_batch_status === 'partially_failed' && current;
    }, 'the batch to end once dedup-service is back', 30_000);
    expect(done.results).toEqual({ created: 0, started: 0, completed: 2, partially_failed: 0, failed: 1, retrying: 0 });
    expect(done.failure_details).toEqual([expect.stringMatching(/^Entry 2:/)]);
    await imports.stop();
    await dedup.stop();
  }, 60_000);
});
