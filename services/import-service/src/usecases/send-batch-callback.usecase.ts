import { uuidv7 } from '@destiny/contracts';
import { OutboundRequestError, type Logger, type OutboundHttpClient } from '@destiny/platform';
import type { ImportBatchDocument, ImportRepository } from '../data-access/import.repository';
import { isTerminalBatchStatus } from '../domain/batch-status';
import type { ImportRecordUsecases } from './import-records.usecase';
import { backoffMs, ProcessingInterrupted, sleep } from './process-import-batch.usecase';

const RETRY_MAX_MS = 30_000;

/**
 * POSTs the batch summary to `callback_url` once the batch is terminal (§8.8), retried on non-2xx
 * answers and on errors before the request went out, then logged and dropped. At most once (§8.8):
 * a POST sent whole but not answered (a timeout, a reset) is not sent again, and the batch records
 * each POST before it starts, so a POST whose answer was never recorded is not sent again either.
 * It is sent under a lease on the batch, so one process sends it at a time, and a process that
 * dies before a POST or between two leaves the rest to the callback job's next delivery once its
 * lease has run out.
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
  /** Long enough for one POST and the back-off after it, with a margin of one more POST. */
  const leaseFor = (attempt: number) => ({ owner, expires_at: new Date(Date.now() + 2 * deps.timeoutMs + backoffMs(attempt, deps.retryBaseMs, RETRY_MAX_MS)) });
  const setIfHeld = (batch: ImportBatchDocument, fields: Partial<ImportBatchDocument>) => deps.repository.setBatch(batch._id, fields, { 'callback_lease.owner': owner });

  /** Takes the lease; false when another live process holds it. */
  function takeLease(batch: ImportBatchDocument): Promise<boolean> {
    return deps.repository.setBatch(batch._id, { callback_lease: leaseFor(1) }, { callback_outcome: null, $or: [{ callback_lease: null }, { 'callback_lease.owner': owner }, { 'callback_lease.expires_at': { $lte: new Date() } }] });
  }

  async function finish(batch: ImportBatchDocument, outcome: 'delivered' | 'dropped'): Promise<void> {
    await setIfHeld(batch, { callback_outcome: outcome, callback_in_flight: false, callback_lease: null });
  }

  return async (batchId: string): Promise<void> => {
    const batch = await deps.repository.batches.findOne({ _id: batchId });
    if (!batch?.callback_url || batch.callback_outcome) return;
    const summary = await deps.records.summaryOf(batch);
    if (!isTerminalBatchStatus(summary.import_batch_status)) return;
    // Another process holds the lease: it sends the callback, or it died and its lease runs out.
    while (!(await takeLease(batch))) {
      const current = await deps.repository.batches.findOne({ _id: batch._id }, { projection: { callback_outcome: 1, callback_lease: 1 } });
      if (!current || current.callback_outcome !== null) return;
      if (deps.isStopping()) throw new ProcessingInterrupted('import-service is stopping');
      const remaining = (current.callback_lease?.expires_at.getTime() ?? 0) - Date.now();
      await sleep(Math.min(Math.max(remaining, 20), 1000));
    }
    const state = await deps.repository.batches.findOne({ _id: batch._id }, { projection: { callback_attempts: 1, callback_in_flight: 1 } });
    if (state?.callback_in_flight) {
      deps.logger.error({ import_batch_id: batch._id, callback_url: batch.callback_url }, 'import callback sender died during a POST that may have arrived; not sent again (at most once)');
      return finish(batch, 'dropped');
    }
    const body = JSON.stringify(summary);
    for (let attempt = (state?.callback_attempts ?? 0) + 1; attempt <= deps.attempts; attempt += 1) {
      // Paused past the lease, this process may have been replaced: then the other one goes on.
      if (!(await setIfHeld(batch, { callback_lease: leaseFor(attempt), callback_attempts: attempt, callback_in_flight: true }))) return;
      try {
        // The status is the answer: the body is not read, so a 2xx with a body of any size is delivered.
        const response = await deps.outbound.stream({ url: batch.callback_url, method: 'POST', headers: { 'content-type': 'application/json' }, body, timeoutMs: deps.timeoutMs });
        response.body.destroy();
        if (response.status >= 200 && response.status < 300) return finish(batch, 'delivered');
        deps.logger.warn({ import_batch_id: batch._id, status: response.status, attempt }, 'import callback answered non-2xx');
      } catch (error) {
        if (error instanceof OutboundRequestError && error.requestSent) {
          // Sent whole and then no answer (a timeout, a reset): it may have arrived, so it is not sent again (at most once).
          deps.logger.error({ import_batch_id: batch._id, err: error, attempt, callback_url: batch.callback_url }, 'import callback sent but not answered; not sent again (at most once)');
          return finish(batch, 'dropped');
        }
        deps.logger.warn({ import_batch_id: batch._id, err: error, attempt }, 'import callback failed');
      }
      if (attempt < deps.attempts) {
        if (!(await setIfHeld(batch, { callback_in_flight: false }))) return;
        await sleep(backoffMs(attempt, deps.retryBaseMs, RETRY_MAX_MS));
      }
    }
    deps.logger.error({ import_batch_id: batch._id, callback_url: batch.callback_url }, 'import callback dropped after retries');
    await finish(batch, 'dropped');
  };
}
