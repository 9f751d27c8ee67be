import { createHash } from 'node:crypto';
import { type Channel, type ChannelModel, type ConsumeMessage, type MessageProperties } from 'amqplib';
import { type Logger } from 'pino';
import { attemptFromHeader, handleDelivery, type Settlement } from './delivery.handler';
import {
  ATTEMPT_HEADER,
  DEAD_LETTER_REASON_HEADER,
  ORIGINAL_EXCHANGE_HEADER,
  ORIGINAL_ROUTING_KEY_HEADER,
  type MessageConsumer,
  type MessageHandler,
  type MessageMetadata,
} from './message-bus';
import { deadQueueName, retryQueueName, sourceOfDeadQueue, type ResolvedConsumeOptions } from './topology';

/** How a consumer republishes a message to its retry or dead-letter queue, with a broker confirm. */
export type RepublishToQueue = (queue: string, content: Buffer, properties: RepublishProperties) => Promise<void>;

export interface RepublishProperties {
  messageId: string;
  contentType?: string;
  headers: Record<string, unknown>;
  expiration?: string;
  timestamp?: number;
}

export interface ConsumerHost {
  republish: RepublishToQueue;
  /** Called when the consumer lost its channel while the connection may still be up. */
  consumerLost(consumer: AmqpConsumer): void;
  consumerStopped(consumer: AmqpConsumer): void;
}

// Headers the broker adds when dead-lettering; a republished copy starts a fresh history.
const BROKER_DEATH_HEADERS = ['x-death', 'x-first-death-exchange', 'x-first-death-queue', 'x-first-death-reason', 'x-last-death-exchange', 'x-last-death-queue', 'x-last-death-reason', 'x-delivery-count'];

export class AmqpConsumer implements MessageConsumer {
  private channel: Channel | null = null;
  private consumerTag: string | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping: Promise<void> | null = null;
  private attaching: Promise<void> | null = null;
  private readonly fromDeadQueue: boolean;

  constructor(
    readonly queue: string,
    private readonly handler: MessageHandler<unknown>,
    private readonly options: ResolvedConsumeOptions,
    private readonly host: ConsumerHost,
    private readonly logger: Logger,
  ) {
    this.fromDeadQueue = sourceOfDeadQueue(queue) !== undefined;
  }

  isAttached(): boolean {
    return this.channel !== null;
  }

  isStopping(): boolean {
    return this.stopping !== null;
  }

  /** Opens a channel on the given connection and starts consuming; throws if the queue is unusable. */
  attach(model: ChannelModel): Promise<void> {
    if (this.stopping || this.channel) return Promise.resolve();
    // A reconnection and a re-attach timer may both try at once: one channel is enough.
    this.attaching ??= this.attachTo(model).finally(() => {
      this.attaching = null;
    });
    return this.attaching;
  }

  private async attachTo(model: ChannelModel): Promise<void> {
    const channel = await model.createChannel();
    let attached = false;
    channel.on('error', (err: Error) => this.logger.warn({ err, queue: this.queue }, 'consumer channel closed by the broker'));
    channel.on('close', () => {
      if (this.channel !== channel) return;
      this.channel = null;
      this.consumerTag = null;
      if (attached && !this.stopping) this.host.consumerLost(this);
    });
    this.channel = channel;
    try {
      await channel.prefetch(this.options.prefetch);
      const reply = await channel.consume(this.queue, (message) => this.onMessage(channel, message), { noAck: false });
      this.consumerTag = reply.consumerTag;
      attached = true;
    } catch (err) {
      this.channel = null;
      await channel.close().catch(() => undefined);
      throw err;
    }
    this.logger.debug({ queue: this.queue, prefetch: this.options.prefetch }, 'consumer started');
  }

  stop(): Promise<void> {
    this.stopping ??= this.stopNow();
    return this.stopping;
  }

  private async stopNow(): Promise<void> {
    await this.attaching?.catch(() => undefined);
    const channel = this.channel;
    const tag = this.consumerTag;
    if (channel && tag) await channel.cancel(tag).catch(() => undefined);
    await Promise.allSettled([...this.inFlight]);
    if (channel && this.channel === channel) {
      this.channel = null;
      await channel.close().catch(() => undefined);
    }
    this.host.consumerStopped(this);
    this.logger.debug({ queue: this.queue }, 'consumer stopped');
  }

