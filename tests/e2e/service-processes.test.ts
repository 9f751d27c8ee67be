import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { startTestInfrastructure, type TestInfrastructure } from '@destiny/devstack/testing';
import { checkGrpcHealth } from '@destiny/platform';

const root = path.resolve(__dirname, '..', '..');
const backendServices = ['import-service', 'dedup-service', 'robot-broker', 'search-request-service', 'percolator'];

interface StartedProcess {
  child: ChildProcess;
  log: Array<Record<string, unknown>>;
  started: Record<string, unknown>;
}

/** Spawns a built service and waits for its "started"/"listening" log line. */
function spawnService(name: string, env: Record<string, string>): Promise<StartedProcess> {
  const child = spawn(process.execPath, [path.join(root, 'services', name, 'dist', 'main.js')], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: Array<Record<string, unknown>> = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start: ${JSON.stringify(log)}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${JSON.stringify(log)}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        log.push(entry);
        if (typeof entry.msg === 'string' && /started|listening/.test(entry.msg)) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          resolve({ child, log, started: entry });
        }
      } catch {
        log.push({ raw: line });
      }
    });
  });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

describe('each service as its own process', () => {
  let infrastructure: TestInfrastructure;

  beforeAll(async () => {
    infrastructure = await startTestInfrastructure('service-processes');
  });

  afterAll(async () => {
    await infrastructure?.stop();
  });

  it.each(backendServices)('when %s starts, then its gRPC health and readiness answer, and SIGTERM stops it with exit code 0', async (name) => {
    const started = await spawnService(name, { ...infrastructure.env, LOG_LEVEL: 'info' });
    try {
      const grpcPort = Number(started.started.grpc_port);
      const healthPort = Number(started.started.health_port);
      expect(await checkGrpcHealth(`127.0.0.1:${grpcPort}`)).toBe(true);
      expect((await fetch(`http://127.0.0.1:${healthPort}/readyz`)).status).toBe(200);
      const exited = exitOf(started.child);
      started.child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(started.log.some((entry) => entry.msg === `${name} stopped`)).toBe(true);
    } finally {
      started.child.kill('SIGKILL');
    }
  });

  it('when a service is misconfigured, then it exits non-zero naming the variable', async () => {
    const child = spawn(process.execPath, [path.join(root, 'services', 'dedup-service', 'dist', 'main.js')], {
      env: { ...process.env, GRPC_PORT: 'not-a-port' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await exitOf(child)).toBe(1);
    expect(output).toMatch(/GRPC_PORT must be an integer/);
  });

  it('when the gateway starts, then it answers ping and stops on SIGTERM', async () => {
    const started = await spawnService('api-gateway', { PORT: '0', HEALTH_PORT: '0', HOST: '127.0.0.1' });
    try {
      const port = Number(started.started.port);
      expect((await fetch(`http://127.0.0.1:${port}/v1/system/ping/`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${Number(started.started.health_port)}/livez`)).status).toBe(200);
      const exited = exitOf(started.child);
      started.child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      started.child.kill('SIGKILL');
    }
  });
});
