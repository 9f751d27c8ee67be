import { backendConfig, defineConfig } from '@destiny/platform';

export const percolatorConfig = defineConfig({
  ...backendConfig,
  GRPC_PORT: { ...backendConfig.GRPC_PORT, default: 50055 },
  HEALTH_PORT: { ...backendConfig.HEALTH_PORT, default: 9465 },
  MONGODB_DATABASE: { kind: 'string', default: 'destiny_percolator', description: 'database holding this service\'s collections' },
  ELASTICSEARCH_URL: { kind: 'url', default: 'http://127.0.0.1:9200', description: 'Elasticsearch holding the `robot-automation-percolation` percolator index' },
  ROBOT_BROKER_GRPC_URL: { kind: 'string', default: '127.0.0.1:50053', description: 'robot-broker gRPC address' },
  PERCOLATION_ENABLED: { kind: 'boolean', default: true, description: 'the `enable_percolation` feature flag: when false, reference changes are consumed without matching any automation' },
  PERCOLATION_BATCH_SIZE: { kind: 'integer', default: 500, min: 1, max: 10000, description: 'reference.changed events percolated together in one `_search`' },
  PERCOLATION_BATCH_WAIT_MS: { kind: 'integer', default: 50, min: 0, max: 10000, description: 'how long the percolator waits for more events before percolating a batch' },
});
