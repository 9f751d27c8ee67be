import { launchService } from '@destiny/platform/service/launch-service';

launchService({ name: 'robot-broker', start: async () => (await import('./index.js')).startRobotBroker() });
