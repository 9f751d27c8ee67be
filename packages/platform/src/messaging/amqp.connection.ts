import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel, type ConfirmChannel, type Message, type Options, type RecoveringChannelModel } from 'amqplib';
import { type Logger } from 'pino';
import { AmqpConsumer, type ConsumerHost, type RepublishProperties } from './amqp.consumer';
import { declareAmqpTopology, deleteAmqpTopology, queueTypeForServer, type QueueType } from './amqp.topology';
import {
  DEFAULT_PUBLISH_TIMEOUT_MS,
  type ConsumeOptions,
  type MessageBus,
  type MessageConsumer,
  type MessageHandler,
  type MessagingTopology,
  type PublishOptions,
  type QueueDescription,
} from './message-bus';
import { encodeMessage, JSON_CONTENT_TYPE } from './message.codec';
import { MessageBusClosedError, PublishRejectedError, PublishTimeoutError, UnroutableMessageError } from './messaging.errors';
import { resolveConsumeOptions, sourceOfDeadQueue, validateTopology } from './topology';
import { injectTraceContext } from './trace-context.propagation';

export interface AmqpConnectionOptions {
  url: string;
  logger: Logger;
  /** Shown in the broker's connection list and in logs. */
  name: string;
  /** Default bound on a publish, including waiting for a reconnection. Default 30 s. */
  publishTimeoutMs?: number;
  /** First reconnection delay, doubled on each failure up to `reconnectMaxDelayMs`. Default 1 s. */
  reconnectInitialDelayMs?: number;
  /** Default 30 s. */
  reconnectMaxDelayMs?: number;
  /**
   * Failed attempts tolerated before the first connection succeeds (then `createAmqpConnection`
   * rejects). Default: keep trying, for a broker that starts after the service. Use 0 to probe.
   */
  initialMaxRetries?: number;
  /** Default: quorum queues on RabbitMQ 3.10+, classic durable queues otherwise. */
  queueType?: QueueType;
}

export interface AmqpConnection extends MessageBus {
  readonly kind: 'amqp';
  readonly name: string;
}

/** Consumers that lost their channel on a live connection try again after this long. */
const CONSUMER_REATTACH_DELAY_MS = 1_000;
const CONSUMER_REATTACH_MAX_DELAY_MS = 30_000;
/** Pause before a publish retries on a fresh channel, so a failing broker is not hammered. */
const PUBLISH_RETRY_PAUSE_MS = 100;

/**
 * Opens a managed RabbitMQ connection. It reconnects with exponential backoff after a broker
 * restart or network drop, then re-declares every declared topology and restarts every consumer
 * before publishers resume. Resolves once the first connection is up.
 */
export async function createAmqpConnection(options: AmqpConnectionOptions): Promise<AmqpConnection> {
  const connection = new AmqpMessageBus(options);
  await connection.open();
  return connection;
}

interface PublisherChannel {
  channel: ConfirmChannel;
  /** Message ids the broker returned as unroutable; their confirm follows the return. */
  returned: Set<string>;
  /** Set when the broker closed this channel for an error of the channel's own (e.g. 404). */
  failure: (Error & { code?: number }) | null;
}

interface LiveConnection {
  model: ChannelModel;
  publisher: Promise<PublisherChannel> | null;
}

class AmqpMessageBus implements AmqpConnection, ConsumerHost {
  readonly kind = 'amqp' as const;
  readonly name: string;
  private readonly logger: Logger;
  private readonly publishTimeoutMs: number;
  private recovering: RecoveringChannelModel | null = null;
  private live: LiveConnection | null = null;
  private connectedSignal = deferred<LiveConnection>();
  private readonly topologies = new Set<MessagingTopology>();
  private readonly queues = new Map<string, QueueDescription>();
  private readonly consumers = new Set<AmqpConsumer>();
  private readonly reattachDelays = new WeakMap<AmqpConsumer, number>();
  private queueType: QueueType | undefined;
  private closing: Promise<void> | null = null;
  /** Set once consumers have drained; until then their settlements may still republish. */
  private closed = false;

