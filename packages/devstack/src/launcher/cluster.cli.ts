// `npm run start:cluster`: the production shape on one machine — each of the six services as its
// own OS process, against the stand-ins (run by this process) and the real RabbitMQ.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ServiceStartedMessage } from '@destiny/platform';
import { startupBanner } from './banner';
import { launcherPorts, loadLauncherConfig } from './launcher.config';
import { assertPortsFree, tcpReachable } from './port-check';
import { startStandIns } from './stand-ins';

const root = path.resolve(__dirname, '..', '..', '..', '..');

/** In start order: each service's gRPC dependencies come before it (as in the embedded default). */
const backendServices = [
  ['dedup-service', 'DEDUP_SERVICE_GRPC_URL'],
  ['import-service', 'IMPORT_SERVICE_GRPC_URL'],
  ['robot-broker', 'ROBOT_BROKER_GRPC_URL'],
  ['search-request-service', 'SEARCH_REQUEST_SERVICE_GRPC_URL'],
  ['percolator', 'PERCOLATOR_GRPC_URL'],
] as const;

interface ServiceProcess {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  /** The ports the service chose (it listens on port 0), once it has started. */
  started: Promise<ServiceStartedMessage>;
}

function spawnService(name: string, env: NodeJS.ProcessEnv, onUnexpectedExit: (name: string, code: number | null, signal: string | null) => void): ServiceProcess {
  // The IPC channel carries the service's `service-started` message with the ports it listens on.
  const child = spawn(process.execPath, [...process.execArgv, path.join(root, 'services', name, 'dist', 'main.js')], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const started = new Promise<ServiceStartedMessage>((resolve, reject) => {
    child.on('message', (message: ServiceStartedMessage) => {
      if (message?.event === 'service-started') resolve(message);
    });
    child.once('exit', (code, signal) => reject(new Error(`${name} exited (${signal ?? `code ${code}`}) before it started`)));
  });
  started.catch(() => undefined);
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      onUnexpectedExit(name, code, signal);
      resolve();
    }),
  );
  return { name, child, exited, started };
}

async function waitForHealthy(apiUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${apiUrl}/v1/system/healthcheck/`);
      if (response.status === 200) return;
      last = await response.text();
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the system did not become healthy within ${timeoutMs / 1000} s (${last})`);
}

async function main(): Promise<void> {
  const config = loadLauncherConfig();
  fs.mkdirSync(config.dataDir, { recursive: true });
  const amqp = new URL(config.AMQP_URL);
  if (!(await tcpReachable(amqp.hostname, Number(amqp.port || 5672)))) {
    throw new Error(`cluster mode needs RabbitMQ at ${amqp.host} (separate processes cannot share an in-process bus); start it with \`rabbitmq-server -detached\``);
  }
  await assertPortsFree(launcherPorts(config), config.DESTINY_HOST);
  const standIns = await startStandIns(config);
  let stopping = false;
  const processes: ServiceProcess[] = [];
  const onExit = (name: string, code: number | null, signal: string | null) => {
    if (!stopping) process.stderr.write(`[cluster] ${name} exited unexpectedly (${signal ?? `code ${code}`}); the healthcheck reports it unavailable\n`);
  };
  const baseEnvironment: NodeJS.ProcessEnv = { ...process.env, ...standIns.serviceEnvironment, AMQP_URL: config.AMQP_URL, LOG_LEVEL: config.LOG_LEVEL, GRPC_HOST: '127.0.0.1', GRPC_PORT: '0', HEALTH_PORT: '0' };
  const serviceSummary: Record<string, { pid: number | undefined; grpc: string; health: number }> = {};
  // Each service listens on a port of its own choosing (0) and reports it; the next ones learn its
  // address. No port is picked early, where another process could take it in between.
  try {
    for (const [name, variable] of backendServices) {
      const service = spawnService(name, { ...baseEnvironment }, onExit);
      processes.push(service);
      const { grpcPort, healthPort } = await service.started;
      baseEnvironment[variable] = `127.0.0.1:${grpcPort}`;
      serviceSummary[name] = { pid: service.child.pid, grpc: `127.0.0.1:${grpcPort}`, health: healthPort ?? 0 };
    }
    const gateway = spawnService('api-gateway', { ...baseEnvironment, PORT: String(config.DESTINY_PORT), HOST: config.DESTINY_HOST }, onExit);
    processes.push(gateway);
    await gateway.started;
    serviceSummary['api-gateway'] = { pid: gateway.child.pid, grpc: '-', health: config.DESTINY_PORT };
  } catch (error) {
    stopping = true;
    for (const service of processes) service.child.kill('SIGTERM');
    await Promise.all(processes.map((service) => service.exited));
    await standIns.stop();
    throw error;
  }

  const host = config.DESTINY_HOST === '0.0.0.0' ? '127.0.0.1' : config.DESTINY_HOST;
  const apiUrl = `http://${host}:${config.DESTINY_PORT}`;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\nStopping (${signal})...\n`);
    for (const service of processes) service.child.kill('SIGTERM');
    const forced = setTimeout(() => processes.forEach((service) => service.child.kill('SIGKILL')), 15_000);
    await Promise.all(processes.map((service) => service.exited));
    clearTimeout(forced);
    await standIns.stop();
    process.stdout.write('Stopped.\n');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await waitForHealthy(apiUrl, 60_000);
  process.stdout.write(startupBanner({ apiUrl, bus: 'rabbitmq', summary: standIns.summary }, config.dataDir));
  // Machine-readable line for tests and scripts: which process is which.
  process.stdout.write(`${JSON.stringify({ msg: 'cluster started', api_url: apiUrl, services: serviceSummary })}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`start:cluster failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
