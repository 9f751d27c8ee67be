import { backendConfig, defineConfig, enhancementContentConfig } from '@destiny/platform';

export const robotBrokerConfig = defineConfig({
  ...backendConfig,
  GRPC_PORT: { ...backendConfig.GRPC_PORT, default: 50053 },
  HEALTH_PORT: { ...backendConfig.HEALTH_PORT, default: 9463 },
  MONGODB_DATABASE: { kind: 'string', default: 'destiny_robot_broker', description: 'database holding this service\'s collections' },
  DEDUP_SERVICE_GRPC_URL: { kind: 'string', default: '127.0.0.1:50052', description: 'dedup-service gRPC address' },
  ROBOT_SECRET_ENCRYPTION_KEY: { kind: 'string', secret: true, description: 'AES-256-GCM key (64 hex characters) encrypting robot client secrets at rest' },
  BLOB_ENDPOINT: { kind: 'url', description: 'S3-compatible blob storage endpoint as this service reaches it' },
  BLOB_PUBLIC_ENDPOINT: { kind: 'string', default: '', description: 'blob endpoint robots reach (signed URLs are made for it); BLOB_ENDPOINT when empty' },
  BLOB_ACCESS_KEY: { kind: 'string', description: 'blob storage access key' },
  BLOB_SECRET_KEY: { kind: 'string', secret: true, description: 'blob storage secret key' },
  BLOB_BUCKET: { kind: 'string', default: 'destiny', description: 'bucket holding robot reference, result and validation files' },
  ROBOT_LEASE_SWEEP_MS: { kind: 'integer', default: 2000, min: 50, description: 'interval of the sweep that expires passed robot batch leases' },
  ROBOT_INDEXING_DEADLINE_SECONDS: { kind: 'integer', default: 900, min: 1, description: 'a stored robot enhancement whose reference version is not announced as indexed within this time becomes indexing_failed' },
  ROBOT_RESULT_IMPORT_CHUNK_SIZE: { kind: 'integer', default: 1000, min: 1, max: 1000, description: 'enhancements per dedup-service AddEnhancements call while importing robot results' },
  OUTBOUND_ALLOWLIST: { kind: 'list', default: [], description: 'hosts or CIDRs robot base_urls, full texts and linked-data documents may use although private (and over plain http)' },
  ...enhancementContentConfig,
  ROBOT_CALL_TIMEOUT_MS: { kind: 'integer', default: 10_000, min: 100, description: 'time limit of the call to a robot for a single enhancement request' },
  ROBOT_CALL_ATTEMPTS: { kind: 'integer', default: 3, min: 1, max: 10, description: 'attempts of that call when the robot cannot be connected to' },
});
