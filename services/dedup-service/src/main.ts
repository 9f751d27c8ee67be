import { launchService } from '@destiny/platform/service/launch-service';

launchService({ name: 'dedup-service', start: async () => (await import('./index.js')).startDedupService() });
