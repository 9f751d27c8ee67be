import type { MessageBus, MessagingTopology } from './message-bus';

/** Prefixes every exchange and queue name, so several deployments can share one broker. */
export function namespacedTopology(topology: MessagingTopology, namespace: string): MessagingTopology {
  const name = (value: string) => `${namespace}.${value}`;
  return {
    exchanges: topology.exchanges.map((exchange) => ({ ...exchange, name: name(exchange.name) })),
    queues: topology.queues.map((queue) => ({
      ...queue,
      name: name(queue.name),
      bindings: queue.bindings?.map((binding) => ({ ...binding, exchange: name(binding.exchange) })),
    })),
  };
}

/**
 * A bus whose names live under `namespace` (e.g. one per environment, or one per test run on a
 * shared broker); services keep using the contract's names. Handlers see the unprefixed queue and
 * exchange in their metadata.
 */
export function namespacedBus(bus: MessageBus, namespace: string): MessageBus {
  if (!namespace) return bus;
  const prefix = `${namespace}.`;
  const name = (value: string) => `${prefix}${value}`;
  const strip = (value: string) => (value.startsWith(prefix) ? value.slice(prefix.length) : value);
  return {
    kind: bus.kind,
    declareTopology: (topology) => bus.declareTopology(namespacedTopology(topology, namespace)),
    deleteTopology: (topology) => bus.deleteTopology(namespacedTopology(topology, namespace)),
    publish: (exchange, routingKey, message, options) => bus.publish(name(exchange), routingKey, message, options),
    sendToQueue: (queue, message, options) => bus.sendToQueue(name(queue), message, options),
    consume: (queue, handler, options) => bus.consume(name(queue), (message, metadata) => handler(message as never, { ...metadata, queue: strip(metadata.queue), exchange: strip(metadata.exchange) }), options),
    isConnected: () => bus.isConnected(),
    close: () => bus.close(),
  };
}
