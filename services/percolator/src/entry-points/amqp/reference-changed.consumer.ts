// Consumes `reference.changed` (queue `percolator.reference-changed`): messages handled
// concurrently are collected for up to `waitMs` or `maxBatch` events and percolated together;
// every message of a batch is acked once its pending enhancements were created, and the whole
// batch retried otherwise (creation is idempotent per chunk key, so a retry adds nothing twice).
import { QUEUES, ReferenceChangedEvent, validate } from '@destiny/contracts';
import type { HandlerOutcome, Logger, MessageBus, MessageConsumer } from '@destiny/platform';

export interface ReferenceChangedConsumerOptions {
  bus: MessageBus;
  logger: Logger;
  maxBatch: number;
  waitMs: number;
  percolate(events: ReferenceChangedEvent[]): Promise<unknown>;
}

const BATCHES_IN_FLIGHT = 4;
// Failures here are outages (Elasticsearch, robot-broker): retry for ~5 minutes before dead-lettering.
const RETRY_DELAY_MS = 3000;
const MAX_ATTEMPTS = 100;

interface Pending {
  event: ReferenceChangedEvent;
  settle(outcome: HandlerOutcome): void;
}

export async function startReferenceChangedConsumer(options: ReferenceChangedConsumerOptions): Promise<MessageConsumer> {
  let pending: Pending[] = [];
  let timer: NodeJS.Timeout | undefined;

  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    try {
      await options.percolate(batch.map((entry) => entry.event));
      for (const entry of batch) entry.settle({ outcome: 'ack' });
    } catch (error) {
      options.logger.warn({ err: error, events: batch.length }, 'percolating a batch failed; its events will be retried');
      for (const entry of batch) entry.settle({ outcome: 'retry', reason: error instanceof Error ? error.message : String(error) });
    }
  };

  return options.bus.consume(
    QUEUES.percolatorReferenceChanged,
    (message) => {
      const result = validate(ReferenceChangedEvent, message, 'body');
      if (!result.ok) {
        options.logger.error({ errors: result.errors }, 'malformed reference.changed event');
        return Promise.resolve({ outcome: 'dead-letter', reason: 'malformed reference.changed event' });
      }
      return new Promise<HandlerOutcome>((settle) => {
        pending.push({ event: result.value as ReferenceChangedEvent, settle });
        if (pending.length >= options.maxBatch) void flush();
        else timer ??= setTimeout(() => void flush(), options.waitMs);
      });
    },
    { prefetch: options.maxBatch * BATCHES_IN_FLIGHT, retryDelayMs: RETRY_DELAY_MS, maxAttempts: MAX_ATTEMPTS },
  );
}
