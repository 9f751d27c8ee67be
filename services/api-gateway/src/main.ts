import { launchService } from '@destiny/platform/service/launch-service';

launchService({ name: 'api-gateway', start: async () => (await import('./index.js')).startApiGateway() });
