import { createBlobStorage, type BlobStorage } from '../blob/blob-storage';
import type { ConfigValues } from '../config/config';
import type { OutboundHttpClient } from '../outbound-http/outbound-http';
import type { enhancementContentConfig, FullTextBlobValues } from './enhancement-content.config';
import { createEnhancementContentPreparer, type EnhancementContentPreparer } from './enhancement-content.preparer';
import { createFullTextStore } from './full-text.store';
import { createLinkedDataValidator } from './linked-data.validator';

/** The blob store of fullTextBlobConfig, or null when BLOB_ENDPOINT is empty. */
export function fullTextBlobStorage(config: FullTextBlobValues): BlobStorage | null {
  if (!config.BLOB_ENDPOINT) return null;
  return createBlobStorage({
    endpoint: config.BLOB_ENDPOINT,
    publicEndpoint: config.BLOB_PUBLIC_ENDPOINT || undefined,
    accessKey: config.BLOB_ACCESS_KEY,
    secretKey: config.BLOB_SECRET_KEY,
    bucket: config.BLOB_BUCKET,
  });
}

/** A service's preparer from its enhancementContentConfig values, its guarded client and its blob store. */
export function enhancementContentPreparerFor(
  config: ConfigValues<typeof enhancementContentConfig>,
  outbound: OutboundHttpClient,
  blob: BlobStorage | null,
): EnhancementContentPreparer {
  return createEnhancementContentPreparer({
    fullTexts: createFullTextStore({ outbound, blob, maxBytes: config.FULL_TEXT_MAX_BYTES, timeoutMs: config.FULL_TEXT_TIMEOUT_MS }),
    linkedData: createLinkedDataValidator({
      outbound,
      maxDocumentBytes: config.LINKED_DATA_MAX_DOCUMENT_BYTES,
      timeoutMs: config.LINKED_DATA_TIMEOUT_MS,
      cacheTtlMs: config.LINKED_DATA_CACHE_TTL_MS,
    }),
  });
}