  constructor(private readonly options: AmqpConnectionOptions) {
    this.name = options.name;
    this.logger = options.logger.child({ component: 'amqp', connection: options.name });
    this.publishTimeoutMs = options.publishTimeoutMs ?? DEFAULT_PUBLISH_TIMEOUT_MS;
    this.queueType = options.queueType;
  }

  async open(): Promise<void> {
    const recovering = await connect(this.options.url, {
      clientProperties: { connection_name: this.name },
      timeout: 10_000,
      recovery: {
        initialDelay: this.options.reconnectInitialDelayMs ?? 1_000,
        maxDelay: this.options.reconnectMaxDelayMs ?? 30_000,
        factor: 2,
        jitter: 0.2,
        waitForConnect: false,
        ...(this.options.initialMaxRetries === undefined ? {} : { initialMaxRetries: this.options.initialMaxRetries }),
        setup: (model: ChannelModel) => this.restore(model),
      },
    });
    this.recovering = recovering;
    recovering.on('connect', (model) => this.onConnected(model));
    recovering.on('disconnect', (err) => {
      this.live = null;
      this.connectedSignal = deferred<LiveConnection>();
      this.logger.warn({ err }, 'disconnected from RabbitMQ; reconnecting');
    });
    recovering.on('connect-failed', (err) => this.logger.warn({ err }, 'connecting to RabbitMQ failed'));
    recovering.on('reconnect-scheduled', ({ attempt, delay }) => this.logger.info({ attempt, delayMs: delay }, 'reconnection scheduled'));
    recovering.on('reconnect-failed', (err) => {
      this.logger.error({ err }, 'gave up connecting to RabbitMQ');
      this.connectedSignal.reject(err);
    });
    // Connection-level errors are followed by 'disconnect'; without a listener they would be thrown.
    recovering.on('error', (err) => this.logger.warn({ err }, 'RabbitMQ connection error'));
    try {
      await recovering.waitForConnect();
    } catch (err) {
      await recovering.close().catch(() => undefined);
      throw err;
    }
  }

  /** Runs on every new connection before it is handed out: topology first, then consumers. */
  private async restore(model: ChannelModel): Promise<void> {
    this.queueType ??= queueTypeForServer(model.connection.serverProperties.version);
    if (this.topologies.size > 0) {
      const channel = await model.createChannel();
      channel.on('error', () => undefined);
      for (const topology of this.topologies) await declareAmqpTopology(channel, topology, this.queueType);
      await channel.close();
    }
    for (const consumer of this.consumers) {
      try {
        await consumer.attach(model);
      } catch (err) {
        this.logger.error({ err, queue: consumer.queue }, 'could not restart a consumer; trying again shortly');
        this.consumerLost(consumer);
      }
    }
  }

  private onConnected(model: ChannelModel): void {
    const live: LiveConnection = { model, publisher: null };
    this.live = live;
    this.connectedSignal.resolve(live);
    this.logger.info({ consumers: this.consumers.size }, 'connected to RabbitMQ');
  }

  isConnected(): boolean {
    return this.live !== null && this.closing === null;
  }

  async declareTopology(topology: MessagingTopology): Promise<void> {
    this.assertOpen();
    validateTopology(topology);
    const live = await this.waitForConnection(Date.now() + this.publishTimeoutMs, 'topology declaration');
    const channel = await live.model.createChannel();
    channel.on('error', () => undefined);
    // The broker reports a clash with an existing declaration by closing the channel.
    await declareAmqpTopology(channel, topology, this.queueType ?? 'classic');
    await channel.close();
    this.topologies.add(topology);
    for (const queue of topology.queues) this.queues.set(queue.name, queue);
  }

  async deleteTopology(topology: MessagingTopology): Promise<void> {
    this.assertOpen();
    this.topologies.delete(topology);
    for (const queue of topology.queues) this.queues.delete(queue.name);
    const live = await this.waitForConnection(Date.now() + this.publishTimeoutMs, 'topology deletion');
    const channel = await live.model.createChannel();
    channel.on('error', () => undefined);
    await deleteAmqpTopology(channel, topology);
    await channel.close();
  }

