import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { createTestMessagingNamespace } from '@destiny/devstack/testing';
import { launcherEnvironment, runTokenCommand, startCommand, startLauncher } from './launcher-processes';

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Kills whatever still runs with `DESTINY_DATA_DIR=folder` (what a failed stop left behind). */
function killLeftovers(folder: string): void {
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`DESTINY_DATA_DIR=${folder}`)) process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
}

function decodeJwtPayload(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
}

describe('the embedded default (npm start)', () => {
  let dataDir: string;
  let env: Record<string, string>;
  const messaging = createTestMessagingNamespace('embedded');

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-embedded-'));
    env = await launcherEnvironment(dataDir, messaging.namespace);
  });

  afterAll(async () => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    await messaging.remove();
  });

  it('when started, then it prints the URLs and first steps, answers the healthcheck with a token from npm run token, stops on SIGTERM, and keeps its data across a restart', async () => {
    const first = await startLauncher('launcher.cli.js', env, 'Press Ctrl-C to stop');
    const apiUrl = `http://127.0.0.1:${env.DESTINY_PORT}`;
    let token: string;
    let robotId: string;
    try {
      expect(first.output()).toContain(`${apiUrl}/v1/docs/`);
      expect(first.output()).toContain('npm run --silent token');
      const tokenRun = await runTokenCommand({ DESTINY_DATA_DIR: dataDir });
      expect(tokenRun.code).toBe(0);
      token = tokenRun.stdout.trim();
      expect(token.split('.')).toHaveLength(3);
      const health = await fetch(`${apiUrl}/v1/system/healthcheck/`, { headers: { authorization: `Bearer ${token}` } });
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const readerRun = await runTokenCommand({ DESTINY_DATA_DIR: dataDir }, ['--client', 'reader']);
      const readerClaims = decodeJwtPayload(readerRun.stdout.trim());
      expect(readerClaims.resource_access).toEqual({ 'destiny-repository-client-development': { roles: ['reference.reader'] } });
      const client = await MongoClient.connect(`mongodb://127.0.0.1:${env.DESTINY_MONGO_PORT}/?directConnection=true`);
      await client.db('launcher_test').collection('kept').insertOne({ _id: 'marker' as never, value: 42 });
      await client.close();
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const registered = await fetch(`${apiUrl}/v1/robots/`, { method: 'POST', headers, body: JSON.stringify({ name: 'launcher-robot', description: 'kept across restarts', owner: 'tests' }) });
      expect(registered.status).toBe(201);
      robotId = ((await registered.json()) as { id: string }).id;
      const automation = await fetch(`${apiUrl}/v1/enhancement-requests/automations/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ robot_id: robotId, query: { nested: { path: 'changeset.enhancements', query: { term: { 'changeset.enhancements.content.enhancement_type': 'abstract' } } } } }),
      });
      expect(automation.status).toBe(201);
    } finally {
      first.child.kill('SIGTERM');
    }
    expect(await first.exited).toBe(0);

    const second = await startLauncher('launcher.cli.js', env, 'Press Ctrl-C to stop');
    try {
      const client = await MongoClient.connect(`mongodb://127.0.0.1:${env.DESTINY_MONGO_PORT}/?directConnection=true`);
      expect(await client.db('launcher_test').collection('kept').findOne({ _id: 'marker' as never })).toMatchObject({ value: 42 });
      await client.close();
      const jwks = (await (await fetch(`http://127.0.0.1:${env.DESTINY_IDENTITY_PORT}/realms/destiny/protocol/openid-connect/certs`)).json()) as { keys: Array<{ kid: string }> };
      const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { kid: string };
      expect(jwks.keys.map((key) => key.kid)).toContain(header.kid);
      const robot = await fetch(`http://127.0.0.1:${env.DESTINY_PORT}/v1/robots/${robotId}/`, { headers: { authorization: `Bearer ${token}` } });
      expect(robot.status).toBe(200);
      expect(await robot.json()).toMatchObject({ id: robotId, name: 'launcher-robot' });
    } finally {
      second.child.kill('SIGINT');
    }
    expect(await second.exited).toBe(0);
  });

  it('when npm start itself is sent SIGTERM (as a supervisor stops it), then the whole system stops with it', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-embedded-npm-'));
    const npmEnv = await launcherEnvironment(folder, messaging.namespace);
    try {
      const npm = await startCommand('npm', ['start'], npmEnv, 'Press Ctrl-C to stop');
      expect(await portAccepts(Number(npmEnv.DESTINY_PORT))).toBe(true);
      npm.child.kill('SIGTERM');
      await npm.exited;
      // npm runs the script through a shell; unless the shell hands its place to node, the
      // signal stops npm and the shell and leaves the system running on its own.
      let open = true;
      for (const deadline = Date.now() + 30_000; open && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        open = await portAccepts(Number(npmEnv.DESTINY_PORT));
      }
      expect(open).toBe(false);
    } finally {
      killLeftovers(folder);
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('when the API port is already taken, then it exits non-zero saying which port and variable', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(Number(env.DESTINY_PORT), '127.0.0.1', resolve));
    try {
      await expect(startLauncher('launcher.cli.js', env, 'Press Ctrl-C to stop', 30_000)).rejects.toThrow(
        new RegExp(`exited with 1[\\s\\S]*port ${env.DESTINY_PORT} on 127.0.0.1 is already in use \\(set DESTINY_PORT`),
      );
    } finally {
      blocker.close();
    }
  });

  it('when a service on its own thread cannot start, then npm start exits non-zero naming the service and the reason', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-embedded-badthread-'));
    try {
      const badEnv = { ...(await launcherEnvironment(folder, messaging.namespace)), DEDUP_PENDING_REQUEUE_MS: '10' };
      await expect(startLauncher('launcher.cli.js', badEnv, 'Press Ctrl-C to stop', 60_000)).rejects.toThrow(/exited with 1[\s\S]*npm start failed: dedup-service: [\s\S]*DEDUP_PENDING_REQUEUE_MS/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('when no RabbitMQ is reachable, then it runs on the in-process bus, which carries an import between the service threads until the references are searchable', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-embedded-inprocess-'));
    const marker = `threadbus${Date.now()}`;
    const files = http.createServer((_request, response) => {
      const lines = [1, 2, 3].map((n) =>
        JSON.stringify({
          identifiers: [{ identifier_type: 'doi', identifier: `10.5555/${marker}.${n}` }],
          enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'bibliographic', title: `Paper ${n} on ${marker} in estuaries`, publication_year: 2024 } }],
        }),
      );
      response.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(`${lines.join('\n')}\n`);
    });
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
    // dedup-service, import-service and robot-broker run on threads of their own (the default);
    // search-request-service stays on the main thread, so search results prove the events crossed.
    const inProcessEnv: Record<string, string> = {
      ...(await launcherEnvironment(folder, messaging.namespace)),
      AMQP_URL: 'amqp://guest:guest@127.0.0.1:1',
      OUTBOUND_ALLOWLIST: '127.0.0.0/8',
      INDEXING_BATCH_WAIT_MS: '10',
    };
    const launcher = await startLauncher('launcher.cli.js', inProcessEnv, 'Press Ctrl-C to stop');
    try {
      expect(launcher.output()).toContain('in-process (no RabbitMQ reachable)');
      const apiUrl = `http://127.0.0.1:${inProcessEnv.DESTINY_PORT}`;
      expect((await fetch(`${apiUrl}/v1/system/healthcheck/`)).status).toBe(200);
      const token = (await runTokenCommand({ DESTINY_DATA_DIR: folder })).stdout.trim();
      const registered = await fetch(`${apiUrl}/v1/robots/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'in-process-robot', description: 'no broker', owner: 'tests' }),
      });
      expect(registered.status).toBe(201);

      const writer = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const record = (await (await fetch(`${apiUrl}/v1/imports/records/`, { method: 'POST', headers: writer, body: JSON.stringify({ processor_name: 'p', processor_version: '1', expected_reference_count: 3, source_name: 's' }) })).json()) as { id: string };
      const storageUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}/batch.jsonl`;
      const batchResponse = await fetch(`${apiUrl}/v1/imports/records/${record.id}/batches/`, { method: 'POST', headers: writer, body: JSON.stringify({ storage_url: storageUrl }) });
      expect(batchResponse.status).toBe(202);
      const batch = (await batchResponse.json()) as { id: string };
      let summary: { import_batch_status?: string; results?: Record<string, number> } = {};
      let found = 0;
      for (const deadline = Date.now() + 60_000; Date.now() < deadline && (summary.import_batch_status !== 'completed' || found < 3); ) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        summary = (await (await fetch(`${apiUrl}/v1/imports/records/${record.id}/batches/${batch.id}/summary/`, { headers: writer })).json()) as typeof summary;
        const search = (await (await fetch(`${apiUrl}/v1/references/search/?q=${marker}`, { headers: writer })).json()) as { total?: { count: number } };
        found = search.total?.count ?? 0;
      }
      expect(summary).toMatchObject({ import_batch_status: 'completed', results: { completed: 3 } });
      expect(found).toBe(3);
    } finally {
      launcher.child.kill('SIGTERM');
      expect(await launcher.exited).toBe(0);
      await new Promise<void>((resolve) => files.close(() => resolve()));
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
