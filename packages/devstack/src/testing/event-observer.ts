import { EVENTS_EXCHANGE } from '@destiny/contracts';
import { createAmqpConnection, createLogger, namespacedBus, type MessageBus } from '@destiny/platform';
import { TEST_AMQP_URL } from './messaging-namespace';

export interface EventObserver {
  /** Publishes on the namespace's events exchange (tests that answer events with events). */
  publish(routingKey: string, message: unknown, messageId: string): Promise<void>;
  /** Deletes the observer's queue (it is not part of the system topology) and disconnects. */
  close(): Promise<void>;
}

/**
 * A test's own queue bound to the events exchange of a messaging namespace, handing every event
 * with `routingKey` to `onEvent`: how component tests watch what a service emits.
 */
export async function observeEvents<T>(namespace: string, options: { queue: string; routingKey: string; prefetch?: number; onEvent: (event: T) => Promise<void> | void }): Promise<EventObserver> {
  const connection = await createAmqpConnection({ url: TEST_AMQP_URL, logger: createLogger({ service: 'test-event-observer', level: 'silent' }), name: `${options.queue}-${namespace}` });
  const bus: MessageBus = namespacedBus(connection, namespace);
  await bus.declareTopology({ exchanges: [{ name: EVENTS_EXCHANGE, type: 'topic' }], queues: [{ name: options.queue, bindings: [{ exchange: EVENTS_EXCHANGE, routingKey: options.routingKey }] }] });
  await bus.consume<T>(
    options.queue,
    async (event) => {
      await options.onEvent(event);
      return { outcome: 'ack' };
    },
    { prefetch: options.prefetch ?? 10 },
  );
  return {
    publish: (routingKey, message, messageId) => bus.publish(EVENTS_EXCHANGE, routingKey, message, { messageId }),
    async close() {
      await bus.deleteTopology({ exchanges: [], queues: [{ name: options.queue }] });
      await connection.close();
    },
  };
}
