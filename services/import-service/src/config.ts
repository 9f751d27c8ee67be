import { backendConfig, defineConfig, enhancementContentConfig, fullTextBlobConfig, outboxRelayConfig } from '@destiny/platform';

export const importServiceConfig = defineConfig({
  ...backendConfig,
  ...outboxRelayConfig,
  GRPC_PORT: { ...backendConfig.GRPC_PORT, default: 50051 },
  HEALTH_PORT: { ...backendConfig.HEALTH_PORT, default: 9461 },
  MONGODB_DATABASE: { kind: 'string', default: 'destiny_import', description: 'database holding this service\'s collections' },
  DEDUP_SERVICE_GRPC_URL: { kind: 'string', default: '127.0.0.1:50052', description: 'dedup-service gRPC address' },
  OUTBOUND_ALLOWLIST: { kind: 'list', default: [], description: 'hosts or CIDRs outbound calls may reach although private (and over plain http)' },
  IMPORT_ALLOWED_DOMAINS: { kind: 'list', default: [], description: 'storage_url host must equal or be a subdomain of one of these (empty: no restriction)' },
  IMPORT_MAX_FILE_BYTES: { kind: 'integer', default: 2 * 1024 * 1024 * 1024, min: 1, description: 'largest batch file accepted' },
  IMPORT_MAX_LINE_BYTES: { kind: 'integer', default: 10 * 1024 * 1024, min: 1, description: 'longest batch file line accepted' },
  IMPORT_RECORDS_PAGE_BYTES: {
    kind: 'integer',
    default: 32 * 1024 * 1024,
    min: 1,
    description: 'largest page of the import record list sent to the gateway in one gRPC reply (it reads the next page after it)',
  },
  IMPORT_RESULTS_PAGE_BYTES: {
    kind: 'integer',
    default: 32 * 1024 * 1024,
    min: 1,
    description: 'largest page of a batch\'s result list, or of its summary\'s failure details, sent to the gateway in one gRPC reply (it reads the next page after it)',
  },
  IMPORT_BATCHES_AT_ONCE: {
    kind: 'integer',
    default: 4,
    min: 1,
    max: 64,
    description: 'batch files one process reads at a time (a storage host slow to answer holds one of them for up to its download attempts)',
  },
  IMPORT_CHUNK_SIZE: { kind: 'integer', default: 500, min: 1, max: 5000, description: 'lines ingested per dedup-service call' },
  ...enhancementContentConfig,
  ...fullTextBlobConfig,
  IMPORT_RETRY_BASE_MS: { kind: 'integer', default: 1000, min: 0, description: 'first back-off of download and callback retries (doubles, capped at 30 s)' },
  IMPORT_CALLBACK_TIMEOUT_MS: {
    kind: 'integer',
    default: 30_000,
    min: 100,
    description: 'longest one batch callback POST may take; a process that dies between its POSTs leaves the rest to another after about twice this',
  },
});
