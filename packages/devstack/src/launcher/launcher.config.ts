import path from 'node:path';
import { ConfigError, defineConfig, loadConfig, type ConfigValues } from '@destiny/platform';
import { THREADABLE_SERVICES, type ThreadableService } from './service.thread';

/** Variables of `npm start` and `npm run start:cluster` (the services' own variables also apply). */
export const launcherConfig = defineConfig({
  DESTINY_DATA_DIR: { kind: 'string', default: '.destiny', description: 'folder holding all data of the embedded default' },
  DESTINY_HOST: { kind: 'string', default: '127.0.0.1', description: 'address the API and stand-ins listen on' },
  DESTINY_PORT: { kind: 'integer', default: 8080, min: 1, max: 65535, description: 'port of the API' },
  DESTINY_MONGO_PORT: { kind: 'integer', default: 27027, min: 1, max: 65535, description: 'port of the MongoDB stand-in' },
  DESTINY_SEARCH_PORT: { kind: 'integer', default: 9200, min: 1, max: 65535, description: 'port of the Elasticsearch stand-in' },
  DESTINY_BLOB_PORT: { kind: 'integer', default: 9000, min: 1, max: 65535, description: 'port of the S3 stand-in' },
  DESTINY_IDENTITY_PORT: { kind: 'integer', default: 8180, min: 1, max: 65535, description: 'port of the OpenID Connect stand-in' },
  AMQP_URL: { kind: 'url', schemes: ['amqp', 'amqps'], default: 'amqp://guest:guest@127.0.0.1:5672', description: 'RabbitMQ to use when reachable' },
  DESTINY_SERVICE_THREADS: {
    kind: 'string',
    default: 'dedup-service,import-service,robot-broker',
    description: "backend services that run on a worker thread of their own, comma-separated ('none': all on the main thread)",
  },
  OUTBOUND_ALLOWLIST: {
    kind: 'string',
    default: '127.0.0.0/8,::1,localhost',
    description: 'hosts or CIDRs the services may fetch from and call although private (batch files and callbacks on this machine); set it to narrow that',
  },
  LOG_LEVEL: { kind: 'string', default: 'warn', oneOf: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], description: 'log level of the services in the embedded default' },
});

export type LauncherConfig = ConfigValues<typeof launcherConfig> & { dataDir: string; serviceThreads: ThreadableService[] };

function serviceThreads(value: string): ThreadableService[] {
  const names = value.trim() === 'none' ? [] : value.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(THREADABLE_SERVICES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new ConfigError([`DESTINY_SERVICE_THREADS: ${unknown.join(', ')} is not one of ${THREADABLE_SERVICES.join(', ')} (or 'none')`]);
  return [...new Set(names)] as ThreadableService[];
}

export function loadLauncherConfig(env: NodeJS.ProcessEnv = process.env): LauncherConfig {
  const config = loadConfig(launcherConfig, env);
  // Set empty, it allows nothing (every target must be public and https), not the loopback default.
  const outboundAllowlist = env.OUTBOUND_ALLOWLIST === undefined ? config.OUTBOUND_ALLOWLIST : env.OUTBOUND_ALLOWLIST.trim();
  return { ...config, OUTBOUND_ALLOWLIST: outboundAllowlist, dataDir: path.resolve(config.DESTINY_DATA_DIR), serviceThreads: serviceThreads(config.DESTINY_SERVICE_THREADS) };
}

/** Every port the launcher listens on, with the variable that moves it (checked before starting). */
export function launcherPorts(config: LauncherConfig): Array<{ port: number; variable: string }> {
  return [
    { port: config.DESTINY_PORT, variable: 'DESTINY_PORT' },
    { port: config.DESTINY_MONGO_PORT, variable: 'DESTINY_MONGO_PORT' },
    { port: config.DESTINY_SEARCH_PORT, variable: 'DESTINY_SEARCH_PORT' },
    { port: config.DESTINY_BLOB_PORT, variable: 'DESTINY_BLOB_PORT' },
    { port: config.DESTINY_IDENTITY_PORT, variable: 'DESTINY_IDENTITY_PORT' },
  ];
}
