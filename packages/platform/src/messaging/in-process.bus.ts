import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { handleDelivery, type Settlement } from './delivery.handler';
import {
  ATTEMPT_HEADER,
  DEAD_LETTER_REASON_HEADER,
  type ConsumeOptions,
  type ExchangeType,
  type MessageBus,
  type MessageConsumer,
  type MessageHandler,
  type MessageMetadata,
  type MessagingTopology,
  type PublishOptions,
  type QueueDescription,
} from './message-bus';
import { encodeMessage } from './message.codec';
import { MessageBusClosedError, UnroutableMessageError } from './messaging.errors';
import { topicMatches } from './topic-pattern.matcher';
import { deadQueueName, resolveConsumeOptions, sourceOfDeadQueue, validateTopology, type ResolvedConsumeOptions } from './topology';
import { injectTraceContext } from './trace-context.propagation';

export interface InProcessBusOptions {
  logger?: Logger;
  name?: string;
}

interface StoredMessage {
  content: Buffer;
  messageId: string;
  headers: Record<string, unknown>;
  exchange: string;
  routingKey: string;
  attempt: number;
  redelivered: boolean;
  deadLetterReason?: string;
}

interface Exchange {
  type: ExchangeType;
  bindings: Array<{ queue: string; routingKey: string }>;
  /** Target queues by routing key, as the bindings route it; emptied whenever the bindings change. */
  routed: Map<string, string[]>;
}

interface Queue {
  name: string;
  description: QueueDescription | undefined;
  ready: StoredMessage[];
  consumers: InProcessConsumer[];
  /** Round-robin position, so consumers of one queue share its messages. */
  next: number;
}

/**
 * The embedded stand-in for RabbitMQ when none is reachable: the same publish / consume / outcome
 * contract, with messages kept in memory until a handler acknowledges them, retries after the
 * delay and dead-letter queues. Nothing survives the process.
 */
export function createInProcessBus(options: InProcessBusOptions = {}): MessageBus {
  return new InProcessBus(options);
}

class InProcessBus implements MessageBus {
  readonly kind = 'in-process' as const;
  private readonly name: string;
  private readonly logger: Logger;
  private readonly exchanges = new Map<string, Exchange>();
  private readonly queues = new Map<string, Queue>();
  private readonly consumers = new Set<InProcessConsumer>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closing: Promise<void> | null = null;

  constructor(options: InProcessBusOptions) {
    this.name = options.name ?? 'in-process';
    this.logger = (options.logger ?? pino({ level: 'silent' })).child({ component: 'in-process-bus', bus: this.name });
  }

  isConnected(): boolean {
    return this.closing === null;
  }

  async declareTopology(topology: MessagingTopology): Promise<void> {
    this.assertOpen();
    validateTopology(topology);
    for (const exchange of topology.exchanges) {
      const existing = this.exchanges.get(exchange.name);
      if (existing && existing.type !== exchange.type) throw new Error(`Exchange ${exchange.name} already exists with type ${existing.type}`);
      if (!existing) this.exchanges.set(exchange.name, { type: exchange.type, bindings: [], routed: new Map() });
    }
    for (const description of topology.queues) {
      this.ensureQueue(description.name, description);
      this.ensureQueue(deadQueueName(description.name), undefined);
      for (const binding of description.bindings ?? []) {
        const exchange = this.exchanges.get(binding.exchange);
        if (!exchange) throw new UnroutableMessageError(`exchange ${binding.exchange}`);
        if (!exchange.bindings.some((b) => b.queue === description.name && b.routingKey === binding.routingKey)) {
          exchange.bindings.push({ queue: description.name, routingKey: binding.routingKey });
          exchange.routed.clear();
        }
      }
    }
  }

