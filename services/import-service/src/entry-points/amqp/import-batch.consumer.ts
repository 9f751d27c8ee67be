import { ImportBatchJob, QUEUES } from '@destiny/contracts';
import type { Logger, MessageBus, MessageConsumer } from '@destiny/platform';
import { consumePerBatch } from './per-batch.consumer';

export function startImportBatchConsumer(
  bus: MessageBus,
  processBatch: (batchId: string) => Promise<void>,
  options: { logger: Logger; retryDelayMs: number; batchesAtOnce: number },
): Promise<MessageConsumer> {
  return consumePerBatch(bus, QUEUES.importServiceImportBatch, ImportBatchJob, processBatch, {
    logger: options.logger,
    retryDelayMs: options.retryDelayMs,
    prefetch: options.batchesAtOnce,
    what: 'import batch processing',
  });
}
