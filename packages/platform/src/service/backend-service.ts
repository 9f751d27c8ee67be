import { TOPOLOGY } from '@destiny/contracts';
import type { Db } from 'mongodb';
import type { Logger } from 'pino';
import type { ConfigValues } from '../config/config';
import type { backendConfig } from '../config/common-config';
import { createGrpcServer, type GrpcServer } from '../grpc/grpc-server';
import { startHealthServer, type ReadinessCheck } from '../lifecycle/health-server';
import { createLogger } from '../logging/logger';
import { createAmqpConnection } from '../messaging/amqp.connection';
import { namespacedBus } from '../messaging/namespaced.bus';
import type { MessageBus, MessagingTopology } from '../messaging/message-bus';
import { connectMongo, type IndexDeclaration, type MongoConnection } from '../mongo/mongo-connection';

export type BackendConfig = ConfigValues<typeof backendConfig> & { MONGODB_DATABASE: string };

/** What a service's composition root receives to wire its use cases and entry points. */
export interface BackendContext {
  name: string;
  logger: Logger;
  db: Db;
  mongo: MongoConnection;
  grpc: GrpcServer;
  bus: MessageBus;
}

/** What a service adds on top of the chassis: its own readiness checks and what to stop first. */
export interface BackendParts {
  readiness?: ReadinessCheck[];
  /** Stops consumers and background loops; runs before connections close. */
  stop?(): Promise<void>;
}

export interface RunningBackendService {
  grpcPort: number;
  healthPort: number;
  context: BackendContext;
  stop(): Promise<void>;
}

/** What a launcher may replace when it runs services in one process. */
export interface BackendOverrides {
  logger?: Logger;
  createBus?(logger: Logger): Promise<MessageBus>;
}

export interface BackendServiceOptions {
  name: string;
  config: BackendConfig;
  logger?: Logger;
  indexes?: IndexDeclaration[];
  /** Defaults to the system's whole topology (declaring is idempotent, so every service may). */
  topology?: MessagingTopology;
  /** RabbitMQ at AMQP_URL unless given; the in-process bus only in the all-in-one embedded default. */
  createBus?(logger: Logger): Promise<MessageBus>;
  register(context: BackendContext): Promise<BackendParts | void>;
}

const READINESS_INTERVAL_MS = 2000;

/**
 * The chassis every backend service shares: MongoDB with its indexes, the message bus with its
 * topology, a gRPC server with standard health that follows readiness, an HTTP /livez and
 * /readyz, and a graceful stop that drains in the right order.
 */
export async function startBackendService(options: BackendServiceOptions): Promise<RunningBackendService> {
  const { config } = options;
  const logger = options.logger ?? createLogger({ service: options.name, level: config.LOG_LEVEL });
  const mongo = await connectMongo({ url: config.MONGODB_URL, database: config.MONGODB_DATABASE, indexes: options.indexes, appName: options.name });
  let bus: MessageBus | undefined;
  try {
    const connection = options.createBus ? await options.createBus(logger) : await createAmqpConnection({ url: config.AMQP_URL, logger, name: options.name });
    bus = namespacedBus(connection, config.AMQP_NAMESPACE);
    await bus.declareTopology(options.topology ?? TOPOLOGY);
  } catch (error) {
    await bus?.close();
    await mongo.close();
    throw error;
  }
  const grpc = createGrpcServer({ host: config.GRPC_HOST, port: config.GRPC_PORT, logger });
  const context: BackendContext = { name: options.name, logger, db: mongo.db, mongo, grpc, bus };
  const parts = (await options.register(context)) ?? {};
  const grpcPort = await grpc.start();
  const checks: ReadinessCheck[] = [
    { name: 'mongodb', check: () => mongo.ping() },
    { name: 'message_bus', check: async () => bus.isConnected() },
    ...(parts.readiness ?? []),
  ];
  const health = await startHealthServer({ port: config.HEALTH_PORT, checks });

  let accepting = true;
  const refreshReadiness = async () => {
    const results = await Promise.all(checks.map((entry) => entry.check().catch(() => false)));
    grpc.setServing(accepting && results.every(Boolean));
  };
  await refreshReadiness();
  const readinessTimer = setInterval(() => void refreshReadiness(), READINESS_INTERVAL_MS);
  readinessTimer.unref();
  logger.info({ grpc_port: grpcPort, health_port: health.port }, `${options.name} started`);

  let stopped: Promise<void> | undefined;
  return {
    grpcPort,
    healthPort: health.port,
    context,
    stop() {
      stopped ??= (async () => {
        accepting = false;
        clearInterval(readinessTimer);
        health.setAccepting(false);
        grpc.setServing(false);
        await parts.stop?.();
        await grpc.stop(config.SHUTDOWN_TIMEOUT_MS);
        await bus.close();
        await mongo.close();
        await health.stop();
      })();
      return stopped;
    },
  };
}
