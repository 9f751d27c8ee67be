import type { Logger } from 'pino';
import type { ConsumeOptions, HandlerOutcome, MessageBus, MessageConsumer } from './message-bus';

export interface BatchConsumerOptions<T> {
  logger: Logger;
  /** A batch is handled once it holds this many items, or `waitMs` after its first one arrived. */
  maxBatch: number;
  waitMs: number;
  /** Batches filling while earlier ones are handled; the prefetch is `maxBatch` times this. Default 4. */
  batchesInFlight?: number;
  retryDelayMs?: number;
  maxAttempts?: number;
  /** Turns a message into a batch item, or answers its outcome at once (a malformed message). */
  accept(message: unknown): { item: T } | { outcome: HandlerOutcome };
  /**
   * Handles one batch. Resolves with one outcome per item (same order), or nothing to ack them
   * all; a throw retries every message of the batch, so handling must be idempotent.
   */
  handle(items: T[]): Promise<HandlerOutcome[] | void>;
  /** Logged with the error when a batch throws. */
  failureMessage: string;
}

/**
 * Consumes `queue` in batches: messages handled concurrently are collected until the batch is full
 * or `waitMs` passed, handled together, and each message settled with its own outcome.
 */
export function consumeInBatches<T>(bus: MessageBus, queue: string, options: BatchConsumerOptions<T>): Promise<MessageConsumer> {
  let pending: Array<{ item: T; settle(outcome: HandlerOutcome): void }> = [];
  let timer: NodeJS.Timeout | undefined;

  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      const outcomes = await options.handle(batch.map((entry) => entry.item));
      batch.forEach((entry, position) => entry.settle(outcomes?.[position] ?? { outcome: 'ack' }));
    } catch (error) {
      options.logger.warn({ err: error, events: batch.length }, options.failureMessage);
      for (const entry of batch) entry.settle({ outcome: 'retry', reason: error instanceof Error ? error.message : String(error) });
    }
  };

  const consumeOptions: ConsumeOptions = { prefetch: options.maxBatch * (options.batchesInFlight ?? 4) };
  if (options.retryDelayMs !== undefined) consumeOptions.retryDelayMs = options.retryDelayMs;
  if (options.maxAttempts !== undefined) consumeOptions.maxAttempts = options.maxAttempts;
  return bus.consume(
    queue,
    (message) => {
      const accepted = options.accept(message);
      if ('outcome' in accepted) return Promise.resolve(accepted.outcome);
      return new Promise<HandlerOutcome>((settle) => {
        pending.push({ item: accepted.item, settle });
        if (pending.length >= options.maxBatch) void flush();
        else timer ??= setTimeout(() => void flush(), options.waitMs);
      });
    },
    consumeOptions,
  );
}