  async publish(exchange: string, routingKey: string, message: unknown, options: PublishOptions = {}): Promise<void> {
    this.assertOpen();
    const content = encodeMessage(message);
    await this.publishConfirmed(`exchange ${exchange}`, exchange, routingKey, content, this.publishProperties(options), options.timeoutMs, false);
  }

  async sendToQueue(queue: string, message: unknown, options: PublishOptions = {}): Promise<void> {
    this.assertOpen();
    const content = encodeMessage(message);
    await this.publishConfirmed(`queue ${queue}`, '', queue, content, this.publishProperties(options), options.timeoutMs, true);
  }

  republish(queue: string, content: Buffer, properties: RepublishProperties): Promise<void> {
    return this.publishConfirmed(`queue ${queue}`, '', queue, content, { ...properties, persistent: true }, undefined, true);
  }

  async consume<T = unknown>(queue: string, handler: MessageHandler<T>, options?: ConsumeOptions): Promise<MessageConsumer> {
    this.assertOpen();
    const description = this.queues.get(sourceOfDeadQueue(queue) ?? queue);
    const resolved = resolveConsumeOptions(description, options);
    const consumer = new AmqpConsumer(queue, handler as MessageHandler<unknown>, resolved, this, this.logger);
    const live = await this.waitForConnection(Date.now() + this.publishTimeoutMs, `consumer of ${queue}`);
    this.consumers.add(consumer);
    try {
      await consumer.attach(live.model);
    } catch (err) {
      if (this.live === live && !this.closing) {
        // The connection is fine, so the queue itself is unusable (missing, exclusive, ...).
        this.consumers.delete(consumer);
        throw err;
      }
      // The connection dropped meanwhile: the consumer starts with the next connection.
      this.consumerLost(consumer);
    }
    return consumer;
  }

  consumerLost(consumer: AmqpConsumer): void {
    if (this.closing || consumer.isStopping()) return;
    // Back off while the queue stays unusable (deleted, or its leader is moving), reset on success.
    const delay = this.reattachDelays.get(consumer) ?? CONSUMER_REATTACH_DELAY_MS;
    this.reattachDelays.set(consumer, Math.min(delay * 2, CONSUMER_REATTACH_MAX_DELAY_MS));
    setTimeout(() => {
      const live = this.live;
      if (!live || this.closing || consumer.isStopping() || consumer.isAttached() || !this.consumers.has(consumer)) return;
      consumer.attach(live.model).then(
        () => this.reattachDelays.delete(consumer),
        (err: unknown) => {
          this.logger.error({ err, queue: consumer.queue }, 'could not restart a consumer; trying again later');
          this.consumerLost(consumer);
        },
      );
    }, delay).unref();
  }

  consumerStopped(consumer: AmqpConsumer): void {
    this.consumers.delete(consumer);
  }

  close(): Promise<void> {
    this.closing ??= this.closeNow();
    return this.closing;
  }

  private async closeNow(): Promise<void> {
    await Promise.allSettled([...this.consumers].map((consumer) => consumer.stop()));
    this.closed = true;
    this.connectedSignal.reject(new MessageBusClosedError(this.name));
    this.live = null;
    await this.recovering?.close().catch((err: unknown) => this.logger.warn({ err }, 'closing the RabbitMQ connection failed'));
    this.logger.info('RabbitMQ connection closed');
  }

  /** For callers' operations: refused as soon as closing starts. */
  private assertOpen(): void {
    if (this.closing) throw new MessageBusClosedError(this.name);
  }

  /** For publishing, which consumers settling during the close still need. */
  private assertNotClosed(): void {
    if (this.closed) throw new MessageBusClosedError(this.name);
  }

  private publishProperties(options: PublishOptions): Options.Publish {
    return {
      messageId: options.messageId ?? randomUUID(),
      headers: injectTraceContext(options.headers ?? {}),
      contentType: JSON_CONTENT_TYPE,
      timestamp: Math.floor(Date.now() / 1000),
      persistent: true,
    };
  }

