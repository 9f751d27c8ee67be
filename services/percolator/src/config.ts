import { backendConfig, defineConfig } from '@destiny/platform';

export const percolatorConfig = defineConfig({
  ...backendConfig,
  GRPC_PORT: { ...backendConfig.GRPC_PORT, default: 50055 },
  HEALTH_PORT: { ...backendConfig.HEALTH_PORT, default: 9465 },
  MONGODB_DATABASE: { kind: 'string', default: 'destiny_percolator', description: 'database holding this service\'s collections' },
});
