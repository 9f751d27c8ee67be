import { ImportBatchCallbackJob, QUEUES, validate } from '@destiny/contracts';
import { isTransientMongoError, type Logger, type MessageBus, type MessageConsumer } from '@destiny/platform';
import { ProcessingInterrupted } from '../../usecases/process-import-batch.usecase';

/** Callbacks wait on other parties' servers, not on this one: many run at once. */
const CALLBACKS_AT_ONCE = 32;

export function startBatchCallbackConsumer(bus: MessageBus, sendCallback: (batchId: string) => Promise<void>, logger: Logger, retryDelayMs: number): Promise<MessageConsumer> {
  const running = new Set<string>();
  return bus.consume(
    QUEUES.importServiceBatchCallback,
    async (message) => {
      const parsed = validate(ImportBatchCallbackJob, message, 'body');
      if (!parsed.ok) return { outcome: 'dead-letter', reason: 'not an ImportBatchCallbackJob' };
      const batchId = parsed.value.import_batch_id;
      // This process's lease covers all its deliveries: a second job for a batch it is sending waits for the first.
      if (running.has(batchId)) return { outcome: 'retry', reason: 'callback already in progress here' };
      running.add(batchId);
      try {
        await sendCallback(batchId);
        return { outcome: 'ack' };
      } catch (error) {
        if (isTransientMongoError(error)) logger.warn({ err: error, import_batch_id: batchId }, 'the database is unavailable; the batch callback is sent later');
        else if (!(error instanceof ProcessingInterrupted)) logger.error({ err: error, import_batch_id: batchId }, 'batch callback failed; retrying');
        return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
      } finally {
        running.delete(batchId);
      }
    },
    { prefetch: CALLBACKS_AT_ONCE, retryDelayMs, maxAttempts: 1000 },
  );
}
