import { createAmqpConnection } from '../../src/messaging';
import { describeMessageBusBehaviour } from './message-bus.behaviour';
import { RABBITMQ_URL, testLogger } from './messaging.test-support';

describeMessageBusBehaviour('RabbitMQ connection', {
  create: () => createAmqpConnection({ url: RABBITMQ_URL, logger: testLogger(), name: 'amqp-bus-test' }),
});
