import { backendConfig, defineConfig } from '@destiny/platform';

export const robotBrokerConfig = defineConfig({
  ...backendConfig,
  GRPC_PORT: { ...backendConfig.GRPC_PORT, default: 50053 },
  HEALTH_PORT: { ...backendConfig.HEALTH_PORT, default: 9463 },
  MONGODB_DATABASE: { kind: 'string', default: 'destiny_robot_broker', description: 'database holding this service\'s collections' },
});