  /**
   * Publishes on the confirm channel and resolves on the broker's ack. A connection lost before
   * the ack means the message may or may not have been taken, so it is published again on the next
   * connection (consumers are idempotent); only the deadline, a broker nack or a channel error
   * that names this message (missing exchange, unroutable queue message) end the attempt.
   */
  private async publishConfirmed(
    target: string,
    exchange: string,
    routingKey: string,
    content: Buffer,
    properties: Options.Publish,
    timeoutMs: number | undefined,
    mandatory: boolean,
  ): Promise<void> {
    this.assertNotClosed();
    const budget = timeoutMs ?? this.publishTimeoutMs;
    const deadline = Date.now() + budget;
    for (;;) {
      const publisher = await withDeadline(this.publisherChannel(deadline, target), deadline, () => new PublishTimeoutError(target, budget));
      try {
        await withDeadline(confirmPublish(publisher, target, exchange, routingKey, content, { ...properties, mandatory }), deadline, () => new PublishTimeoutError(target, budget));
        return;
      } catch (err) {
        if (err instanceof PublishTimeoutError || err instanceof UnroutableMessageError || err instanceof PublishRejectedError) throw err;
        const failure = publisher.failure;
        if (failure?.code === 404) throw new UnroutableMessageError(target);
        if (failure && typeof failure.code === 'number' && failure.code >= 400 && failure.code < 500) throw new PublishRejectedError(target, failure.message);
        this.assertNotClosed();
        this.logger.debug({ err, target, messageId: properties.messageId }, 'publish interrupted; publishing again after reconnection');
        await sleep(PUBLISH_RETRY_PAUSE_MS);
      }
    }
  }

  private async publisherChannel(deadline: number, target: string): Promise<PublisherChannel> {
    for (;;) {
      const live = await this.waitForConnection(deadline, target);
      live.publisher ??= this.openPublisher(live);
      try {
        return await live.publisher;
      } catch (err) {
        this.assertNotClosed();
        this.logger.debug({ err }, 'could not open a publisher channel; retrying');
        await sleep(PUBLISH_RETRY_PAUSE_MS);
      }
    }
  }

  private openPublisher(live: LiveConnection): Promise<PublisherChannel> {
    const forget = (): void => {
      if (live.publisher === opening) live.publisher = null;
    };
    const opening = this.createPublisher(live.model, forget);
    opening.catch(forget);
    return opening;
  }

  private async createPublisher(model: ChannelModel, onClose: () => void): Promise<PublisherChannel> {
    const channel = await model.createConfirmChannel();
    channel.on('close', onClose);
    const publisher: PublisherChannel = { channel, returned: new Set(), failure: null };
    channel.on('return', (message: Message) => {
      if (typeof message.properties.messageId === 'string') publisher.returned.add(message.properties.messageId);
    });
    channel.on('error', (err: Error) => {
      publisher.failure = err;
      this.logger.warn({ err }, 'publisher channel closed by the broker');
    });
    return publisher;
  }

  private async waitForConnection(deadline: number, target: string): Promise<LiveConnection> {
    this.assertNotClosed();
    if (this.live) return this.live;
    return withDeadline(this.connectedSignal.promise, deadline, () => new PublishTimeoutError(target, Math.max(0, deadline - Date.now())));
  }
}

function confirmPublish(publisher: PublisherChannel, target: string, exchange: string, routingKey: string, content: Buffer, properties: Options.Publish): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const messageId = properties.messageId;
    publisher.channel.publish(exchange, routingKey, content, properties, (err: unknown) => {
      if (err) {
        reject(err instanceof Error && err.message === 'message nacked' ? new PublishRejectedError(target, 'negative acknowledgement') : err);
      } else if (properties.mandatory && messageId !== undefined && publisher.returned.delete(messageId)) {
        reject(new UnroutableMessageError(target));
      } else {
        resolve();
      }
    });
  });
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(err: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Waiters attach their own handlers; nobody waiting is not an error.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

function withDeadline<T>(promise: Promise<T>, deadline: number, timeoutError: () => Error): Promise<T> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) return Promise.reject(timeoutError());
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeoutError()), remaining);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
