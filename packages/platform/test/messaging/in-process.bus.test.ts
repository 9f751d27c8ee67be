import { createInProcessBus } from '../../src/messaging';
import { describeMessageBusBehaviour } from './message-bus.behaviour';
import { testLogger } from './messaging.test-support';

describeMessageBusBehaviour('in-process bus', {
  create: async () => createInProcessBus({ logger: testLogger(), name: 'test' }),
});
