// Consumes `reference.changed`: messages handled concurrently are collected for up to `waitMs` or
// `maxBatch` events and indexed with one `_bulk`; every message of the batch is acked only after
// the bulk and the `references.indexed` confirm succeeded. The prefetch is several batches, so
// new batches fill while earlier ones are being indexed (on Elasticsearch a `refresh=wait_for`
// bulk waits up to the refresh interval, so one batch at a time would cap the rate at ~1/s).
import { QUEUES, ReferenceChangedEvent, validate } from '@destiny/contracts';
import type { HandlerOutcome, MessageBus, MessageConsumer } from '@destiny/platform';
import type { Logger } from '@destiny/platform';

export interface ReferenceChangedConsumerOptions {
  bus: MessageBus;
  logger: Logger;
  maxBatch: number;
  waitMs: number;
  /** Indexes a batch; answers the references Elasticsearch refused for good, with the reason. */
  index(events: ReferenceChangedEvent[]): Promise<{ rejected: Map<string, string> }>;
}

const BATCHES_IN_FLIGHT = 4;

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
      const { rejected } = await options.index(batch.map((entry) => entry.event));
      for (const entry of batch) {
        const reason = rejected.get(entry.event.reference_id);
        if (reason === undefined) entry.settle({ outcome: 'ack' });
        else {
          // One unindexable document must not hold back (or retry) the rest of its batch.
          options.logger.error({ reference_id: entry.event.reference_id, version: entry.event.version, reason }, 'search index refused a reference');
          entry.settle({ outcome: 'dead-letter', reason: `search index refused the document: ${reason}` });
        }
      }
    } catch (error) {
      options.logger.warn({ err: error, events: batch.length }, 'indexing a batch failed; its events will be retried');
      for (const entry of batch) entry.settle({ outcome: 'retry', reason: error instanceof Error ? error.message : String(error) });
    }
  };

  return options.bus.consume(
    QUEUES.searchRequestServiceReferenceChanged,
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
    { prefetch: options.maxBatch * BATCHES_IN_FLIGHT, retryDelayMs: 1000 },
  );
}