  private onMessage(channel: Channel, message: ConsumeMessage | null): void {
    if (message === null) {
      // The broker cancelled the consumer (queue deleted, or a quorum queue leader moved).
      this.logger.warn({ queue: this.queue }, 'consumer cancelled by the broker');
      if (this.channel === channel) channel.close().catch(() => undefined);
      return;
    }
    const work = this.process(channel, message).catch((err: unknown) => {
      this.logger.error({ err, queue: this.queue }, 'settling a message failed');
    });
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async process(channel: Channel, message: ConsumeMessage): Promise<void> {
    const metadata = metadataOf(this.queue, message);
    const settlement = await handleDelivery({ content: message.content, metadata, fromDeadQueue: this.fromDeadQueue }, this.handler, this.options, this.logger);
    if (this.channel !== channel) {
      // The delivering channel died while the handler ran, so the broker has already requeued the
      // message; republishing a retry copy now would only duplicate it.
      this.logger.debug({ messageId: metadata.messageId, queue: this.queue }, 'channel gone before settlement; the broker redelivers');
      return;
    }
    await this.settle(channel, message, metadata, settlement);
  }

  private async settle(channel: Channel, message: ConsumeMessage, metadata: MessageMetadata, settlement: Settlement): Promise<void> {
    try {
      switch (settlement.kind) {
        case 'ack':
          break;
        case 'retry':
          await this.host.republish(retryQueueName(this.queue), message.content, {
            ...copyProperties(message.properties, metadata),
            headers: {
              ...cleanHeaders(message.properties.headers),
              [ATTEMPT_HEADER]: settlement.nextAttempt,
              [ORIGINAL_EXCHANGE_HEADER]: metadata.exchange,
              [ORIGINAL_ROUTING_KEY_HEADER]: metadata.routingKey,
              'x-retry-reason': truncate(settlement.reason),
            },
            expiration: String(settlement.delayMs),
          });
          this.logger.info({ messageId: metadata.messageId, queue: this.queue, attempt: metadata.attempt, reason: settlement.reason }, 'message scheduled for retry');
          break;
        case 'dead-letter':
          await this.host.republish(deadQueueName(this.queue), message.content, {
            ...copyProperties(message.properties, metadata),
            headers: {
              ...cleanHeaders(message.properties.headers),
              [ATTEMPT_HEADER]: metadata.attempt,
              [ORIGINAL_EXCHANGE_HEADER]: metadata.exchange,
              [ORIGINAL_ROUTING_KEY_HEADER]: metadata.routingKey,
              [DEAD_LETTER_REASON_HEADER]: truncate(settlement.reason),
            },
          });
          this.logger.warn({ messageId: metadata.messageId, queue: this.queue, attempt: metadata.attempt, reason: settlement.reason }, 'message dead-lettered');
          break;
        case 'requeue':
          await new Promise((resolve) => setTimeout(resolve, settlement.delayMs));
          channel.nack(message, false, true);
          return;
      }
    } catch (err) {
      // The copy may not have reached the broker: put the original back rather than lose it.
      this.logger.warn({ err, messageId: metadata.messageId, queue: this.queue }, 'could not republish; requeueing the message');
      settleQuietly(() => channel.nack(message, false, true));
      return;
    }
    settleQuietly(() => channel.ack(message));
  }
}

/** Acks and nacks on a channel that died are moot: the broker already requeued the message. */
function settleQuietly(settle: () => void): void {
  try {
    settle();
  } catch {
    // The channel closed while the handler ran; the broker redelivers the message.
  }
}

export function metadataOf(queueName: string, message: ConsumeMessage): MessageMetadata {
  const headers: Record<string, unknown> = { ...(message.properties.headers ?? {}) };
  const deadLetterReason = headers[DEAD_LETTER_REASON_HEADER];
  return {
    messageId: typeof message.properties.messageId === 'string' && message.properties.messageId !== '' ? message.properties.messageId : contentId(message.content),
    attempt: attemptFromHeader(headers[ATTEMPT_HEADER]),
    headers,
    exchange: stringHeader(headers[ORIGINAL_EXCHANGE_HEADER]) ?? message.fields.exchange,
    routingKey: stringHeader(headers[ORIGINAL_ROUTING_KEY_HEADER]) ?? message.fields.routingKey,
    queue: queueName,
    redelivered: message.fields.redelivered,
    ...(typeof deadLetterReason === 'string' ? { deadLetterReason } : {}),
  };
}

/** Messages published without an id (by foreign publishers) get one derived from their content, stable across redeliveries. */
function contentId(content: Buffer): string {
  return `sha256:${createHash('sha256').update(content).digest('hex')}`;
}

function stringHeader(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return undefined;
}

function cleanHeaders(headers: MessageProperties['headers']): Record<string, unknown> {
  const clean: Record<string, unknown> = { ...(headers ?? {}) };
  for (const header of BROKER_DEATH_HEADERS) delete clean[header];
  return clean;
}

function copyProperties(properties: MessageProperties, metadata: MessageMetadata): Omit<RepublishProperties, 'headers'> {
  return {
    messageId: metadata.messageId,
    ...(typeof properties.contentType === 'string' ? { contentType: properties.contentType } : {}),
    ...(typeof properties.timestamp === 'number' ? { timestamp: properties.timestamp } : {}),
  };
}

/** Reasons travel in headers, whose encoded table must stay small. */
function truncate(reason: string | undefined): string {
  const text = reason ?? '';
  return text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
}