  async deleteTopology(topology: MessagingTopology): Promise<void> {
    this.assertOpen();
    for (const description of topology.queues) {
      for (const name of [description.name, deadQueueName(description.name)]) {
        const queue = this.queues.get(name);
        if (!queue) continue;
        await Promise.all(queue.consumers.map((consumer) => consumer.stop()));
        this.queues.delete(name);
      }
      for (const exchange of this.exchanges.values()) {
        exchange.bindings = exchange.bindings.filter((binding) => binding.queue !== description.name);
        exchange.routed.clear();
      }
    }
    for (const exchange of topology.exchanges) this.exchanges.delete(exchange.name);
  }

  async publish(exchangeName: string, routingKey: string, message: unknown, options: PublishOptions = {}): Promise<void> {
    this.assertOpen();
    const exchange = this.exchanges.get(exchangeName);
    if (!exchange) throw new UnroutableMessageError(`exchange ${exchangeName}`);
    const stored = this.newMessage(exchangeName, routingKey, message, options);
    let targets = exchange.routed.get(routingKey);
    if (!targets) {
      targets = [...new Set(exchange.bindings.filter((binding) => routes(exchange.type, binding.routingKey, routingKey)).map((binding) => binding.queue))];
      // Routing keys are few (one per event type); the bound only guards against callers minting them.
      if (exchange.routed.size >= 1000) exchange.routed.clear();
      exchange.routed.set(routingKey, targets);
    }
    for (const queueName of targets) {
      const queue = this.queues.get(queueName);
      if (queue) this.enqueue(queue, { ...stored });
    }
  }

  async sendToQueue(queueName: string, message: unknown, options: PublishOptions = {}): Promise<void> {
    this.assertOpen();
    const queue = this.queues.get(queueName);
    if (!queue) throw new UnroutableMessageError(`queue ${queueName}`);
    this.enqueue(queue, this.newMessage('', queueName, message, options));
  }

  async consume<T = unknown>(queueName: string, handler: MessageHandler<T>, options?: ConsumeOptions): Promise<MessageConsumer> {
    this.assertOpen();
    const queue = this.queues.get(queueName);
    if (!queue) throw new Error(`No queue named ${queueName}`);
    const description = this.queues.get(sourceOfDeadQueue(queueName) ?? queueName)?.description;
    const consumer = new InProcessConsumer(queue, handler as MessageHandler<unknown>, resolveConsumeOptions(description, options), this);
    queue.consumers.push(consumer);
    this.consumers.add(consumer);
    this.schedulePump(queue);
    return consumer;
  }

  close(): Promise<void> {
    this.closing ??= this.closeNow();
    return this.closing;
  }

