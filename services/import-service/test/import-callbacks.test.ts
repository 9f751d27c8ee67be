import type { ImportBatchSummary } from '@destiny/contracts';
import type http from 'node:http';
import { startDedupService } from '../../dedup-service/src/index';
import { startInfrastructure } from '../../dedup-service/test/dedup-helpers';
import { startImportService } from '../src/index';
import { call, importClient, startFileServer, waitFor } from './import-helpers';

// §8.8: the batch summary is POSTed to callback_url at most once per batch, whatever the receiver
// does, and a receiver's slowness is its own: callbacks have their own work queue, so a receiver
// that holds the POST does not hold the imports of other batches.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startImports(namespace: string, extraEnv: Record<string, string>) {
  const infrastructure = await startInfrastructure(namespace);
  const dedup = await startDedupService(infrastructure.env);
  const files = await startFileServer();
  const service = await startImportService({
    ...infrastructure.env,
    DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`,
    OUTBOUND_ALLOWLIST: '127.0.0.0/8',
    IMPORT_RETRY_BASE_MS: '20',
    ...extraEnv,
  });
  const client = importClient(service.grpcPort);
  let next = 0;
  /** Registers a one-line batch (a fresh DOI) on a new record; answers a reader of its summary. */
  const importOneLine = async (callbackUrl: string | null) => {
    const record = JSON.parse((await call<{ json: string }>(client, 'CreateImportRecord', { json: JSON.stringify({ processor_name: 't', processor_version: '1', expected_reference_count: 1, source_name: 's' }) })).json) as { id: string };
    next += 1;
    const storageUrl = files.serve(`/${namespace}-${next}.jsonl`, JSON.stringify({ identifiers: [{ identifier: `10.7878/${namespace}.${next}`, identifier_type: 'doi' }] }));
    const batch = JSON.parse((await call<{ json: string }>(client, 'RegisterImportBatch', { import_record_id: record.id, batch_json: JSON.stringify({ storage_url: storageUrl, callback_url: callbackUrl }) })).json) as { id: string };
    return async () => JSON.parse((await call<{ json: string }>(client, 'GetImportBatchSummary', { import_record_id: record.id, import_batch_id: batch.id })).json) as ImportBatchSummary;
  };
  return {
    files,
    importOneLine,
    async stop() {
      client.close();
      await service.stop();
      await files.stop();
      await dedup.stop();
      await infrastructure.stop();
    },
  };
}

describe('import batch callbacks whose receivers misbehave', () => {
  let imports: Awaited<ReturnType<typeof startImports>>;

  beforeAll(async () => {
    imports = await startImports('import-callbacks', { IMPORT_CALLBACK_TIMEOUT_MS: '500' });
  });

  afterAll(async () => {
    await imports?.stop();
  });

  /** A callback route that records each POST and answers through `answer`. */
  const receiver = (path: string, answer: (response: http.ServerResponse, post: number) => void) => {
    const posts: string[] = [];
    imports.files.routes.set(path, (_request, response, body) => {
      posts.push(body);
      answer(response, posts.length);
    });
    return { url: `${imports.files.base}${path}`, posts };
  };

  it('when the receiver answers 2xx with a body larger than anything read, then the callback is delivered with that one POST', async () => {
    const callback = receiver('/large-answer', (response) => response.end(Buffer.alloc(3 * 1024 * 1024, 97)));
    await imports.importOneLine(callback.url);
    await waitFor(() => callback.posts.length >= 1, 'the callback');
    await sleep(1_500);
    expect(callback.posts).toHaveLength(1);
    expect(JSON.parse(callback.posts[0]) as ImportBatchSummary).toMatchObject({ import_batch_status: 'completed', results: { completed: 1 } });
  });

  let callbackPaths = 0;
  it.each([
    ['takes the POST and never answers', (_response: http.ServerResponse) => undefined],
    ['takes the POST and resets the connection', (response: http.ServerResponse) => response.socket?.destroy()],
  ])('when the receiver %s, then the POST, which may have arrived, is not sent again', async (_name, answer) => {
    const callback = receiver(`/silent-${callbackPaths++}`, answer);
    await imports.importOneLine(callback.url);
    await waitFor(() => callback.posts.length >= 1, 'the callback');
    // Three timeouts and their back-offs would have passed.
    await sleep(2_500);
    expect(callback.posts).toHaveLength(1);
  });

  it('when the receiver answers 500 and then 200, then the failed POST is sent again and delivered once', async () => {
    const callback = receiver('/fails-once', (response, post) => {
      response.statusCode = post === 1 ? 500 : 200;
      response.end();
    });
    await imports.importOneLine(callback.url);
    await waitFor(() => callback.posts.length >= 2, 'the second callback attempt');
    await sleep(500);
    expect(callback.posts).toHaveLength(2);
  });
});

describe('import batch callbacks and the imports of other batches', () => {
  let imports: Awaited<ReturnType<typeof startImports>>;

  beforeAll(async () => {
    imports = await startImports('import-callbacks-held', {});
  });

  afterAll(async () => {
    await imports?.stop();
  });

  it('when receivers hold their callback POSTs, then another batch is imported meanwhile, and the held callbacks are delivered once answered', async () => {
    const held: http.ServerResponse[] = [];
    imports.files.routes.set('/held', (_request, response) => {
      held.push(response);
    });
    // More held callbacks than batch jobs run at once in one process.
    for (let index = 0; index < 4; index += 1) await imports.importOneLine(`${imports.files.base}/held`);
    await waitFor(() => held.length === 4, 'four callbacks held by their receiver');

    const summary = await imports.importOneLine(null);
    const done = await waitFor(async () => {
      const current = await summary();
      return current.import_batch_status === 'completed' && current;
    }, 'the batch without a callback to be imported');

    expect(done.results).toMatchObject({ completed: 1 });
    expect(held.every((response) => !response.writableEnded)).toBe(true);
    for (const response of held) response.end();
    await sleep(500);
    expect(held).toHaveLength(4);
  });
});
