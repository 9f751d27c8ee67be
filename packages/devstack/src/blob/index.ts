// The blob stand-in: an S3-compatible server (path-style, SigV4 required) over a folder.
import fsp from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { RunningStandIn, StandInOptions } from '../stand-in';
import { ObjectStore } from './object.store';
import { createS3Server } from './s3.server';

export const DEVELOPMENT_BLOB_ACCESS_KEY = 'destiny-dev';
export const DEVELOPMENT_BLOB_SECRET_KEY = 'destiny-dev-secret-change-me';
export const DEVELOPMENT_BLOB_REGION = 'us-east-1';

export interface BlobOptions extends StandInOptions {
  accessKey?: string;
  secretKey?: string;
  region?: string;
}

export interface RunningBlob extends RunningStandIn {
  readonly accessKey: string;
  readonly secretKey: string;
  readonly region: string;
}

/**
 * Starts the S3-compatible blob store. With dataDir, buckets and objects persist there; without, they
 * live in a temp folder removed on stop.
 */
export async function startBlob(options: BlobOptions): Promise<RunningBlob> {
  const accessKey = options.accessKey ?? DEVELOPMENT_BLOB_ACCESS_KEY;
  const secretKey = options.secretKey ?? DEVELOPMENT_BLOB_SECRET_KEY;
  const region = options.region ?? DEVELOPMENT_BLOB_REGION;
  const host = options.host ?? '127.0.0.1';
  const temporaryRoot = options.dataDir === undefined ? await fsp.mkdtemp(path.join(os.tmpdir(), 'destiny-blob-')) : undefined;
  const root = options.dataDir ?? (temporaryRoot as string);
  const logger = pino({ name: 'devstack-blob', level: process.env.LOG_LEVEL ?? 'info' });
  const store = await ObjectStore.open(root);
  const server = createS3Server({ store, region, credentials: new Map([[accessKey, secretKey]]), logger });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let stopped: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    accessKey,
    secretKey,
    region,
    stop: () => {
      stopped ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (temporaryRoot !== undefined) await fsp.rm(temporaryRoot, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}
