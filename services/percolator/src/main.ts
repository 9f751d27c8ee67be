import { launchService } from '@destiny/platform/service/launch-service';

launchService({ name: 'percolator', start: async () => (await import('./index.js')).startPercolator() });
