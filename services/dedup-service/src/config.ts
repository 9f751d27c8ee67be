import { backendConfig, defineConfig } from '@destiny/platform';

export const dedupServiceConfig = defineConfig({
  ...backendConfig,
  GRPC_PORT: { ...backendConfig.GRPC_PORT, default: 50052 },
  HEALTH_PORT: { ...backendConfig.HEALTH_PORT, default: 9462 },
  MONGODB_DATABASE: { kind: 'string', default: 'destiny_dedup', description: 'database holding this service\'s collections' },
});
