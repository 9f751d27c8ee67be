import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import readline from 'node:readline';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import { startDedupService } from '../../dedup-service/src/index';
import { abstractLine, call, callJson, dedupClient, ingestReferences, robotBrokerClient, startInfrastructure, waitFor, type DedupClient, type RobotBrokerClient } from './robot-helpers';

const MAIN = path.resolve(__dirname, '..', 'dist', 'main.js');
const REFERENCES = 2000;
const USER = { subject: 'user', roles: [], entitlements: [], robot_id: '' };

/** robot-broker as its own process (the built main.js); resolves with its gRPC port once started. */
function spawnBroker(env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  // The restarted process takes over event publication once the killed one's relay lease expires (default 10 s).
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env, LOG_LEVEL: 'info', OUTBOX_RELAY_LEASE_MS: '1000' }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const log: string[] = [];
    const timer = setTimeout(() => reject(new Error(`robot-broker did not start: ${log.join('\n')}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`robot-broker exited with ${code}: ${log.join('\n')}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      log.push(line);
      try {
        const entry = JSON.parse(line) as { msg?: string; grpc_port?: number };
        if (entry.msg === 'robot-broker started' && entry.grpc_port) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          resolve({ child, port: entry.grpc_port });
        }
      } catch {
        // not a log line
      }
    });
  });
}

const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));

