// Consumes `reference.changed` (queue `percolator.reference-changed`): messages handled
// concurrently are collected for up to `waitMs` or `maxBatch` events and percolated together;
// every message of a batch is acked once its pending enhancements were created, and the whole
// batch retried otherwise (creation is idempotent per chunk key, so a retry adds nothing twice).
import { compileSchema, QUEUES, ReferenceChangedEvent, validate } from '@destiny/contracts';
import { consumeInBatches, type Logger, type MessageBus, type MessageConsumer } from '@destiny/platform';

export interface ReferenceChangedConsumerOptions {
  bus: MessageBus;
  logger: Logger;
  maxBatch: number;
  waitMs: number;
  percolate(events: ReferenceChangedEvent[]): Promise<unknown>;
}

// Failures here are outages (Elasticsearch, robot-broker): retry for ~5 minutes before dead-lettering.
const RETRY_DELAY_MS = 3000;
const MAX_ATTEMPTS = 100;

export async function startReferenceChangedConsumer(options: ReferenceChangedConsumerOptions): Promise<MessageConsumer> {
  // Compiling the event schema takes a few hundred milliseconds: done before the first delivery waits for it.
  compileSchema(ReferenceChangedEvent);
  return consumeInBatches<ReferenceChangedEvent>(options.bus, QUEUES.percolatorReferenceChanged, {
    logger: options.logger,
    maxBatch: options.maxBatch,
    waitMs: options.waitMs,
    retryDelayMs: RETRY_DELAY_MS,
    maxAttempts: MAX_ATTEMPTS,
    failureMessage: 'percolating a batch failed; its events will be retried',
    accept(message) {
      const result = validate(ReferenceChangedEvent, message, 'body');
      if (result.ok) return { item: result.value as ReferenceChangedEvent };
      options.logger.error({ errors: result.errors }, 'malformed reference.changed event');
      return { outcome: { outcome: 'dead-letter', reason: 'malformed reference.changed event' } };
    },
    async handle(events) {
      await options.percolate(events);
    },
  });
}
