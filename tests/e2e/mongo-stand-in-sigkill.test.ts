import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { freePort, waitFor } from '@destiny/devstack/testing';
import { startFileServer } from '../../services/import-service/test/import-helpers';
import { startCrashImport, type CrashImport } from './support/crash-import';
import { startSystemUnderTest, type SystemUnderTest } from './support/system-under-test';

// The database under import-service and dedup-service dies mid-import: the MongoDB stand-in runs
// as its own process (`npm run devstack -- mongo`, the built CLI) and is killed with SIGKILL, then
// started again on the same port and data folder. The services ride it out on the official
// driver's reconnection and their own retries; no acknowledged write is lost or applied twice.
const DEVSTACK_CLI = path.resolve(__dirname, '../../packages/devstack/dist/devstack.cli.js');

describe('the MongoDB stand-in killed with SIGKILL while an import runs', () => {
  let system: SystemUnderTest;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let mongo: ChildProcess;
  let mongoUrl: string;
  let mongoPort: number;
  let crashImport: CrashImport | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-mongo-sigkill-'));
  const children: ChildProcess[] = [];

  async function startMongoProcess(): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(process.execPath, [DEVSTACK_CLI, 'mongo', '--port', String(mongoPort), '--data', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(child);
    const lines = readline.createInterface({ input: child.stdout as NodeJS.ReadableStream });
    const url = await new Promise<string>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`the MongoDB stand-in exited with ${code}`)));
      lines.on('line', (line) => {
        const parsed = JSON.parse(line) as { url?: string };
        if (parsed.url) resolve(parsed.url);
      });
    });
    return { child, url };
  }

  async function killAndRestart(whileDown: () => Promise<void>): Promise<void> {
    const exited = new Promise((resolve) => mongo.once('exit', resolve));
    mongo.kill('SIGKILL');
    await exited;
    await whileDown();
    mongo = (await startMongoProcess()).child;
  }

  beforeAll(async () => {
    files = await startFileServer();
    mongoPort = await freePort();
    ({ child: mongo, url: mongoUrl } = await startMongoProcess());
    system = await startSystemUnderTest({
      label: 'mongo-sigkill',
      services: ['dedup-service', 'import-service'],
      env: {
        // A decision whose job could not be queued while the database was away is queued again after this long (default 2 min).
        'dedup-service': { MONGODB_URL: mongoUrl, DEDUP_PENDING_REQUEUE_MS: '3000' },
        'import-service': { MONGODB_URL: mongoUrl, IMPORT_CHUNK_SIZE: '50' },
      },
    });
  });

  afterAll(async () => {
    await crashImport?.close();
    await system?.stop();
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await files?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when killed twice mid-import and restarted on its data, then every line has one result, every identifier one owner, every reference one decision and its events', async () => {
    const started = await startCrashImport(system, files, { label: 'mongo-sigkill', tag: 'mongo-sigkill', mongoUrl });
    crashImport = started;
    await waitFor(async () => (await started.recorded()) >= 300, '300 lines recorded', 60_000);
    await killAndRestart(() => new Promise((resolve) => setTimeout(resolve, 500)));
    await waitFor(async () => (await started.recorded()) >= 900, '900 lines recorded', 120_000);
    // Down for longer than the services wait to select a server (10 s): the API answers a 503 with
    // the contract's error body, which a client retries, rather than a 500 or no answer.
    await killAndRestart(async () => {
      const response = await fetch(system.url('/imports/records/?limit=1'), { headers: system.admin });
      expect({ status: response.status, body: await response.json() }).toEqual({ status: 503, body: { detail: 'The database is unavailable; try again shortly.' } });
    });
    await started.expectEverythingOnce();
  }, 300_000);
});
