import path from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import { nextReply, stopThread } from './worker.reply';
import { serveBusToThread, type MessageBus } from '@destiny/platform/messaging';

/** The backend services the embedded default can run on a worker thread of its own. */
export const THREADABLE_SERVICES = ['dedup-service', 'import-service', 'robot-broker', 'search-request-service', 'percolator'] as const;
export type ThreadableService = (typeof THREADABLE_SERVICES)[number];

export interface ServiceWorkerData {
  service: ThreadableService;
  logLevel: string;
}

export type ServiceWorkerRequest = { type: 'stop' };
export type ServiceWorkerReply = { type: 'started'; grpcPort: number; osThreadId: number | null } | { type: 'stopped' } | { type: 'failed'; message: string };

export interface RunningServiceThread {
  grpcPort: number;
  /** The thread's id in the operating system (Linux), where its CPU time can be read; null elsewhere. */
  osThreadId: number | null;
  stop(): Promise<void>;
}

export interface ServiceThreadOptions {
  /** The launcher's in-process bus, served to the thread; without it the service connects to RabbitMQ itself. */
  bus?: MessageBus;
  logLevel: string;
  /** Called when the thread ends without being asked to (an uncaught error in the service). */
  onUnexpectedExit(service: ThreadableService, reason: string): void;
}


/**
 * Starts one backend service on a worker thread of the launcher's process (from the build, beside
 * `service.worker.js`), so the embedded default spreads the services over the machine's cores.
 * The service is the same code a service process runs: it reaches MongoDB, the other services and
 * RabbitMQ over their protocols, and the in-process bus, when that is the bus, over a MessagePort.
 */
export async function startServiceThread(service: ThreadableService, env: NodeJS.ProcessEnv, options: ServiceThreadOptions): Promise<RunningServiceThread> {
  const channel = options.bus ? new MessageChannel() : undefined;
  const hosted = channel && options.bus ? serveBusToThread(options.bus, channel.port1) : undefined;
  const workerData: ServiceWorkerData & { busPort?: unknown } = { service, logLevel: options.logLevel, ...(channel ? { busPort: channel.port2 } : {}) };
  const worker = new Worker(path.join(__dirname, 'service.worker.js'), { workerData, transferList: channel ? [channel.port2] : [], env: { ...env }, name: service });
  let stopping = false;
  const started = await nextReply<ServiceWorkerReply>(worker, service).catch(async (error: unknown) => {
    await hosted?.detach();
    throw error;
  });
  if (started.type !== 'started') {
    stopping = true;
    await worker.terminate();
    await hosted?.detach();
    throw new Error(started.type === 'failed' ? `${service}: ${started.message}` : `${service} did not start`);
  }
  worker.on('error', (error) => {
    if (!stopping) options.onUnexpectedExit(service, error.stack ?? error.message);
  });
  worker.on('exit', (code) => {
    if (!stopping) options.onUnexpectedExit(service, `its thread exited with code ${code}`);
  });
  let stopped: Promise<void> | undefined;
  return {
    grpcPort: started.grpcPort,
    osThreadId: started.osThreadId,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        const failure = await stopThread(worker, service);
        await hosted?.detach();
        if (failure) throw new Error(`${service}: ${failure}`);
      })();
      return stopped;
    },
  };
}
