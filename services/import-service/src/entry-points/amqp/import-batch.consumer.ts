import { ImportBatchJob, QUEUES } from '@destiny/contracts';
import type { Logger, MessageBus, MessageConsumer } from '@destiny/platform';
import { consumePerBatch } from './per-batch.consumer';

export function startImportBatchConsumer(bus: MessageBus, processBatch: (batchId: string) => Promise<void>, logger: Logger, retryDelayMs: number): Promise<MessageConsumer> {
  return consumePerBatch(bus, QUEUES.importServiceImportBatch, ImportBatchJob, processBatch, { logger, retryDelayMs, prefetch: 2, what: 'import batch processing' });
}
