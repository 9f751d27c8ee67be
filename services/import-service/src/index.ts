// Composition root of import-service: Imports: records, batches, per-line results, background batch processing.
import { loadConfig, startBackendService, type BackendOverrides, type RunningBackendService } from '@destiny/platform';
import { importServiceConfig } from './config';

export const SERVICE_NAME = 'import-service';

export async function startImportService(env: NodeJS.ProcessEnv = process.env, overrides: BackendOverrides = {}): Promise<RunningBackendService> {
  const config = loadConfig(importServiceConfig, env);
  return startBackendService({
    name: SERVICE_NAME,
    config,
    ...overrides,
    register: async () => ({}),
  });
}
