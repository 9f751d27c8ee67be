import type { Logger, OutboundHttpClient } from '@destiny/platform';
import type { ImportBatchDocument, ImportRepository } from '../data-access/import.repository';
import { isTerminalBatchStatus } from '../domain/batch-status';
import type { ImportRecordUsecases } from './import-records.usecase';
import { backoffMs, sleep } from './process-import-batch.usecase';

/**
 * POSTs the batch summary to `callback_url` once the batch is terminal (§8.8): claimed first so it
 * fires at most once per batch, retried on errors and non-2xx answers, then logged and dropped.
 */
export function createSendBatchCallback(deps: { repository: ImportRepository; records: ImportRecordUsecases; outbound: OutboundHttpClient; logger: Logger; attempts: number; retryBaseMs: number }) {
  return async (batch: ImportBatchDocument): Promise<void> => {
    if (!batch.callback_url) return;
    const summary = await deps.records.summaryOf(batch);
    if (!isTerminalBatchStatus(summary.import_batch_status)) return;
    const claimed = await deps.repository.setBatch(batch._id, { callback_claimed: true }, { callback_claimed: false });
    if (!claimed) return;
    const body = JSON.stringify(summary);
    for (let attempt = 1; attempt <= deps.attempts; attempt += 1) {
      try {
        const response = await deps.outbound.request({ url: batch.callback_url, method: 'POST', headers: { 'content-type': 'application/json' }, body, maxBytes: 1024 * 1024, timeoutMs: 30_000 });
        if (response.status >= 200 && response.status < 300) return;
        deps.logger.warn({ import_batch_id: batch._id, status: response.status, attempt }, 'import callback answered non-2xx');
      } catch (error) {
        deps.logger.warn({ import_batch_id: batch._id, err: error, attempt }, 'import callback failed');
      }
      if (attempt < deps.attempts) await sleep(backoffMs(attempt, deps.retryBaseMs, 30_000));
    }
    deps.logger.error({ import_batch_id: batch._id, callback_url: batch.callback_url }, 'import callback dropped after retries');
  };
}
