import type { ImportBatchSummary } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient } from 'mongodb';
import { startDedupService } from '../../dedup-service/src/index';
import { call as dedupCall, dedupClient, startInfrastructure, type DedupClient } from '../../dedup-service/test/dedup-helpers';
import { lineKey } from '../src/data-access/import.repository';
import { importResultId } from '../src/domain/import-result.id';
import { startImportService } from '../src/index';
import { call, importClient, slowFileRoute, startFileServer, waitFor, type ImportClient } from './import-helpers';

// import-service stopped between chunks while a slow file is streaming, then started again: the
// new instance resumes after the last recorded line and every line is processed exactly once.
describe('import-service restarted mid-file', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let dedup: RunningBackendService;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let references: DedupClient;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('import-resume');
    dedup = await startDedupService(infrastructure.env);
    files = await startFileServer();
    references = dedupClient(dedup.grpcPort);
  });

  afterAll(async () => {
    references?.close();
    await dedup?.stop();
    await files?.stop();
    await infrastructure?.stop();
  });

  it('when the service stops after some chunks and starts again, then all 600 lines have one result and one reference each', async () => {
    const env = { ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`, OUTBOUND_ALLOWLIST: '127.0.0.0/8', IMPORT_RETRY_BASE_MS: '20', IMPORT_CHUNK_SIZE: '50' };
    const lines = Array.from({ length: 600 }, (_, i) => `${JSON.stringify({ identifiers: [{ identifier: `10.7777/restart.${i}`, identifier_type: 'doi' }] })}\n`);
    const slow = slowFileRoute(lines);
    files.routes.set('/slow.jsonl', slow.route);

    const first = await startImportService(env);
    let client: ImportClient = importClient(first.grpcPort);
    const record = JSON.parse((await call<{ json: string }>(client, 'CreateImportRecord', { json: JSON.stringify({ processor_name: 't', processor_version: '1', expected_reference_count: 600, source_name: 's' }) })).json) as { id: string };
    const batch = JSON.parse((await call<{ json: string }>(client, 'RegisterImportBatch', { import_record_id: record.id, batch_json: JSON.stringify({ storage_url: `${files.base}/slow.jsonl` }) })).json) as { id: string };
    const resultCount = async () => (await call<{ json: string[] }>(client, 'ListImportResults', { import_record_id: record.id, import_batch_id: batch.id, result_status: '' })).json.length;
    await waitFor(async () => (await resultCount()) >= 100, 'the first chunks');
    await first.stop();
    client.close();

    const second = await startImportService(env);
    client = importClient(second.grpcPort);
    try {
      const summary = await waitFor(async () => {
        const current = JSON.parse((await call<{ json: string }>(client, 'GetImportBatchSummary', { import_record_id: record.id, import_batch_id: batch.id })).json) as ImportBatchSummary;
        return current.import_batch_status === 'completed' && current;
      }, 'the batch to complete after the restart');
      // The second instance fetched the file again: the first had stopped before its end.
      expect(slow.requests()).toBe(2);
      expect(summary.results).toEqual({ created: 0, started: 0, completed: 600, partially_failed: 0, failed: 0, retrying: 0 });
      const results = (await call<{ json: string[] }>(client, 'ListImportResults', { import_record_id: record.id, import_batch_id: batch.id, result_status: '' })).json.map((item) => JSON.parse(item) as { reference_id: string });
      expect(new Set(results.map((result) => result.reference_id)).size).toBe(600);
      const found = await dedupCall<{ json: string[] }>(references, 'LookupReferences', { identifiers: ['doi:10.7777/restart.0', 'doi:10.7777/restart.299', 'doi:10.7777/restart.599'] });
      expect(found.json).toHaveLength(3);
    } finally {
      client.close();
      await second.stop();
    }
  });

  it('when an earlier attempt left placeholder rows past the first chunk the next read looks up, then those lines are recorded too and the batch completes', async () => {
    // The state an attempt leaves when its read stops after a chunk's lines were marked `retrying`
    // or `started` but before their results were written: the next read starts at the batch's
    // `next_line`, before them, and meets them in a later chunk.
    const env = { ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`, OUTBOUND_ALLOWLIST: '127.0.0.0/8', IMPORT_RETRY_BASE_MS: '20', IMPORT_CHUNK_SIZE: '50' };
    const lines = Array.from({ length: 200 }, (_, i) => `${JSON.stringify({ identifiers: [{ identifier: `10.7777/placeholder.${i}`, identifier_type: 'doi' }] })}\n`);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    files.routes.set('/held.jsonl', (_request, response) => {
      void released.then(() => response.end(lines.join('')));
    });
    const service = await startImportService(env);
    const client = importClient(service.grpcPort);
    const mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    try {
      const record = JSON.parse((await call<{ json: string }>(client, 'CreateImportRecord', { json: JSON.stringify({ processor_name: 't', processor_version: '1', expected_reference_count: 200, source_name: 's' }) })).json) as { id: string };
      const batch = JSON.parse((await call<{ json: string }>(client, 'RegisterImportBatch', { import_record_id: record.id, batch_json: JSON.stringify({ storage_url: `${files.base}/held.jsonl` }) })).json) as { id: string };
      const now = new Date();
      const placeholders = Array.from({ length: 50 }, (_, k) => 101 + k).map((line) => ({
        _id: importResultId(batch.id, line),
        import_batch_id: batch.id,
        line_number: line,
        line_key: lineKey(batch.id, line),
        status: line % 2 === 0 ? 'started' : 'retrying',
        reference_id: null,
        failure_details: null,
        attempts: 1,
        created_at: now,
        updated_at: now,
      }));
      await mongo.db('destiny_import').collection('import_results').insertMany(placeholders as never[]);
      release();

      const summary = await waitFor(async () => {
        const current = JSON.parse((await call<{ json: string }>(client, 'GetImportBatchSummary', { import_record_id: record.id, import_batch_id: batch.id })).json) as ImportBatchSummary;
        return current.import_batch_status === 'completed' && current;
      }, 'the batch to complete', 20_000);
      expect(summary.results).toEqual({ created: 0, started: 0, completed: 200, partially_failed: 0, failed: 0, retrying: 0 });
      const results = (await call<{ json: string[] }>(client, 'ListImportResults', { import_record_id: record.id, import_batch_id: batch.id, result_status: '' })).json.map((item) => JSON.parse(item) as { reference_id: string | null });
      expect(results).toHaveLength(200);
      expect(new Set(results.map((result) => result.reference_id)).size).toBe(200);
      const found = await dedupCall<{ json: string[] }>(references, 'LookupReferences', { identifiers: ['doi:10.7777/placeholder.100', 'doi:10.7777/placeholder.149'] });
      expect(found.json.map((item) => (JSON.parse(item) as { id: string }).id).sort()).toEqual([results[100].reference_id, results[149].reference_id].sort());
    } finally {
      await mongo.close();
      client.close();
      await service.stop();
    }
  });
});
