import { backendConfig, defineConfig } from '@destiny/platform';

export const searchRequestServiceConfig = defineConfig({
  ...backendConfig,
  GRPC_PORT: { ...backendConfig.GRPC_PORT, default: 50054 },
  HEALTH_PORT: { ...backendConfig.HEALTH_PORT, default: 9464 },
  MONGODB_DATABASE: { kind: 'string', default: 'destiny_search_request', description: 'database holding this service\'s collections' },
});
