import { startApiGateway, type RunningApiGateway } from '@destiny/api-gateway';
import { startDedupService } from '@destiny/dedup-service';
import { startImportService } from '@destiny/import-service';
import { startPercolator } from '@destiny/percolator';
import { createInProcessBus, createLogger, type BackendOverrides, type MessageBus, type RunningBackendService } from '@destiny/platform';
import { startRobotBroker } from '@destiny/robot-broker';
import { startSearchRequestService } from '@destiny/search-request-service';
import type { LauncherConfig } from './launcher.config';
import { startServiceThread, type ThreadableService } from './service.thread';
import { startStandIns } from './stand-ins';

export interface RunningEmbeddedSystem {
  apiUrl: string;
  bus: 'rabbitmq' | 'in-process';
  /** The backend services running on worker threads of their own. */
  serviceThreads: string[];
  summary: Awaited<ReturnType<typeof startStandIns>>['summary'];
  stop(): Promise<void>;
}

type BackendStarter = (env: NodeJS.ProcessEnv, overrides: BackendOverrides) => Promise<Pick<RunningBackendService, 'grpcPort' | 'stop'>>;

export interface EmbeddedSystemOptions {
  /** A service on a worker thread ended without being asked to; the launcher decides what follows. */
  onServiceFailure(service: string, reason: string): void;
}

/** In start order: each service's gRPC dependencies come before it. */
const backendStarters: Array<[name: ThreadableService, variable: string, start: BackendStarter]> = [
  ['dedup-service', 'DEDUP_SERVICE_GRPC_URL', startDedupService],
  ['import-service', 'IMPORT_SERVICE_GRPC_URL', startImportService],
  ['robot-broker', 'ROBOT_BROKER_GRPC_URL', startRobotBroker],
  ['search-request-service', 'SEARCH_REQUEST_SERVICE_GRPC_URL', startSearchRequestService],
  ['percolator', 'PERCOLATOR_GRPC_URL', startPercolator],
];

/** The shared in-process bus outlives each service: closing is the launcher's job. */
function sharedBus(bus: MessageBus): MessageBus {
  return new Proxy(bus, { get: (target, property) => (property === 'close' ? async () => undefined : Reflect.get(target, property, target)) });
}

/**
 * The whole system in one process: the stand-ins, then the five backend services, then the
 * gateway. RabbitMQ is used when reachable; otherwise one in-process bus with the same contract.
 * The services named in `config.serviceThreads` run on worker threads of their own, the others
 * on the main thread with the gateway, so a busy import or robot round does not hold up the API.
 */
export async function startEmbeddedSystem(config: LauncherConfig, useRabbitMq: boolean, options: EmbeddedSystemOptions): Promise<RunningEmbeddedSystem> {
  const standIns = await startStandIns(config);
  const inProcessBus = useRabbitMq ? undefined : createInProcessBus();
  const overrides: BackendOverrides = inProcessBus ? { createBus: async () => sharedBus(inProcessBus) } : {};
  const baseEnvironment: NodeJS.ProcessEnv = {
    ...process.env,
    ...standIns.serviceEnvironment,
    AMQP_URL: config.AMQP_URL,
    LOG_LEVEL: config.LOG_LEVEL,
    GRPC_HOST: '127.0.0.1',
    GRPC_PORT: '0',
    HEALTH_PORT: '0',
  };
  const services: Array<Pick<RunningBackendService, 'grpcPort' | 'stop'>> = [];
  let gateway: RunningApiGateway | undefined;
  const stopAll = async () => {
    await gateway?.stop();
    for (const service of services.reverse()) await service.stop();
    await inProcessBus?.close();
    await standIns.stop();
  };
  try {
    // Each service calls only services started before it (import-service → dedup-service,
    // percolator → robot-broker…), so each listens on a port of its own choosing (0) and the
    // next ones learn its address: no port is picked early and lost to another process meanwhile.
    for (const [name, variable, start] of backendStarters) {
      const service = config.serviceThreads.includes(name)
        ? await startServiceThread(name, { ...baseEnvironment }, { bus: inProcessBus, logLevel: config.LOG_LEVEL, onUnexpectedExit: options.onServiceFailure })
        : await start({ ...baseEnvironment }, { ...overrides, logger: createLogger({ service: name, level: config.LOG_LEVEL }) });
      services.push(service);
      baseEnvironment[variable] = `127.0.0.1:${service.grpcPort}`;
    }
    gateway = await startApiGateway({ ...baseEnvironment, PORT: String(config.DESTINY_PORT), HOST: config.DESTINY_HOST });
  } catch (error) {
    await stopAll().catch(() => undefined);
    throw error;
  }
  const host = config.DESTINY_HOST === '0.0.0.0' ? '127.0.0.1' : config.DESTINY_HOST;
  return { apiUrl: `http://${host}:${gateway.port}`, bus: useRabbitMq ? 'rabbitmq' : 'in-process', serviceThreads: [...config.serviceThreads], summary: standIns.summary, stop: stopAll };
}
