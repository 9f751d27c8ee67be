import { commonConfig, defineConfig } from '@destiny/platform';

export const apiGatewayConfig = defineConfig({
  ...commonConfig,
  HEALTH_PORT: { ...commonConfig.HEALTH_PORT, default: 9460 },
  PORT: { kind: 'integer', default: 8080, min: 0, max: 65535, description: 'public HTTP port of the API' },
  HOST: { kind: 'string', default: '0.0.0.0', description: 'HTTP listen address' },
  IMPORT_SERVICE_GRPC_URL: { kind: 'string', default: '127.0.0.1:50051', description: 'import-service gRPC address (host:port)' },
  DEDUP_SERVICE_GRPC_URL: { kind: 'string', default: '127.0.0.1:50052', description: 'dedup-service gRPC address' },
  ROBOT_BROKER_GRPC_URL: { kind: 'string', default: '127.0.0.1:50053', description: 'robot-broker gRPC address' },
  SEARCH_REQUEST_SERVICE_GRPC_URL: { kind: 'string', default: '127.0.0.1:50054', description: 'search-request-service gRPC address' },
  PERCOLATOR_GRPC_URL: { kind: 'string', default: '127.0.0.1:50055', description: 'percolator gRPC address' },
});
