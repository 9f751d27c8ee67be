// Composition root of search-request-service: The reference search index, reference search and search-based enhancement requests.
import { loadConfig, startBackendService, type BackendOverrides, type RunningBackendService } from '@destiny/platform';
import { searchRequestServiceConfig } from './config';

export const SERVICE_NAME = 'search-request-service';

export async function startSearchRequestService(env: NodeJS.ProcessEnv = process.env, overrides: BackendOverrides = {}): Promise<RunningBackendService> {
  const config = loadConfig(searchRequestServiceConfig, env);
  return startBackendService({
    name: SERVICE_NAME,
    config,
    ...overrides,
    register: async () => ({}),
  });
}
