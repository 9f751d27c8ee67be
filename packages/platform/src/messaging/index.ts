export {
  ATTEMPT_HEADER,
  DEAD_LETTER_REASON_HEADER,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PREFETCH,
  DEFAULT_PUBLISH_TIMEOUT_MS,
  DEFAULT_RETRY_DELAY_MS,
  ORIGINAL_EXCHANGE_HEADER,
  ORIGINAL_ROUTING_KEY_HEADER,
  type ConsumeOptions,
  type ExchangeDescription,
  type ExchangeType,
  type HandlerOutcome,
  type MessageBus,
  type MessageConsumer,
  type MessageHandler,
  type MessageMetadata,
  type MessagingTopology,
  type PublishOptions,
  type QueueBinding,
  type QueueDescription,
} from './message-bus';
export { createAmqpConnection, type AmqpConnection, type AmqpConnectionOptions } from './amqp.connection';
export { type QueueType } from './amqp.topology';
export { createInProcessBus, type InProcessBusOptions } from './in-process.bus';
export { serveBusToThread } from './thread-bus.host';
export { connectBusToHost } from './thread-bus.client';
export { MessageBusClosedError, PublishRejectedError, PublishTimeoutError, UnroutableMessageError } from './messaging.errors';
export { deadQueueName, retryQueueName } from './topology';
export { namespacedBus, namespacedTopology } from './namespaced.bus';
export { consumeInBatches, type BatchConsumerOptions } from './batch.consumer';
