import { defineConfig } from '../config/config';

/** Limits of the fetches behind full-text and linked-data enhancements (import-service, robot-broker). */
export const enhancementContentConfig = defineConfig({
  FULL_TEXT_MAX_BYTES: { kind: 'integer', default: 1024 * 1024 * 1024, min: 1, description: 'largest full text downloaded from a full-text enhancement\'s file_url' },
  FULL_TEXT_TIMEOUT_MS: { kind: 'integer', default: 60_000, min: 100, description: 'a full-text download fails when the server sends nothing for this long' },
  LINKED_DATA_MAX_DOCUMENT_BYTES: { kind: 'integer', default: 10 * 1024 * 1024, min: 1024, description: 'largest JSON-LD context or vocabulary fetched to validate a linked-data enhancement' },
  LINKED_DATA_TIMEOUT_MS: { kind: 'integer', default: 10_000, min: 100, description: 'time limit of each context or vocabulary fetch' },
  LINKED_DATA_CACHE_TTL_MS: { kind: 'integer', default: 3_600_000, min: 0, description: 'how long a fetched context or vocabulary is reused (a failed fetch: at most 30 s)' },
});

/**
 * The blob store holding stored full texts, for services that do not otherwise need one
 * (import-service stores, api-gateway signs). Empty BLOB_ENDPOINT turns full texts off there.
 */
export const fullTextBlobConfig = defineConfig({
  BLOB_ENDPOINT: { kind: 'string', default: '', description: 'S3-compatible blob storage holding stored full texts; empty: full texts cannot be stored (import) or are left out of responses (gateway)' },
  BLOB_PUBLIC_ENDPOINT: { kind: 'string', default: '', description: 'blob endpoint API clients reach (full-text download URLs are signed for it); BLOB_ENDPOINT when empty' },
  BLOB_ACCESS_KEY: { kind: 'string', default: '', description: 'blob storage access key' },
  BLOB_SECRET_KEY: { kind: 'string', default: '', secret: true, description: 'blob storage secret key' },
  BLOB_BUCKET: { kind: 'string', default: 'destiny', description: 'bucket holding stored full texts (the robot-broker\'s bucket)' },
});

export interface FullTextBlobValues {
  BLOB_ENDPOINT: string;
  BLOB_PUBLIC_ENDPOINT: string;
  BLOB_ACCESS_KEY: string;
  BLOB_SECRET_KEY: string;
  BLOB_BUCKET: string;
}
