import { ImportBatchCallbackJob, QUEUES } from '@destiny/contracts';
import type { Logger, MessageBus, MessageConsumer } from '@destiny/platform';
import { consumePerBatch } from './per-batch.consumer';

/** Callbacks wait on other parties' servers, not on this one: many run at once. */
const CALLBACKS_AT_ONCE = 32;

/** One callback per batch at a time here: this process's lease covers all its deliveries, so a second job for a batch waits for the first. */
export function startBatchCallbackConsumer(bus: MessageBus, sendCallback: (batchId: string) => Promise<void>, logger: Logger, retryDelayMs: number): Promise<MessageConsumer> {
  return consumePerBatch(bus, QUEUES.importServiceBatchCallback, ImportBatchCallbackJob, sendCallback, { logger, retryDelayMs, prefetch: CALLBACKS_AT_ONCE, what: 'batch callback' });
}
