import type { Readable } from 'node:stream';
import * as Minio from 'minio';

export interface BlobStorageOptions {
  /** Where this service reaches the store, e.g. http://minio:9000. */
  endpoint: string;
  /** Where callers outside reach it (signed URLs are made for this host); defaults to `endpoint`. */
  publicEndpoint?: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region?: string;
}

export interface BlobStorage {
  ensureBucket(): Promise<void>;
  /** `size` (exact, or an upper bound for a stream) keeps the client's upload parts small. */
  put(key: string, body: Buffer | Readable, contentType?: string, size?: number): Promise<void>;
  get(key: string): Promise<Readable>;
  exists(key: string): Promise<boolean>;
  remove(key: string): Promise<void>;
  /** Server-side copy within the bucket (no bytes through this process). */
  copy(sourceKey: string, targetKey: string): Promise<void>;
  /** `contentType` is what the download is served as (S3 `response-content-type`). */
  signedGetUrl(key: string, expirySeconds: number, contentType?: string): Promise<string>;
  signedPutUrl(key: string, expirySeconds: number): Promise<string>;
  ping(): Promise<boolean>;
}

function clientFor(url: string, options: BlobStorageOptions): Minio.Client {
  const parsed = new URL(url);
  const useSSL = parsed.protocol === 'https:';
  return new Minio.Client({
    endPoint: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region: options.region ?? 'us-east-1',
    pathStyle: true,
  });
}

/** S3-compatible storage through the minio client; signed URLs use the public endpoint. */
export function createBlobStorage(options: BlobStorageOptions): BlobStorage {
  const client = clientFor(options.endpoint, options);
  const signer = options.publicEndpoint && options.publicEndpoint !== options.endpoint ? clientFor(options.publicEndpoint, options) : client;
  const { bucket } = options;
  return {
    async ensureBucket() {
      if (!(await client.bucketExists(bucket))) {
        try {
          await client.makeBucket(bucket, options.region ?? 'us-east-1');
        } catch (error) {
          // Another replica may have created it between the check and the call.
          if (!(await client.bucketExists(bucket))) throw error;
        }
      }
    },
    async put(key, body, contentType = 'application/octet-stream', size) {
      await client.putObject(bucket, key, body, size, { 'Content-Type': contentType });
    },
    get: (key) => client.getObject(bucket, key),
    async exists(key) {
      try {
        await client.statObject(bucket, key);
        return true;
      } catch (error) {
        if ((error as { code?: string }).code === 'NotFound' || (error as { code?: string }).code === 'NoSuchKey') return false;
        throw error;
      }
    },
    remove: (key) => client.removeObject(bucket, key),
    async copy(sourceKey, targetKey) {
      await client.copyObject(bucket, targetKey, `/${bucket}/${sourceKey}`);
    },
    signedGetUrl: (key, expirySeconds, contentType) => signer.presignedGetObject(bucket, key, expirySeconds, contentType ? { 'response-content-type': contentType } : undefined),
    signedPutUrl: (key, expirySeconds) => signer.presignedPutObject(bucket, key, expirySeconds),
    async ping() {
      try {
        await client.bucketExists(bucket);
        return true;
      } catch {
        return false;
      }
    },
  };
}
