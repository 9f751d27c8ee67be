// The one messaging contract both the RabbitMQ connection and the in-process bus implement, so
// services are written once and run against either.

export type ExchangeType = 'topic' | 'direct' | 'fanout';

export interface ExchangeDescription {
  name: string;
  type: ExchangeType;
}

export interface QueueBinding {
  exchange: string;
  routingKey: string;
}

export interface QueueDescription {
  name: string;
  bindings?: QueueBinding[];
  /** Handler attempts before a message goes to `<name>.dead`; consumers may override. */
  maxAttempts?: number;
  /** Delay before a message the handler asked to retry is delivered again; consumers may override. */
  retryDelayMs?: number;
}

export interface MessagingTopology {
  exchanges: ExchangeDescription[];
  queues: QueueDescription[];
}

export interface PublishOptions {
  /** Identifies the message for idempotent consumers; a random UUID when omitted. */
  messageId?: string;
  headers?: Record<string, string | number | boolean>;
  /** How long to wait for a broker confirm (including any reconnection) before rejecting. */
  timeoutMs?: number;
}

export interface MessageMetadata {
  messageId: string;
  /** 1 on the first delivery to a handler, incremented each time the message comes back from a retry. */
  attempt: number;
  headers: Record<string, unknown>;
  /** The exchange and routing key the message was originally published with. */
  exchange: string;
  routingKey: string;
  queue: string;
  /** True when the broker redelivers a message whose earlier delivery was never settled. */
  redelivered: boolean;
  /** Set on messages read from a dead-letter queue. */
  deadLetterReason?: string;
}

export type HandlerOutcome =
  | { outcome: 'ack' }
  | { outcome: 'retry'; reason: string }
  | { outcome: 'dead-letter'; reason: string };

export type MessageHandler<T = unknown> = (message: T, metadata: MessageMetadata) => Promise<HandlerOutcome>;

export interface ConsumeOptions {
  /** Messages handled concurrently by this consumer. Default 10. */
  prefetch?: number;
  maxAttempts?: number;
  retryDelayMs?: number;
}

export interface MessageConsumer {
  readonly queue: string;
  /** Stops taking new messages, waits for in-flight handlers to settle, then resolves. */
  stop(): Promise<void>;
}

export interface MessageBus {
  readonly kind: 'amqp' | 'in-process';
  /** Declares exchanges, queues with their retry and dead-letter queues, and bindings (idempotent). */
  declareTopology(topology: MessagingTopology): Promise<void>;
  /** Removes what `declareTopology` created for this description (tests and tear-down). */
  deleteTopology(topology: MessagingTopology): Promise<void>;
  /** Publishes a JSON message to an exchange; resolves once the broker has taken responsibility. */
  publish(exchange: string, routingKey: string, message: unknown, options?: PublishOptions): Promise<void>;
  /** Sends a JSON message straight to a work queue; rejects with UnroutableMessageError if it does not exist. */
  sendToQueue(queue: string, message: unknown, options?: PublishOptions): Promise<void>;
  consume<T = unknown>(queue: string, handler: MessageHandler<T>, options?: ConsumeOptions): Promise<MessageConsumer>;
  isConnected(): boolean;
  /** Stops every consumer (waiting for in-flight handlers) and releases the connection; idempotent. */
  close(): Promise<void>;
}

export const DEFAULT_PREFETCH = 10;
export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_RETRY_DELAY_MS = 5_000;
export const DEFAULT_PUBLISH_TIMEOUT_MS = 30_000;

/** Header carrying the handler attempt number of a message coming back from the retry queue. */
export const ATTEMPT_HEADER = 'x-attempt';
export const ORIGINAL_EXCHANGE_HEADER = 'x-original-exchange';
export const ORIGINAL_ROUTING_KEY_HEADER = 'x-original-routing-key';
export const DEAD_LETTER_REASON_HEADER = 'x-dead-letter-reason';
