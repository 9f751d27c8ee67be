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

  async function startProcess(port: number): Promise<ChildProcess> {
    const env = { ...process.env, ...infrastructure.env, GRPC_PORT: String(port), DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`, OUTBOUND_ALLOWLIST: '127.0.0.0/8', IMPORT_CHUNK_SIZE: '50', IMPORT_RETRY_BASE_MS: '20' };
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
    await startProcess(secondPort);
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
    }
  });
});
