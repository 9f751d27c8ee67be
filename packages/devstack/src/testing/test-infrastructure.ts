import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startBlob } from '../blob';
import { startMongo } from '../mongo';
import { startSearch } from '../search';
import { createTestMessagingNamespace } from './messaging-namespace';

export interface TestInfrastructure {
  /** Variables that point every backend service at this infrastructure, on free ports. */
  env: Record<string, string>;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The stand-ins a test of the services needs (MongoDB, search, blob; durable in a temp folder),
 * its own RabbitMQ namespace, and development-only secrets, all removed by `stop()`.
 */
export async function startTestInfrastructure(label: string): Promise<TestInfrastructure> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `destiny-${label}-`));
  const folder = (name: string) => {
    const dir = path.join(dataDir, name);
    fs.mkdirSync(dir);
    return dir;
  };
  const messaging = createTestMessagingNamespace(label);
  const mongo = await startMongo({ port: 0, dataDir: folder('mongo') });
  const search = await startSearch({ port: 0, dataDir: folder('search') });
  const blob = await startBlob({ port: 0, dataDir: folder('blob') });
  return {
    dataDir,
    env: {
      ...messaging.env,
      MONGODB_URL: mongo.url,
      ELASTICSEARCH_URL: search.url,
      BLOB_ENDPOINT: blob.url,
      BLOB_ACCESS_KEY: blob.accessKey,
      BLOB_SECRET_KEY: blob.secretKey,
      ROBOT_SECRET_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
      OUTBOUND_ALLOWLIST: '127.0.0.0/8,::1,localhost',
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: '0',
      HEALTH_PORT: '0',
      LOG_LEVEL: 'silent',
    },
    async stop() {
      await Promise.all([mongo.stop(), search.stop(), blob.stop()]);
      await messaging.remove();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
