import { validate, type QueueName } from '@destiny/contracts';
import { isTransientMongoError, type Logger, type MessageBus, type MessageConsumer } from '@destiny/platform';
import { ProcessingInterrupted } from '../../usecases/process-import-batch.usecase';

/**
 * Consumes a work queue of jobs naming an import batch: one job per batch at a time in this
 * process (a second delivery waits for its turn), acknowledged once `work` is done and retried
 * when it throws (the database away, the process stopping, anything else logged as an error).
 */
export function consumePerBatch(
  bus: MessageBus,
  queue: QueueName,
  schema: Parameters<typeof validate>[0],
  work: (batchId: string) => Promise<void>,
  options: { logger: Logger; retryDelayMs: number; prefetch: number; what: string },
): Promise<MessageConsumer> {
  const running = new Set<string>();
  return bus.consume(
    queue,
    async (message) => {
      const parsed = validate(schema, message, 'body');
      if (!parsed.ok) return { outcome: 'dead-letter', reason: `not a ${String((schema as { $id?: string }).$id ?? 'valid job')}` };
      const batchId = (parsed.value as { import_batch_id: string }).import_batch_id;
      if (running.has(batchId)) return { outcome: 'retry', reason: `${options.what} already in progress here` };
      running.add(batchId);
      try {
        await work(batchId);
        return { outcome: 'ack' };
      } catch (error) {
        if (isTransientMongoError(error)) options.logger.warn({ err: error, import_batch_id: batchId }, `the database is unavailable; the ${options.what} resumes later`);
        else if (!(error instanceof ProcessingInterrupted)) options.logger.error({ err: error, import_batch_id: batchId }, `${options.what} failed; retrying`);
        return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
      } finally {
        running.delete(batchId);
      }
    },
    { prefetch: options.prefetch, retryDelayMs: options.retryDelayMs, maxAttempts: 1000 },
  );
}
