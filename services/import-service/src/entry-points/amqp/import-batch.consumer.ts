import { ImportBatchJob, QUEUES, validate } from '@destiny/contracts';
import { isTransientMongoError, type Logger, type MessageBus, type MessageConsumer } from '@destiny/platform';
import { ProcessingInterrupted } from '../../usecases/process-import-batch.usecase';

export function startImportBatchConsumer(bus: MessageBus, processBatch: (batchId: string) => Promise<void>, logger: Logger, retryDelayMs: number): Promise<MessageConsumer> {
  const running = new Set<string>();
  return bus.consume(
    QUEUES.importServiceImportBatch,
    async (message) => {
      const parsed = validate(ImportBatchJob, message, 'body');
      if (!parsed.ok) return { outcome: 'dead-letter', reason: 'not an ImportBatchJob' };
      const batchId = parsed.value.import_batch_id;
      // A second delivery while this process still works on the batch waits for its turn.
      if (running.has(batchId)) return { outcome: 'retry', reason: 'batch already in progress here' };
      running.add(batchId);
      try {
        await processBatch(batchId);
        return { outcome: 'ack' };
      } catch (error) {
        if (isTransientMongoError(error)) logger.warn({ err: error, import_batch_id: batchId }, 'the database is unavailable; the import batch resumes later');
        else if (!(error instanceof ProcessingInterrupted)) logger.error({ err: error, import_batch_id: batchId }, 'import batch processing failed; retrying');
        return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
      } finally {
        running.delete(batchId);
      }
    },
    { prefetch: 2, retryDelayMs, maxAttempts: 1000 },
  );
}
