import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort, waitFor } from '@destiny/devstack/testing';
import { startFileServer } from '../../services/import-service/test/import-helpers';
import { startCrashImport, type CrashImport } from './support/crash-import';
import { startSystemUnderTest, type SystemUnderTest } from './support/system-under-test';

// dedup-service, the one service that writes references, runs as its own process (the built
// dist/main.js) and is killed with SIGKILL several times while an import streams into it and its
// decisions are being made. Nothing it acknowledged may be lost or applied twice.
const DEDUP_SERVICE_MAIN = path.resolve(__dirname, '../../services/dedup-service/dist/main.js');

describe('dedup-service killed with SIGKILL while it ingests and decides an import', () => {
  let system: SystemUnderTest;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let dedupPort: number;
  let dedupService: ChildProcess;
  let crashImport: CrashImport | undefined;
  const children: ChildProcess[] = [];

  async function startDedupProcess(): Promise<ChildProcess> {
    const child = spawn(process.execPath, [DEDUP_SERVICE_MAIN], {
      env: {
        ...process.env,
        ...system.env,
        GRPC_PORT: String(dedupPort),
        HEALTH_PORT: '0',
        LOG_LEVEL: 'silent',
        // A decision whose job died with the process is queued again after this long (default 2 min),
        // and the leases the killed process held (writing, relaying events) expire after this long
        // (default 15 s and 10 s).
        DEDUP_PENDING_REQUEUE_MS: '3000',
        DEDUP_WRITER_LEASE_MS: '3000',
        OUTBOX_RELAY_LEASE_MS: '3000',
      },
      stdio: 'ignore',
    });
    children.push(child);
    // An unknown reference is a 404 only once dedup-service answers behind the gateway.
    await waitFor(async () => (await fetch(system.url('/references/00000000-0000-7000-8000-000000000000/'), { headers: system.admin })).status === 404, 'dedup-service to serve through the gateway', 30_000);
    return child;
  }

  async function killAndRestart(): Promise<void> {
    const exited = new Promise((resolve) => dedupService.once('exit', resolve));
    dedupService.kill('SIGKILL');
    await exited;
    dedupService = await startDedupProcess();
  }

  beforeAll(async () => {
    files = await startFileServer();
    dedupPort = await freePort();
    system = await startSystemUnderTest({
      label: 'dedup-sigkill',
      services: ['import-service'],
      external: { 'dedup-service': `127.0.0.1:${dedupPort}` },
      env: { 'import-service': { IMPORT_CHUNK_SIZE: '50' } },
    });
    dedupService = await startDedupProcess();
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await crashImport?.close();
    await system?.stop();
    await files?.stop();
  });

  it('when killed three times mid-import and once while deciding, then every line has one result, every identifier one owner, every reference one decision and its events', async () => {
    const started = await startCrashImport(system, files, { label: 'dedup-sigkill', tag: 'dedup-sigkill', mongoUrl: String(system.env.MONGODB_URL) });
    crashImport = started;
    for (const after of [150, 600, 1100]) {
      await waitFor(async () => (await started.recorded()) >= after, `${after} lines recorded`, 60_000);
      await killAndRestart();
    }
    // Once more as soon as the last line is recorded, while decisions are still being made.
    await waitFor(async () => (await started.recorded()) === 1500, 'every line recorded', 120_000);
    await killAndRestart();
    await started.expectEverythingOnce();
  }, 300_000);
});
