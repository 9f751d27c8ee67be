import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { BlobStorage } from '../blob/blob-storage';
import { OutboundRequestError, type OutboundHttpClient } from '../outbound-http/outbound-http';
import { EnhancementContentRejected } from './enhancement-content.errors';
import { storedFullTextKey, storedFullTextUrl } from './full-text.location';

// Full-text ingestion (§6.6): download `file_url` through the SSRF guard (no redirects, size
// limit), hash and count the bytes while they stream into blob storage, check the declared size
// and checksum, and keep the copy under its SHA-256. The stored content's `file_url` then names
// that copy; outputs replace it with a signed download URL (full-text.links.ts).

export interface FullTextContent {
  enhancement_type: 'full_text';
  file_url: string;
  byte_size?: number | null;
  sha256_checksum?: string | null;
  mime_type?: string;
  [key: string]: unknown;
}

export interface FullTextStore {
  /** The content to store, pointing at the verified copy; EnhancementContentRejected when it cannot be. */
  store(content: FullTextContent): Promise<FullTextContent>;
}

export interface FullTextStoreOptions {
  outbound: OutboundHttpClient;
  /** null: this deployment has no blob storage, so every full text is rejected. */
  blob: BlobStorage | null;
  maxBytes: number;
  timeoutMs: number;
}

const DEFAULT_MIME_TYPE = 'application/pdf';

function downloadFailure(url: string, error: unknown, maxBytes: number): EnhancementContentRejected {
  if (error instanceof OutboundRequestError && error.reason === 'too_large') return new EnhancementContentRejected(`Full text at ${url} is larger than the limit of ${maxBytes} bytes.`);
  const detail = error instanceof Error ? error.message : String(error);
  return new EnhancementContentRejected(`Full text could not be downloaded from ${url}: ${detail}.`);
}

export function createFullTextStore(options: FullTextStoreOptions): FullTextStore {
  const { blob, maxBytes } = options;
  // The bucket is usually made by robot-broker or the deployment; a fresh store makes it once here too.
  let bucketReady: Promise<void> | undefined;
  const ensureBucket = () => {
    bucketReady ??= blob!.ensureBucket().catch((error: unknown) => {
      bucketReady = undefined;
      throw error;
    });
    return bucketReady;
  };

  async function keep(incomingKey: string, sha256: string): Promise<void> {
    const key = storedFullTextKey(sha256);
    // Content-addressed: the same bytes arriving again (another reference, a replayed import) are kept once.
    if (!(await blob!.exists(key))) await blob!.copy(incomingKey, key);
  }

  return {
    async store(content) {
      if (!blob) throw new EnhancementContentRejected('Full texts cannot be stored: this deployment has no blob storage configured.');
      const url = content.file_url;
      const declaredSize = content.byte_size ?? null;
      const declaredChecksum = content.sha256_checksum ? content.sha256_checksum.trim().toLowerCase() : null;
      if (declaredChecksum !== null && !/^[0-9a-f]{64}$/.test(declaredChecksum)) {
        throw new EnhancementContentRejected(`Full text sha256_checksum must be 64 hexadecimal digits, got ${JSON.stringify(content.sha256_checksum)}.`);
      }
      if (declaredSize !== null && declaredSize > maxBytes) throw new EnhancementContentRejected(`Full text at ${url} declares ${declaredSize} bytes, more than the limit of ${maxBytes} bytes.`);
      const mimeType = content.mime_type ?? DEFAULT_MIME_TYPE;

      let response;
      try {
        response = await options.outbound.stream({ url, maxBytes, timeoutMs: options.timeoutMs, headers: { accept: `${mimeType}, */*;q=0.1` } });
      } catch (error) {
        throw downloadFailure(url, error, maxBytes);
      }
      if (response.status < 200 || response.status >= 300) {
        response.body.destroy();
        throw new EnhancementContentRejected(`Full text could not be downloaded from ${url}: the server answered HTTP ${response.status}.`);
      }
      const announced = Number(response.headers['content-length']);
      if (declaredSize !== null && Number.isFinite(announced) && announced !== declaredSize) {
        response.body.destroy();
        throw new EnhancementContentRejected(`Full text at ${url} has ${announced} bytes, but byte_size declares ${declaredSize}.`);
      }

      try {
        await ensureBucket();
      } catch (error) {
        response.body.destroy();
        throw error;
      }
      const hash = createHash('sha256');
      let size = 0;
      const upload = new PassThrough();
      const incomingKey = `full-texts/incoming/${randomUUID()}`;
      // The announced length (or the limit) as a size hint keeps the client's upload parts small.
      const uploading = blob.put(incomingKey, upload, mimeType, Number.isFinite(announced) ? announced : maxBytes);
      let storageFailure: Error | null = null;
      uploading.catch((error: Error) => {
        storageFailure = error;
        upload.destroy(error);
      });
      let downloadFailed: unknown = null;
      try {
        try {
          for await (const chunk of response.body as AsyncIterable<Buffer>) {
            hash.update(chunk);
            size += chunk.length;
            if (!upload.write(chunk)) await once(upload, 'drain');
          }
        } catch (error) {
          if (!storageFailure) downloadFailed = error;
          throw error;
        }
        upload.end();
        await uploading;
      } catch (error) {
        response.body.destroy();
        // Ending (not destroying) the upload lets the client finish, so the partial object can be removed instead of left hanging.
        upload.end();
        await uploading.catch(() => undefined);
        await blob.remove(incomingKey).catch(() => undefined);
        if (downloadFailed !== null) throw downloadFailure(url, downloadFailed, maxBytes);
        if (size === 0) throw new EnhancementContentRejected(`Full text at ${url} is empty.`);
        // Blob storage failed: not the enhancement's fault, so the caller retries rather than rejecting it.
        throw error;
      }
      try {
        const sha256 = hash.digest('hex');
        if (size === 0) throw new EnhancementContentRejected(`Full text at ${url} is empty.`);
        if (declaredSize !== null && size !== declaredSize) throw new EnhancementContentRejected(`Full text at ${url} has ${size} bytes, but byte_size declares ${declaredSize}.`);
        if (declaredChecksum !== null && sha256 !== declaredChecksum) {
          throw new EnhancementContentRejected(`Full text at ${url} has SHA-256 checksum ${sha256}, but sha256_checksum declares ${declaredChecksum}.`);
        }
        await keep(incomingKey, sha256);
        return { ...content, file_url: storedFullTextUrl(sha256), byte_size: size, sha256_checksum: sha256, mime_type: mimeType };
      } finally {
        await blob.remove(incomingKey).catch(() => undefined);
      }
    },
  };
}
