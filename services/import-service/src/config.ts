import { backendConfig, defineConfig } from '@destiny/platform';

export const importServiceConfig = defineConfig({
  ...backendConfig,
  GRPC_PORT: { ...backendConfig.GRPC_PORT, default: 50051 },
  HEALTH_PORT: { ...backendConfig.HEALTH_PORT, default: 9461 },
  MONGODB_DATABASE: { kind: 'string', default: 'destiny_import', description: 'database holding this service\'s collections' },
});
