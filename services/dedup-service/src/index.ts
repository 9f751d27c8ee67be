// Composition root of dedup-service: The reference store and identity authority: ingestion, enhancements, duplicate decisions, deduplicated views.
import { loadConfig, startBackendService, type BackendOverrides, type RunningBackendService } from '@destiny/platform';
import { dedupServiceConfig } from './config';

export const SERVICE_NAME = 'dedup-service';

export async function startDedupService(env: NodeJS.ProcessEnv = process.env, overrides: BackendOverrides = {}): Promise<RunningBackendService> {
  const config = loadConfig(dedupServiceConfig, env);
  return startBackendService({
    name: SERVICE_NAME,
    config,
    ...overrides,
    register: async () => ({}),
  });
}
