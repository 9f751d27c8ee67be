// Restarts the shared RabbitMQ broker, so jest runs this file alone in its own phase
// (DESTINY_TEST_PHASE=broker-restart), after every other test.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { waitFor } from '@destiny/devstack/testing';
import { startFileServer } from '../../services/import-service/test/import-helpers';
import { startCrashImport, type CrashImport } from './support/crash-import';
import { startSystemUnderTest, type SystemUnderTest } from './support/system-under-test';

// The broker that carries the import's batch job, the deduplication jobs and the reference events
// goes away mid-import and comes back: import-service and dedup-service reconnect, redeliveries
// are absorbed by their idempotent consumers, and the outbox holds events until it can publish.
const run = promisify(execFile);

describe('RabbitMQ restarted while an import runs', () => {
  let system: SystemUnderTest;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let crashImport: CrashImport | undefined;

  beforeAll(async () => {
    files = await startFileServer();
    system = await startSystemUnderTest({
      label: 'import-broker-restart',
      services: ['dedup-service', 'import-service'],
      env: { 'dedup-service': { DEDUP_PENDING_REQUEUE_MS: '3000' }, 'import-service': { IMPORT_CHUNK_SIZE: '50' } },
    });
  });

  afterAll(async () => {
    await crashImport?.close();
    await system?.stop();
    await files?.stop();
  });

  it('when the broker stops mid-import and starts again, then every line has one result, every identifier one owner, every reference one decision and its events', async () => {
    const started = await startCrashImport(system, files, { label: 'import-broker-restart', tag: 'broker-restart', mongoUrl: String(system.env.MONGODB_URL) });
    crashImport = started;
    await waitFor(async () => (await started.recorded()) >= 400, '400 lines recorded', 60_000);
    try {
      await run('rabbitmqctl', ['stop_app']);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    } finally {
      await run('rabbitmqctl', ['start_app']);
      await run('rabbitmqctl', ['await_startup']);
    }
    await started.expectEverythingOnce();
  }, 300_000);
});
