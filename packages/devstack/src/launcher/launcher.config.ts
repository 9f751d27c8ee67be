import path from 'node:path';
import { defineConfig, loadConfig, type ConfigValues } from '@destiny/platform';

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
  LOG_LEVEL: { kind: 'string', default: 'warn', oneOf: ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], description: 'log level of the services in the embedded default' },
});

export type LauncherConfig = ConfigValues<typeof launcherConfig> & { dataDir: string };

export function loadLauncherConfig(env: NodeJS.ProcessEnv = process.env): LauncherConfig {
  const config = loadConfig(launcherConfig, env);
  return { ...config, dataDir: path.resolve(config.DESTINY_DATA_DIR) };
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
