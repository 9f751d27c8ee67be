// Runs one backend service on its own thread of the embedded default's process. Telemetry starts
// before the service's modules load, as in a service process, so its clients are instrumented.
import { readlinkSync } from 'node:fs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { BackendOverrides } from '@destiny/platform';
import { startTelemetryFromEnvironment } from '@destiny/platform/telemetry/telemetry';
import type { ServiceWorkerData, ServiceWorkerReply, ServiceWorkerRequest, ThreadableService } from './service.thread';

const { service, logLevel, busPort } = workerData as ServiceWorkerData & { busPort?: MessagePort };
const telemetry = startTelemetryFromEnvironment(service);
if (!parentPort) throw new Error('service.worker must run as a worker thread');
const port: MessagePort = parentPort;

const reply = (message: ServiceWorkerReply) => port.postMessage(message);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Starter = (env: NodeJS.ProcessEnv, overrides: BackendOverrides) => Promise<{ grpcPort: number; stop(): Promise<void> }>;

async function starterOf(name: ThreadableService): Promise<Starter> {
  switch (name) {
    case 'dedup-service':
      return (await import('@destiny/dedup-service')).startDedupService;
    case 'import-service':
      return (await import('@destiny/import-service')).startImportService;
    case 'robot-broker':
      return (await import('@destiny/robot-broker')).startRobotBroker;
    case 'search-request-service':
      return (await import('@destiny/search-request-service')).startSearchRequestService;
    case 'percolator':
      return (await import('@destiny/percolator')).startPercolator;
  }
}

/** Linux names each thread under /proc/thread-self, which tools read for per-thread CPU time. */
function osThreadId(): number | null {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop()) || null;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const { createLogger } = await import('@destiny/platform');
  const { connectBusToHost } = await import('@destiny/platform/messaging');
  const start = await starterOf(service);
  const running = await start(process.env, {
    logger: createLogger({ service, level: logLevel }),
    ...(busPort ? { createBus: async () => connectBusToHost(busPort, service) } : {}),
  });
  reply({ type: 'started', grpcPort: running.grpcPort, osThreadId: osThreadId() });
  port.on('message', (request: ServiceWorkerRequest) => {
    if (request.type !== 'stop') return;
    running
      .stop()
      .then(() => telemetry.shutdown())
      .then(
        () => reply({ type: 'stopped' }),
        (error: unknown) => reply({ type: 'failed', message: messageOf(error) }),
      );
  });
}

main().catch((error: unknown) => reply({ type: 'failed', message: messageOf(error) }));
