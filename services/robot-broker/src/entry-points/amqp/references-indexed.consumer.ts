import { QUEUES, ReferencesIndexedEvent, validate } from '@destiny/contracts';
import type { Logger, MessageBus, MessageConsumer } from '@destiny/platform';
import type { IndexedVersionRepository } from '../../data-access/indexed-version.repository';
import type { PendingEnhancementRepository } from '../../data-access/pending-enhancement.repository';

/**
 * `references.indexed`: records the versions that became searchable and completes the indexing
 * pending enhancements waiting for them (or older versions); those waiting for a version the
 * index refused become `indexing_failed`. Every write only moves rows out of `indexing`, so
 * redelivery changes nothing.
 */
export function startReferencesIndexedConsumer(bus: MessageBus, deps: { indexed: IndexedVersionRepository; pending: PendingEnhancementRepository }, logger: Logger): Promise<MessageConsumer> {
  return bus.consume(
    QUEUES.robotBrokerReferencesIndexed,
    async (message) => {
      const parsed = validate(ReferencesIndexedEvent, message, 'body');
      if (!parsed.ok) return { outcome: 'dead-letter', reason: 'not a ReferencesIndexedEvent' };
      try {
        await deps.indexed.record(parsed.value.items);
        await deps.pending.completeIndexed(parsed.value.items);
        await deps.pending.failIndexed(parsed.value.failed ?? []);
        return { outcome: 'ack' };
      } catch (error) {
        logger.warn({ err: error }, 'references.indexed handling failed; retrying');
        return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
      }
    },
    { prefetch: 20, retryDelayMs: 1000, maxAttempts: 100 },
  );
}
