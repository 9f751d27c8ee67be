import crypto from 'node:crypto';
import { TOPOLOGY } from '@destiny/contracts';
import { createAmqpConnection, namespacedBus } from '@destiny/platform';
import pino from 'pino';

export const TEST_AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

export interface TestMessagingNamespace {
  namespace: string;
  /** Service variables that put every exchange and queue of a run under the namespace. */
  env: { AMQP_URL: string; AMQP_NAMESPACE: string };
  /** Deletes the namespace's exchanges and queues (retry and dead-letter queues included). */
  remove(): Promise<void>;
}

/**
 * Test runs share one RabbitMQ: each run gets its own namespace so its services never consume
 * another run's messages.
 */
export function createTestMessagingNamespace(label = 'test', url = TEST_AMQP_URL): TestMessagingNamespace {
  const namespace = `${label}-${crypto.randomBytes(4).toString('hex')}`;
  return {
    namespace,
    env: { AMQP_URL: url, AMQP_NAMESPACE: namespace },
    async remove() {
      const connection = await createAmqpConnection({ url, logger: pino({ level: 'silent' }), name: `remove-${namespace}`, initialMaxRetries: 0 });
      try {
        await namespacedBus(connection, namespace).deleteTopology(TOPOLOGY);
      } finally {
        await connection.close();
      }
    },
  };
}