  private async closeNow(): Promise<void> {
    await Promise.allSettled([...this.consumers].map((consumer) => consumer.stop()));
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private assertOpen(): void {
    if (this.closing) throw new MessageBusClosedError(this.name);
  }

  private ensureQueue(name: string, description: QueueDescription | undefined): void {
    const existing = this.queues.get(name);
    if (existing) {
      existing.description = description ?? existing.description;
      return;
    }
    this.queues.set(name, { name, description, ready: [], consumers: [], next: 0 });
  }

  private newMessage(exchange: string, routingKey: string, message: unknown, options: PublishOptions): StoredMessage {
    return {
      content: encodeMessage(message),
      messageId: options.messageId ?? randomUUID(),
      headers: injectTraceContext(options.headers ?? {}),
      exchange,
      routingKey,
      attempt: 1,
      redelivered: false,
    };
  }

  private enqueue(queue: Queue, message: StoredMessage): void {
    queue.ready.push(message);
    this.schedulePump(queue);
  }

  /** Deliveries start on a later tick, as with a broker, never inside the publisher's call. */
  schedulePump(queue: Queue): void {
    setImmediate(() => this.pump(queue));
  }

  private pump(queue: Queue): void {
    while (queue.ready.length > 0) {
      const consumer = this.nextConsumerWithCapacity(queue);
      if (!consumer) return;
      consumer.deliver(queue.ready.shift() as StoredMessage);
    }
  }

  private nextConsumerWithCapacity(queue: Queue): InProcessConsumer | undefined {
    for (let i = 0; i < queue.consumers.length; i++) {
      const consumer = queue.consumers[(queue.next + i) % queue.consumers.length];
      if (consumer.hasCapacity()) {
        queue.next = (queue.next + i + 1) % queue.consumers.length;
        return consumer;
      }
    }
    return undefined;
  }

  settle(queue: Queue, message: StoredMessage, settlement: Settlement): void {
    switch (settlement.kind) {
      case 'ack':
        return;
      case 'retry':
        this.logger.info({ messageId: message.messageId, queue: queue.name, attempt: message.attempt, reason: settlement.reason }, 'message scheduled for retry');
        this.later(settlement.delayMs, () => this.enqueue(queue, { ...message, attempt: settlement.nextAttempt, redelivered: false, headers: { ...message.headers, [ATTEMPT_HEADER]: settlement.nextAttempt } }));
        return;
      case 'dead-letter': {
        this.logger.warn({ messageId: message.messageId, queue: queue.name, attempt: message.attempt, reason: settlement.reason }, 'message dead-lettered');
        const dead = this.queues.get(deadQueueName(queue.name));
        if (dead) this.enqueue(dead, { ...message, deadLetterReason: settlement.reason, headers: { ...message.headers, [DEAD_LETTER_REASON_HEADER]: settlement.reason } });
        return;
      }
      case 'requeue':
        this.later(settlement.delayMs, () => this.enqueue(queue, { ...message, redelivered: true }));
        return;
    }
  }

  /** A message handed back by a consumer that stopped before handling it. */
  returnUnhandled(queue: Queue, message: StoredMessage): void {
    queue.ready.unshift({ ...message, redelivered: true });
    this.schedulePump(queue);
  }

  consumerStopped(consumer: InProcessConsumer, queue: Queue): void {
    this.consumers.delete(consumer);
    queue.consumers = queue.consumers.filter((c) => c !== consumer);
    queue.next = 0;
  }

  handlerLogger(): Logger {
    return this.logger;
  }

  private later(delayMs: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.closing === null) action();
    }, delayMs);
    this.timers.add(timer);
  }
}

class InProcessConsumer implements MessageConsumer {
  readonly queue: string;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping: Promise<void> | null = null;
  private readonly fromDeadQueue: boolean;

  constructor(
    private readonly source: Queue,
    private readonly handler: MessageHandler<unknown>,
    private readonly options: ResolvedConsumeOptions,
    private readonly bus: InProcessBus,
  ) {
    this.queue = source.name;
    this.fromDeadQueue = sourceOfDeadQueue(source.name) !== undefined;
  }

  hasCapacity(): boolean {
    return this.stopping === null && this.inFlight.size < this.options.prefetch;
  }

  deliver(message: StoredMessage): void {
    const work = this.process(message);
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      this.bus.schedulePump(this.source);
    });
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  private async stopNow(): Promise<void> {
    this.bus.consumerStopped(this, this.source);
    await Promise.allSettled([...this.inFlight]);
  }

  private async process(message: StoredMessage): Promise<void> {
    const metadata: MessageMetadata = {
      messageId: message.messageId,
      attempt: message.attempt,
      headers: { ...message.headers },
      exchange: message.exchange,
      routingKey: message.routingKey,
      queue: this.source.name,
      redelivered: message.redelivered,
      ...(message.deadLetterReason === undefined ? {} : { deadLetterReason: message.deadLetterReason }),
    };
    try {
      const settlement = await handleDelivery({ content: message.content, metadata, fromDeadQueue: this.fromDeadQueue }, this.handler, this.options, this.bus.handlerLogger());
      this.bus.settle(this.source, message, settlement);
    } catch (err) {
      this.bus.handlerLogger().error({ err, queue: this.source.name }, 'settling a message failed; returning it to the queue');
      this.bus.returnUnhandled(this.source, message);
    }
  }
}

function routes(type: ExchangeType, bindingKey: string, routingKey: string): boolean {
  if (type === 'fanout') return true;
  if (type === 'direct') return bindingKey === routingKey;
  return topicMatches(bindingKey, routingKey);
}
