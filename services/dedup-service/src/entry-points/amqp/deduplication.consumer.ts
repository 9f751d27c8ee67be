import { DeduplicationJob, QUEUES, validate } from '@destiny/contracts';
import type { MessageBus, MessageConsumer } from '@destiny/platform';
import type { Logger } from '@destiny/platform';
import type { createProcessDeduplication } from '../../usecases/process-deduplication.usecase';

export function startDeduplicationConsumer(bus: MessageBus, process: ReturnType<typeof createProcessDeduplication>, logger: Logger): Promise<MessageConsumer> {
  return bus.consume(
    QUEUES.dedupServiceDeduplication,
    async (message) => {
      const parsed = validate(DeduplicationJob, message, 'body');
      if (!parsed.ok) return { outcome: 'dead-letter', reason: 'not a DeduplicationJob' };
      try {
        await process(parsed.value);
        return { outcome: 'ack' };
      } catch (error) {
        logger.warn({ err: error, job_id: parsed.value.job_id }, 'deduplication job failed; retrying');
        return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
      }
    },
    { prefetch: 4, retryDelayMs: 1000, maxAttempts: 10 },
  );
}
