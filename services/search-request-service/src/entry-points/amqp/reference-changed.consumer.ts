// Consumes `reference.changed`: messages handled concurrently are collected for up to `waitMs` or
// `maxBatch` events and indexed with one `_bulk`; every message of the batch is acked only after
// the bulk and the `references.indexed` confirm succeeded. The prefetch is several batches, so
// new batches fill while earlier ones are being indexed (on Elasticsearch a `refresh=wait_for`
// bulk waits up to the refresh interval, so one batch at a time would cap the rate at ~1/s).
import { QUEUES, ReferenceChangedEvent, validate } from '@destiny/contracts';
import { consumeInBatches, type HandlerOutcome, type Logger, type MessageBus, type MessageConsumer } from '@destiny/platform';

export interface ReferenceChangedConsumerOptions {
  bus: MessageBus;
  logger: Logger;
  maxBatch: number;
  waitMs: number;
  /** Indexes a batch; answers the references Elasticsearch refused for good, with the reason. */
  index(events: ReferenceChangedEvent[]): Promise<{ rejected: Map<string, string> }>;
}

export async function startReferenceChangedConsumer(options: ReferenceChangedConsumerOptions): Promise<MessageConsumer> {
  return consumeInBatches<ReferenceChangedEvent>(options.bus, QUEUES.searchRequestServiceReferenceChanged, {
    logger: options.logger,
    maxBatch: options.maxBatch,
    waitMs: options.waitMs,
    retryDelayMs: 1000,
    failureMessage: 'indexing a batch failed; its events will be retried',
    accept(message) {
      const result = validate(ReferenceChangedEvent, message, 'body');
      if (result.ok) return { item: result.value as ReferenceChangedEvent };
      options.logger.error({ errors: result.errors }, 'malformed reference.changed event');
      return { outcome: { outcome: 'dead-letter', reason: 'malformed reference.changed event' } };
    },
    async handle(events) {
      const { rejected } = await options.index(events);
      return events.map((event): HandlerOutcome => {
        const reason = rejected.get(event.reference_id);
        if (reason === undefined) return { outcome: 'ack' };
        // One unindexable document must not hold back (or retry) the rest of its batch.
        options.logger.error({ reference_id: event.reference_id, version: event.version, reason }, 'search index refused a reference');
        return { outcome: 'dead-letter', reason: `search index refused the document: ${reason}` };
      });
    },
  });
}