// robot-broker is SIGKILLed while it imports a robot's result file in chunks, then started again:
// the import resumes and every enhancement is stored exactly once.
describe('robot-broker killed while importing results', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let dedup: RunningBackendService;
  let references: DedupClient;
  let mongo: MongoClient;
  let db: Db;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    infrastructure = await startInfrastructure('robot-import-restart');
    dedup = await startDedupService(infrastructure.env);
    references = dedupClient(dedup.grpcPort);
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = mongo.db('destiny_robot_broker');
  });

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited(child);
      }
    }
    await mongo?.close();
    references?.close();
    await dedup?.stop();
    await infrastructure?.stop();
  });

  /**
   * Ingests references, spawns robot-broker with `env`, and has a robot poll them all, upload an
   * abstract for each and submit: the import is running when this resolves.
   */
  async function submittedImport(env: Record<string, string>, label: string) {
    const refs = await ingestReferences(references, REFERENCES, label);
    const first = await spawnBroker(env);
    children.push(first.child);
    const client: RobotBrokerClient = robotBrokerClient(first.port);
    const json = <T>(method: string, request: unknown) => callJson<T>(client, method, request);
    const robot = await json<{ id: string }>('RegisterRobot', { caller: USER, json: JSON.stringify({ name: `${label}-bot`, description: 'd', owner: 'o' }) });
    await json('CreateEnhancementRequest', { caller: USER, json: JSON.stringify({ robot_id: robot.id, reference_ids: refs }) });
    const batch = JSON.parse((await call<{ json: string }>(client, 'PollRobotEnhancementBatch', { caller: USER, robot_id: robot.id, limit: REFERENCES, lease: 'PT10M' })).json) as {
      id: string;
      result_storage_url: string;
    };
    const upload = await fetch(batch.result_storage_url, { method: 'PUT', body: refs.map((id) => `${abstractLine(id)}\n`).join('') });
    expect(upload.status).toBe(200);
    await json('SubmitRobotEnhancementBatchResult', { caller: USER, id: batch.id, json: JSON.stringify({ request_id: batch.id, error: null }) });
    return { refs, robot, batch, first, client };
  }

  /** Every reference has exactly one abstract from the robot, every row and line of the batch succeeded (the validation file, read through `brokerPort`). */
  async function expectEachStoredOnce(refs: string[], batchId: string, brokerPort: number): Promise<void> {
    const counts = new Map<string, number>();
    for (let start = 0; start < refs.length; start += 500) {
      const views = (await call<{ json: string[] }>(references, 'GetDeduplicatedViews', { ids: refs.slice(start, start + 500) })).json.map((text) => JSON.parse(text) as { id: string; enhancements: Array<{ source: string }> });
      for (const view of views) counts.set(view.id, view.enhancements.filter((enhancement) => enhancement.source === 'abstract-bot').length);
    }
    expect(refs.filter((id) => counts.get(id) !== 1)).toEqual([]);
    const statuses = await db.collection('pending_enhancements').distinct('status', { robot_enhancement_batch_id: batchId });
    expect(statuses.filter((status) => status !== 'indexing' && status !== 'completed')).toEqual([]);
    const client = robotBrokerClient(brokerPort);
    const { validation_result_url: url } = await callJson<{ validation_result_url: string | null }>(client, 'GetRobotEnhancementBatch', { id: batchId });
    client.close();
    expect(url).toEqual(expect.any(String));
    const entries = (await (await fetch(url!)).text())
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { reference_id?: string; error?: string });
    expect(entries).toHaveLength(REFERENCES);
    expect(entries.filter((entry) => entry.error !== undefined)).toEqual([]);
    expect(new Set(entries.map((entry) => entry.reference_id))).toEqual(new Set(refs));
    // The chunk records go once the batch is imported and its validation file holds the outcomes.
    await waitFor(async () => (await db.collection('robot_batch_import_chunks').countDocuments({ batch_id: batchId })) === 0, 'the chunk records dropped');
  }

  /** Starts robot-broker again with `env`, waits until the batch is imported, checks every enhancement was stored once, and stops it. */
  async function resumedImportStoresEachOnce(env: Record<string, string>, refs: string[], batchId: string): Promise<void> {
    const second = await spawnBroker(env);
    children.push(second.child);
    await waitFor(async () => (await db.collection('robot_enhancement_batches').findOne({ _id: batchId as never }))?.status === 'imported', 'the resumed import', 120_000);
    await expectEachStoredOnce(refs, batchId, second.port);
    second.child.kill('SIGTERM');
    await exited(second.child);
  }

  it('when the process dies mid-import and restarts, then each of the 2,000 enhancements is stored exactly once and none is lost', async () => {
    const env = { ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`, ROBOT_RESULT_IMPORT_CHUNK_SIZE: '25' };
    const { refs, batch, first, client } = await submittedImport(env, 'restart');
    const progress = async () => (await db.collection('robot_enhancement_batches').findOne({ _id: batch.id as never }))?.import as { next_line: number } | undefined;
    await waitFor(async () => ((await progress())?.next_line ?? 0) >= 100, 'the first chunks of the import', 60_000);
    first.child.kill('SIGKILL');
    await exited(first.child);
    client.close();
    const interrupted = await db.collection('robot_enhancement_batches').findOne({ _id: batch.id as never });
    expect(interrupted?.status).toBe('importing');
    expect((interrupted?.import as { next_line: number }).next_line).toBeLessThan(REFERENCES);

    await resumedImportStoresEachOnce(env, refs, batch.id);
  }, 300_000);

  it('when an import recorded by an older version (outcomes in the batch document) is resumed after a restart, then its recorded lines count and each enhancement is stored exactly once', async () => {
    const env = { ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`, ROBOT_RESULT_IMPORT_CHUNK_SIZE: '25' };
    const { refs, batch, first, client } = await submittedImport(env, 'legacy');
    const batches = db.collection('robot_enhancement_batches');
    const chunkRecords = db.collection('robot_batch_import_chunks');
    await waitFor(async () => (((await batches.findOne({ _id: batch.id as never }))?.import as { next_line: number } | undefined)?.next_line ?? 0) >= 100, 'the first chunks', 60_000);
    first.child.kill('SIGKILL');
    await exited(first.child);
    client.close();

    // Rewrite the recorded chunks as the older versions kept them: in the batch document.
    const { next_line: nextLine } = (await batches.findOne({ _id: batch.id as never }))?.import as { next_line: number };
    const recorded = (await chunkRecords.find({ batch_id: batch.id }).sort({ _id: 1 }).toArray()).filter((chunk) => chunk.through_line <= nextLine);
    expect(recorded.length).toBeGreaterThan(0);
    await batches.updateOne(
      { _id: batch.id as never },
      { $set: { 'import.attempts': Object.assign({}, ...recorded.map((chunk) => chunk.attempts)), 'import.entries': recorded.flatMap((chunk) => chunk.entries) } },
    );
    await chunkRecords.deleteMany({ batch_id: batch.id });

    await resumedImportStoresEachOnce(env, refs, batch.id);
  }, 300_000);

  it('when a call of 250 enhancements landed just before the crash and the restarted process imports in chunks of 25, then each is sent again under its recorded id and stored exactly once, none discarded', async () => {
    const base = { ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}` };
    const { refs, robot, batch, first, client } = await submittedImport({ ...base, ROBOT_RESULT_IMPORT_CHUNK_SIZE: '250', ROBOT_RESULT_IMPORT_CHUNK_SIZE_WHILE_POLLING: '250' }, 'resize');
    const batches = db.collection('robot_enhancement_batches');
    type ImportState = { next_line: number; in_flight: { from_line: number; enhancement_ids: Record<string, string> } | null };
    await waitFor(async () => (((await batches.findOne({ _id: batch.id as never }))?.import as ImportState | undefined)?.next_line ?? 0) >= 250, 'the first chunk of 250', 60_000);
    first.child.kill('SIGKILL');
    await exited(first.child);
    client.close();

    // The state a crash right after a landed call leaves: the call's ids recorded as in flight, its
    // enhancements stored by dedup-service, its lines not recorded. Whatever the killed process had
    // in flight is landed here as well; if it had nothing, the next 250 lines are.
    const interrupted = (await batches.findOne({ _id: batch.id as never }))?.import as ImportState;
    expect(interrupted.next_line).toBeLessThan(REFERENCES);
    let inFlight = interrupted.in_flight?.enhancement_ids ?? {};
    if (Object.keys(inFlight).length === 0) {
      inFlight = Object.fromEntries(refs.slice(interrupted.next_line, interrupted.next_line + 250).map((id) => [id, crypto.randomUUID()]));
      await batches.updateOne({ _id: batch.id as never }, { $set: { 'import.in_flight': { from_line: interrupted.next_line, enhancement_ids: inFlight } } });
    }
    const landed = Object.keys(inFlight);
    expect(landed.length).toBeGreaterThan(25);
    const outcomes = await call<{ outcomes: Array<{ status: string }> }>(references, 'AddEnhancements', {
      enhancements_json: landed.map((id) => abstractLine(id)),
      enhancement_ids: landed.map((id) => inFlight[id]),
      robot_id: robot.id,
      robot_enhancement_batch_id: batch.id,
      enhancement_request_id: '',
    });
    expect(outcomes.outcomes.every((outcome) => outcome.status === 'stored')).toBe(true);

    await resumedImportStoresEachOnce({ ...base, ROBOT_RESULT_IMPORT_CHUNK_SIZE: '25', ROBOT_RESULT_IMPORT_CHUNK_SIZE_WHILE_POLLING: '25' }, refs, batch.id);
  }, 300_000);
});
