import { launchService } from '@destiny/platform/service/launch-service';

launchService({ name: 'search-request-service', start: async () => (await import('./index.js')).startSearchRequestService() });
