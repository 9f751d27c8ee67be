import { launchService } from '@destiny/platform/service/launch-service';

launchService({ name: 'import-service', start: async () => (await import('./index.js')).startImportService() });
