import { type Channel } from 'amqplib';
import { type MessagingTopology } from './message-bus';
import { deadQueueName, retryQueueName } from './topology';

export type QueueType = 'quorum' | 'classic';

/**
 * Broker-side redeliveries (a consumer died or its connection dropped before settling) after which
 * a quorum queue dead-letters the message itself: a safety net for messages that crash their
 * consumer, separate from the handler-driven attempt count.
 */
const DELIVERY_LIMIT = 20;

/**
 * Quorum queues with at-least-once dead-lettering need RabbitMQ 3.10 or later; older brokers (or
 * other AMQP servers) get classic durable queues.
 */
export function queueTypeForServer(version: unknown): QueueType {
  const match = /^(\d+)\.(\d+)/.exec(typeof version === 'string' ? version : Buffer.isBuffer(version) ? version.toString() : '');
  if (!match) return 'classic';
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 3 || (major === 3 && minor >= 10) ? 'quorum' : 'classic';
}

interface QueueDeclaration {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * For a queue Q: Q itself dead-letters (broker delivery limit) into Q.dead; Q.retry holds messages
 * for their per-message TTL and then dead-letters them back into Q; Q.dead keeps what exhausted its
 * attempts or was dead-lettered by a handler until someone looks at it.
 */
export function queueDeclarations(queue: string, queueType: QueueType): QueueDeclaration[] {
  const quorum = queueType === 'quorum';
  const safeDeadLettering = quorum ? { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' } : {};
  const typeArgument = quorum ? { 'x-queue-type': 'quorum' } : {};
  return [
    { name: deadQueueName(queue), arguments: { ...typeArgument } },
    {
      name: retryQueueName(queue),
      arguments: { ...typeArgument, 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': queue, ...safeDeadLettering },
    },
    {
      name: queue,
      arguments: {
        ...typeArgument,
        'x-dead-letter-exchange': '',
        'x-dead-letter-routing-key': deadQueueName(queue),
        ...(quorum ? { 'x-delivery-limit': DELIVERY_LIMIT, ...safeDeadLettering } : {}),
      },
    },
  ];
}

export async function declareAmqpTopology(channel: Channel, topology: MessagingTopology, queueType: QueueType): Promise<void> {
  for (const exchange of topology.exchanges) {
    await channel.assertExchange(exchange.name, exchange.type, { durable: true });
  }
  for (const queue of topology.queues) {
    for (const declaration of queueDeclarations(queue.name, queueType)) {
      await channel.assertQueue(declaration.name, { durable: true, arguments: declaration.arguments });
    }
    for (const binding of queue.bindings ?? []) {
      await channel.bindQueue(queue.name, binding.exchange, binding.routingKey);
    }
  }
}

export async function deleteAmqpTopology(channel: Channel, topology: MessagingTopology): Promise<void> {
  for (const queue of topology.queues) {
    await channel.deleteQueue(queue.name);
    await channel.deleteQueue(retryQueueName(queue.name));
    await channel.deleteQueue(deadQueueName(queue.name));
  }
  for (const exchange of topology.exchanges) {
    await channel.deleteExchange(exchange.name);
  }
}
