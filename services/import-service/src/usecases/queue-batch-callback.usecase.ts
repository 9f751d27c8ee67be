import { QUEUES, uuidv7, type ImportBatchCallbackJob } from '@destiny/contracts';
import type { MessageBus } from '@destiny/platform';
import type { ImportBatchDocument, ImportRepository } from '../data-access/import.repository';
import { batchStatus, isTerminalBatchStatus } from '../domain/batch-status';

/**
 * Queues a terminal batch's callback (§8.8) on its own work queue instead of sending it here, so
 * a slow or silent receiver holds a callback slot, not one of the slots importing files. A job
 * delivered twice (this process died after queueing it) finds the callback already settled.
 */
export function createQueueBatchCallback(deps: { repository: ImportRepository; bus: MessageBus }) {
  return async (batch: ImportBatchDocument): Promise<void> => {
    if (!batch.callback_url || batch.callback_outcome) return;
    if (!isTerminalBatchStatus(batchStatus(await deps.repository.resultStatuses(batch._id), batch.file_state))) return;
    const job: ImportBatchCallbackJob = { job_id: uuidv7(), import_batch_id: batch._id };
    await deps.bus.sendToQueue(QUEUES.importServiceBatchCallback, job, { messageId: job.job_id });
  };
}
