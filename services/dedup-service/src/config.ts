import { backendConfig, outboxRelayConfig, defineConfig } from '@destiny/platform';

export const dedupServiceConfig = defineConfig({
  ...backendConfig,
  ...outboxRelayConfig,
  GRPC_PORT: { ...backendConfig.GRPC_PORT, default: 50052 },
  HEALTH_PORT: { ...backendConfig.HEALTH_PORT, default: 9462 },
  MONGODB_DATABASE: { kind: 'string', default: 'destiny_dedup', description: 'database holding this service\'s collections' },
  DEDUP_TRUSTED_IDENTIFIER_TYPES: {
    kind: 'list',
    default: ['doi', 'pm_id', 'open_alex'],
    description: 'identifier types of the trusted-identifier deduplication shortcut (empty turns it off)',
  },
  DEDUP_CANONICAL_CANDIDATE_SEARCH: {
    kind: 'boolean',
    default: true,
    description: 'the `enable_canonical_candidate_search` feature flag: when false, a reference the trusted-identifier shortcut does not decide is `unsearchable`',
  },
  DEDUP_PENDING_REQUEUE_MS: {
    kind: 'integer',
    default: 120_000,
    min: 1000,
    description: 'a duplicate decision still pending after this long is queued for deduplication again',
  },
  DEDUP_REPLY_PAGE_BYTES: {
    kind: 'integer',
    default: 32 * 1024 * 1024,
    min: 1,
    description: 'largest page of identifier-lookup results or reference-file lines sent in one gRPC reply (the caller asks for the rest by id after it), and of views in one message of the view stream',
  },
  DEDUP_RELAY_MAX_READ_WAIT_MS: {
    kind: 'integer',
    default: 1000,
    min: 0,
    description: 'longest a page of the event relay waits for reference-file reads in flight (robot polls) to finish; those reads go first',
  },
  DEDUP_WRITER_LEASE_MS: {
    kind: 'integer',
    default: 15_000,
    min: 300,
    description: 'lifetime of the MongoDB writer lease that lets one replica at a time decide and write (renewed while held; a crashed holder blocks the others this long)',
  },
});
