import { uuidv7 } from '@destiny/contracts';
import type { Logger, OutboundHttpClient } from '@destiny/platform';
import type { ImportBatchDocument, ImportRepository } from '../data-access/import.repository';
import { isTerminalBatchStatus } from '../domain/batch-status';
import type { ImportRecordUsecases } from './import-records.usecase';
import { backoffMs, ProcessingInterrupted, sleep } from './process-import-batch.usecase';

const RETRY_MAX_MS = 30_000;

/**
 * POSTs the batch summary to `callback_url` once the batch is terminal (§8.8), retried on errors
 * and non-2xx answers, then logged and dropped. Sent under a lease on the batch, so one process
 * sends it at a time; a process that dies while sending leaves it to the job's next delivery once
 * the lease runs out. At least once, then: a receiver may see it twice when the sender died after
 * the receiver answered and before the outcome was recorded.
 */
export function createSendBatchCallback(deps: {
  repository: ImportRepository;
  records: ImportRecordUsecases;
  outbound: OutboundHttpClient;
  logger: Logger;
  attempts: number;
  retryBaseMs: number;
  timeoutMs: number;
  isStopping(): boolean;
}) {
  const owner = uuidv7();
  /** A lease long enough for one attempt and the back-off after it, with a margin of one more attempt. */
  const leaseFor = (attempt: number) => ({ owner, expires_at: new Date(Date.now() + 2 * deps.timeoutMs + backoffMs(attempt, deps.retryBaseMs, RETRY_MAX_MS)) });

  /** Takes or renews the lease; false when the callback was sent meanwhile or another live process holds it. */
  async function lease(batch: ImportBatchDocument, attempt: number): Promise<boolean> {
    return deps.repository.setBatch(batch._id, { callback_lease: leaseFor(attempt) }, { callback_outcome: null, $or: [{ callback_lease: null }, { 'callback_lease.owner': owner }, { 'callback_lease.expires_at': { $lte: new Date() } }] });
  }

  return async (batch: ImportBatchDocument): Promise<void> => {
    if (!batch.callback_url) return;
    const summary = await deps.records.summaryOf(batch);
    if (!isTerminalBatchStatus(summary.import_batch_status)) return;
    // Another process holds the lease: it sends the callback, or it died and its lease runs out.
    while (!(await lease(batch, 1))) {
      const current = await deps.repository.batches.findOne({ _id: batch._id }, { projection: { callback_outcome: 1, callback_lease: 1 } });
      if (!current || current.callback_outcome !== null) return;
      if (deps.isStopping()) throw new ProcessingInterrupted('import-service is stopping');
      const remaining = (current.callback_lease?.expires_at.getTime() ?? 0) - Date.now();
      await sleep(Math.min(Math.max(remaining, 20), 1000));
    }
    const body = JSON.stringify(summary);
    let outcome: 'delivered' | 'dropped' = 'dropped';
    for (let attempt = 1; attempt <= deps.attempts; attempt += 1) {
      // Paused past the lease, this process may have been replaced: then the other one sends it.
      if (attempt > 1 && !(await lease(batch, attempt))) return;
      try {
        const response = await deps.outbound.request({ url: batch.callback_url, method: 'POST', headers: { 'content-type': 'application/json' }, body, maxBytes: 1024 * 1024, timeoutMs: deps.timeoutMs });
        if (response.status >= 200 && response.status < 300) {
          outcome = 'delivered';
          break;
        }
        deps.logger.warn({ import_batch_id: batch._id, status: response.status, attempt }, 'import callback answered non-2xx');
      } catch (error) {
        deps.logger.warn({ import_batch_id: batch._id, err: error, attempt }, 'import callback failed');
      }
      if (attempt < deps.attempts) await sleep(backoffMs(attempt, deps.retryBaseMs, RETRY_MAX_MS));
    }
    if (outcome === 'dropped') deps.logger.error({ import_batch_id: batch._id, callback_url: batch.callback_url }, 'import callback dropped after retries');
    await deps.repository.setBatch(batch._id, { callback_outcome: outcome, callback_lease: null }, { 'callback_lease.owner': owner });
  };
}
