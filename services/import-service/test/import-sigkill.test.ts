import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ImportBatchSummary } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient } from 'mongodb';
import { startDedupService } from '../../dedup-service/src/index';
import { call as dedupCall, dedupClient, startInfrastructure, type DedupClient } from '../../dedup-service/test/dedup-helpers';
import { call, freePort, importClient, slowFileRoute, startFileServer, waitFor } from './import-helpers';

// The built import-service process (dist/main.js, as `npm test` builds it) killed with SIGKILL
// while it streams a slow file: RabbitMQ hands the unacknowledged job to the next process, which
// resumes after the last recorded chunk; every line ends with exactly one result and one reference.
// Killed while it sends the batch callback: the next process takes over once the callback's lease
// has run out, and sends it only if no POST of the dead one may have arrived (at most once, §8.8).
const MAIN = path.resolve(__dirname, '../dist/main.js');

describe('import-service process killed mid-file', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let dedup: RunningBackendService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let references: DedupClient;
  let mongo: MongoClient;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    infrastructure = await startInfrastructure('import-sigkill');
    dedup = await startDedupService(infrastructure.env);
    files = await startFileServer();
    references = dedupClient(dedup.grpcPort);
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    references?.close();
    await mongo?.close();
    await dedup?.stop();
    await files?.stop();
    await infrastructure?.stop();
  });

  async function startProcess(port: number, extraEnv: Record<string, string> = {}): Promise<ChildProcess> {
    const env = { ...process.env, ...infrastructure.env, GRPC_PORT: String(port), DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`, OUTBOUND_ALLOWLIST: '127.0.0.0/8', IMPORT_CHUNK_SIZE: '50', IMPORT_RETRY_BASE_MS: '20', ...extraEnv };
    const child = spawn(process.execPath, [MAIN], { env, stdio: 'ignore' });
    children.push(child);
    const client = importClient(port);
    try {
      await waitFor(async () => {
        try {
          await call(client, 'ListImportRecords', { limit: 1 });
          return true;
        } catch {
          return false;
        }
      }, 'the import-service process to serve');
    } finally {
      client.close();
    }
    return child;
  }

  async function stopProcess(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  it('when the process is killed after some chunks, then the next process finishes the batch with every line processed once', async () => {
    const lines = Array.from({ length: 600 }, (_, i) => `${JSON.stringify({ identifiers: [{ identifier: `10.8888/kill.${i}`, identifier_type: 'doi' }] })}\n`);
    const slow = slowFileRoute(lines);
    files.routes.set('/slow-kill.jsonl', slow.route);
    const port = await freePort();
    const first = await startProcess(port);
    const client = importClient(port);
    const record = JSON.parse((await call<{ json: string }>(client, 'CreateImportRecord', { json: JSON.stringify({ processor_name: 't', processor_version: '1', expected_reference_count: 600, source_name: 's' }) })).json) as { id: string };
    const batch = JSON.parse((await call<{ json: string }>(client, 'RegisterImportBatch', { import_record_id: record.id, batch_json: JSON.stringify({ storage_url: `${files.base}/slow-kill.jsonl` }) })).json) as { id: string };
    const results = async () => (await call<{ json: string[] }>(client, 'ListImportResults', { import_record_id: record.id, import_batch_id: batch.id, result_status: '' })).json.map((item) => JSON.parse(item) as { status: string; reference_id: string });
    await waitFor(async () => (await results()).length >= 100, 'the first chunks');
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    client.close();

    const secondPort = await freePort();
    const second = await startProcess(secondPort);
    const again = importClient(secondPort);
    try {
      const summary = await waitFor(async () => {
        const current = JSON.parse((await call<{ json: string }>(again, 'GetImportBatchSummary', { import_record_id: record.id, import_batch_id: batch.id })).json) as ImportBatchSummary;
        return current.import_batch_status === 'completed' && current;
      }, 'the batch to complete in the second process');
      expect(slow.requests()).toBe(2);
      expect(summary.results).toEqual({ created: 0, started: 0, completed: 600, partially_failed: 0, failed: 0, retrying: 0 });
      const all = (await call<{ json: string[] }>(again, 'ListImportResults', { import_record_id: record.id, import_batch_id: batch.id, result_status: '' })).json.map((item) => JSON.parse(item) as { reference_id: string });
      expect(all).toHaveLength(600);
      expect(new Set(all.map((result) => result.reference_id)).size).toBe(600);
      const found = await dedupCall<{ json: string[] }>(references, 'LookupReferences', { identifiers: ['doi:10.8888/kill.0', 'doi:10.8888/kill.599'] });
      expect(found.json).toHaveLength(2);
    } finally {
      again.close();
      // It consumes the import queue too: gone before the next test registers its batch.
      await stopProcess(second);
    }
  });

  /** Registers a 10-line batch whose summary goes to `callbackPath`; returns the batch id. */
  async function registerWithCallback(port: number, name: string, callbackPath: string): Promise<string> {
    const lines = Array.from({ length: 10 }, (_, i) => `${JSON.stringify({ identifiers: [{ identifier: `10.8888/${name}.${i}`, identifier_type: 'doi' }] })}\n`);
    const client = importClient(port);
    try {
      const record = JSON.parse((await call<{ json: string }>(client, 'CreateImportRecord', { json: JSON.stringify({ processor_name: 't', processor_version: '1', expected_reference_count: 10, source_name: 's' }) })).json) as { id: string };
      const batch = JSON.parse((await call<{ json: string }>(client, 'RegisterImportBatch', { import_record_id: record.id, batch_json: JSON.stringify({ storage_url: files.serve(`/${name}.jsonl`, lines.join('')), callback_url: `${files.base}${callbackPath}` }) })).json) as { id: string };
      return batch.id;
    } finally {
      client.close();
    }
  }

  /** The batch once a process has recorded how its callback ended. */
  const settledCallback = (batchId: string, what: string) =>
    waitFor(async () => {
      const current = await batchDocument(batchId);
      return current?.callback_outcome && current;
    }, what, 30_000);

  const batchDocument = (id: string) => mongo.db('destiny_import').collection<{ _id: string; callback_attempts: number; callback_in_flight: boolean; callback_outcome: string | null }>('import_batches').findOne({ _id: id });

  it('when the process is killed during a callback POST, then the next process does not send it again (at most once) and records it dropped', async () => {
    const posts: number[] = [];
    // Left unanswered: its sender is killed while it waits.
    files.routes.set('/callback-in-flight', () => posts.push(Date.now()));
    // Long enough that the first process is killed before its POST times out and it tries again itself.
    const callbackEnv = { IMPORT_CALLBACK_TIMEOUT_MS: '3000' };
    const port = await freePort();
    const first = await startProcess(port, callbackEnv);
    const batchId = await registerWithCallback(port, 'callback-in-flight', '/callback-in-flight');
    await waitFor(() => posts.length >= 1, 'the first callback POST');
    await stopProcess(first);

    const next = await startProcess(await freePort(), callbackEnv);
    try {
      const batch = await settledCallback(batchId, 'the next process to settle the callback');

      expect(batch).toMatchObject({ callback_outcome: 'dropped', callback_attempts: 1, callback_in_flight: false });
      expect(posts).toHaveLength(1);
    } finally {
      await stopProcess(next);
    }
  }, 60_000);

  it('when the process is killed between two callback attempts, then the next process makes the next attempt', async () => {
    const posts: Array<{ at: number; body: string }> = [];
    files.routes.set('/callback-between', (_request, response, body) => {
      posts.push({ at: Date.now(), body });
      response.writeHead(posts.length === 1 ? 500 : 200).end();
    });
    // A long back-off after the failed first attempt, for the kill to land in.
    const callbackEnv = { IMPORT_CALLBACK_TIMEOUT_MS: '1000', IMPORT_RETRY_BASE_MS: '4000' };
    const port = await freePort();
    const first = await startProcess(port, callbackEnv);
    const batchId = await registerWithCallback(port, 'callback-between', '/callback-between');
    await waitFor(async () => {
      const current = await batchDocument(batchId);
      return current?.callback_attempts === 1 && !current.callback_in_flight;
    }, 'the first attempt answered and recorded');
    await stopProcess(first);
    const killedAt = Date.now();

    const next = await startProcess(await freePort(), callbackEnv);
    try {
      const batch = await settledCallback(batchId, 'the next process to send the callback');

      expect(batch).toMatchObject({ callback_outcome: 'delivered', callback_attempts: 2 });
      expect(posts).toHaveLength(2);
      expect(posts[1].at).toBeGreaterThanOrEqual(killedAt);
      expect(JSON.parse(posts[1].body)).toMatchObject({ import_batch_status: 'completed', results: { completed: 10, failed: 0 } });
    } finally {
      await stopProcess(next);
    }
  }, 60_000);
});
