// Composition root of robot-broker: Robots, enhancement requests, pending enhancements, robot batches and single requests.
import { loadConfig, startBackendService, type BackendOverrides, type RunningBackendService } from '@destiny/platform';
import { robotBrokerConfig } from './config';

export const SERVICE_NAME = 'robot-broker';

export async function startRobotBroker(env: NodeJS.ProcessEnv = process.env, overrides: BackendOverrides = {}): Promise<RunningBackendService> {
  const config = loadConfig(robotBrokerConfig, env);
  return startBackendService({
    name: SERVICE_NAME,
    config,
    ...overrides,
    register: async () => ({}),
  });
}
