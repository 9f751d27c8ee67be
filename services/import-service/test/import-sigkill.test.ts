import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ImportBatchSummary } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { startDedupService } from '../../dedup-service/src/index';
import { call as dedupCall, dedupClient, startInfrastructure, type DedupClient } from '../../dedup-service/test/dedup-helpers';
import { call, freePort, importClient, slowFileRoute, startFileServer, waitFor } from './import-helpers';

// The built import-service process (dist/main.js, as `npm test` builds it) killed with SIGKILL
// while it streams a slow file: RabbitMQ hands the unacknowledged job to the next process, which
// resumes after the last recorded chunk; every line ends with exactly one result and one reference.
// Killed while it sends the batch callback: the next process sends it once the callback's lease
// has run out.
const MAIN = path.resolve(__dirname, '../dist/main.js');

describe('import-service process killed mid-file', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let dedup: RunningBackendService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let references: DedupClient;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    infrastructure = await startInfrastructure('import-sigkill');
    dedup = await startDedupService(infrastructure.env);
    files = await startFileServer();
    references = dedupClient(dedup.grpcPort);
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    references?.close();
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

  it('when the process is killed while it sends the batch callback, then the next process sends it', async () => {
    const posts: Array<{ at: number; body: string }> = [];
    files.routes.set('/callback-kill', (_request, response, body) => {
      posts.push({ at: Date.now(), body });
      // The first POST is left unanswered: its sender is killed while it waits.
      if (posts.length > 1) response.writeHead(200).end();
    });
    const lines = Array.from({ length: 10 }, (_, i) => `${JSON.stringify({ identifiers: [{ identifier: `10.8888/callback-kill.${i}`, identifier_type: 'doi' }] })}\n`);
    const storageUrl = files.serve('/callback-kill.jsonl', lines.join(''));
    // Long enough that the first process is killed before its POST times out and it tries again itself.
    const callbackEnv = { IMPORT_CALLBACK_TIMEOUT_MS: '3000' };
    const port = await freePort();
    const first = await startProcess(port, callbackEnv);
    const client = importClient(port);
    try {
      const record = JSON.parse((await call<{ json: string }>(client, 'CreateImportRecord', { json: JSON.stringify({ processor_name: 't', processor_version: '1', expected_reference_count: 10, source_name: 's' }) })).json) as { id: string };
      await call(client, 'RegisterImportBatch', { import_record_id: record.id, batch_json: JSON.stringify({ storage_url: storageUrl, callback_url: `${files.base}/callback-kill` }) });
      await waitFor(() => posts.length >= 1, 'the first callback POST');
    } finally {
      client.close();
    }
    await stopProcess(first);
    const killedAt = Date.now();

    await startProcess(await freePort(), callbackEnv);
    const [sent, resent] = await waitFor(() => posts.length >= 2 && posts, 'the callback sent by the next process', 30_000);

    expect(resent.at).toBeGreaterThanOrEqual(killedAt);
    const summary = JSON.parse(resent.body) as ImportBatchSummary;
    expect(summary).toMatchObject({ import_batch_status: 'completed', results: { created: 0, started: 0, completed: 10, partially_failed: 0, failed: 0, retrying: 0 } });
    expect(JSON.parse(sent.body)).toEqual(summary);
  }, 60_000);
});
