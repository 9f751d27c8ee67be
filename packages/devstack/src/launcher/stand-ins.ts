import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startBlob } from '../blob';
import { startIdentity } from '../identity';
import type { RunningStandIn } from '../stand-in';
import type { LauncherConfig } from './launcher.config';
import { startStandInThread } from './stand-in.thread';

export interface RunningStandIns {
  /** Service variables that point the services at the stand-ins. */
  serviceEnvironment: Record<string, string>;
  summary: { mongo: string; search: string; blob: string; identity: string; blobAccessKey: string; blobSecretKey: string };
  stop(): Promise<void>;
}

/** A development-only key, generated once per data folder and kept there. */
function developmentSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, 'development-secrets.json');
  const secrets = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>) : {};
  if (!secrets[name]) {
    secrets[name] = crypto.randomBytes(32).toString('hex');
    fs.writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  }
  return secrets[name];
}

/** Starts the four stand-ins under the data folder and describes how services reach them. */
export async function startStandIns(config: LauncherConfig): Promise<RunningStandIns> {
  const host = config.DESTINY_HOST;
  const folder = (name: string) => {
    const dir = path.join(config.dataDir, name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  };
  const started: RunningStandIn[] = [];
  try {
    // MongoDB and search stand-ins each get a thread: storage work then runs beside the services.
    const mongo = await startStandInThread('mongo', { port: config.DESTINY_MONGO_PORT, host, dataDir: folder('mongo') });
    started.push(mongo);
    const search = await startStandInThread('search', { port: config.DESTINY_SEARCH_PORT, host, dataDir: folder('search') });
    started.push(search);
    const blob = await startBlob({ port: config.DESTINY_BLOB_PORT, host, dataDir: folder('blob') });
    started.push(blob);
    const identity = await startIdentity({ port: config.DESTINY_IDENTITY_PORT, host, dataDir: folder('identity') });
    started.push(identity);
    // `npm run token` finds the identity server through this file.
    fs.writeFileSync(path.join(config.dataDir, 'identity.json'), `${JSON.stringify({ url: identity.url }, null, 2)}\n`);
    return {
      serviceEnvironment: {
        MONGODB_URL: mongo.url,
        ELASTICSEARCH_URL: search.url,
        BLOB_ENDPOINT: blob.url,
        BLOB_PUBLIC_ENDPOINT: blob.url,
        BLOB_ACCESS_KEY: blob.accessKey,
        BLOB_SECRET_KEY: blob.secretKey,
        BLOB_BUCKET: 'destiny',
        AUTH_ISSUER: identity.issuer,
        AUTH_JWKS_URL: identity.jwksUrl,
        AUTH_AUDIENCE: identity.audience,
        ROBOT_SECRET_ENCRYPTION_KEY: developmentSecret(config.dataDir, 'robot_secret_encryption_key'),
        // Only the embedded default lets services reach loopback by default: batch files and callbacks on this machine.
        OUTBOUND_ALLOWLIST: config.OUTBOUND_ALLOWLIST,
      },
      summary: { mongo: mongo.url, search: search.url, blob: blob.url, identity: identity.url, blobAccessKey: blob.accessKey, blobSecretKey: blob.secretKey },
      async stop() {
        for (const standIn of started.reverse()) await standIn.stop();
      },
    };
  } catch (error) {
    for (const standIn of started.reverse()) await standIn.stop().catch(() => undefined);
    throw error;
  }
}
