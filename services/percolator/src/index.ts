// Composition root of percolator: Automations as percolator queries, matched against reference changes.
import { loadConfig, startBackendService, type BackendOverrides, type RunningBackendService } from '@destiny/platform';
import { percolatorConfig } from './config';

export const SERVICE_NAME = 'percolator';

export async function startPercolator(env: NodeJS.ProcessEnv = process.env, overrides: BackendOverrides = {}): Promise<RunningBackendService> {
  const config = loadConfig(percolatorConfig, env);
  return startBackendService({
    name: SERVICE_NAME,
    config,
    ...overrides,
    register: async () => ({}),
  });
}
