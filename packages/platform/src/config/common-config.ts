import { defineConfig } from './config';

/** Variables every service reads. */
export const commonConfig = defineConfig({
  LOG_LEVEL: { kind: 'string', default: 'info', oneOf: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], description: 'pino log level' },
  OTEL_ENABLED: { kind: 'boolean', default: false, description: 'export traces over OTLP/HTTP (trace ids are always propagated and logged)' },
  OTEL_EXPORTER_OTLP_ENDPOINT: { kind: 'url', default: 'http://127.0.0.1:4318', description: 'OTLP/HTTP collector base URL' },
  HEALTH_PORT: { kind: 'integer', default: 0, min: 0, max: 65535, description: 'HTTP port for /livez and /readyz (0 picks a free port)' },
  SHUTDOWN_TIMEOUT_MS: { kind: 'integer', default: 10000, min: 100, description: 'how long in-flight work may take to finish on SIGTERM' },
});

/** Variables of services that own MongoDB collections and talk over RabbitMQ and gRPC. */
export const backendConfig = defineConfig({
  ...commonConfig,
  GRPC_PORT: { kind: 'integer', default: 0, min: 0, max: 65535, description: 'gRPC listen port (0 picks a free port)' },
  GRPC_HOST: { kind: 'string', default: '0.0.0.0', description: 'gRPC listen address' },
  MONGODB_URL: { kind: 'url', schemes: ['mongodb', 'mongodb+srv'], default: 'mongodb://127.0.0.1:27017/?directConnection=true', description: 'MongoDB connection string; options it names (e.g. `serverSelectionTimeoutMS`, default 10000; `maxPoolSize`, default 50) apply as given' },
  AMQP_URL: { kind: 'url', schemes: ['amqp', 'amqps'], default: 'amqp://guest:guest@127.0.0.1:5672', description: 'RabbitMQ connection URL' },
  AMQP_NAMESPACE: { kind: 'string', default: '', description: 'prefix for every exchange and queue name, so several deployments (or test runs) can share one broker' },
});

/** Variables of services that publish events through an outbox relay. */
export const outboxRelayConfig = defineConfig({
  OUTBOX_RELAY_LEASE_MS: {
    kind: 'integer',
    default: 10_000,
    min: 300,
    description: 'replicas of a service publish its outbox events one at a time, under a lease of this lifetime; another replica takes over this long after the holder crashes (at once after a clean stop)',
  },
});
