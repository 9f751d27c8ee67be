import { backendConfig, defineConfig } from '@destiny/platform';

export const searchRequestServiceConfig = defineConfig({
  ...backendConfig,
  GRPC_PORT: { ...backendConfig.GRPC_PORT, default: 50054 },
  HEALTH_PORT: { ...backendConfig.HEALTH_PORT, default: 9464 },
  MONGODB_DATABASE: { kind: 'string', default: 'destiny_search_request', description: 'database holding this service\'s collections' },
  ELASTICSEARCH_URL: { kind: 'url', default: 'http://127.0.0.1:9200', description: 'Elasticsearch holding the `reference` search index' },
  DEDUP_SERVICE_GRPC_URL: { kind: 'string', default: '127.0.0.1:50052', description: 'dedup-service gRPC address' },
  INDEXING_BATCH_SIZE: { kind: 'integer', default: 1000, min: 1, max: 10000, description: 'reference.changed events collected into one `_bulk` request' },
  ROBOT_BROKER_GRPC_URL: { kind: 'string', default: '127.0.0.1:50053', description: 'robot-broker gRPC address (robot existence, pending enhancements, request status counts)' },
  SEARCH_SCAN_PAGE_SIZE: { kind: 'integer', default: 10000, min: 1, max: 10000, description: 'matches per page of a search-request scan (one CreatePendingEnhancements call each)' },
  SEARCH_SCAN_RETRY_DELAY_MS: { kind: 'integer', default: 5000, min: 0, max: 600000, description: 'delay before a scan interrupted by a shutdown is taken up again' },
  INDEXING_BATCH_WAIT_MS: { kind: 'integer', default: 100, min: 0, max: 10000, description: 'how long the indexer waits for more events before sending a `_bulk` request' },
});
