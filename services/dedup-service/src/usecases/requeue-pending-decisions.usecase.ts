import { QUEUES, uuidv7, type DeduplicationJob } from '@destiny/contracts';
import type { Logger, MessageBus } from '@destiny/platform';
import type { DecisionRepository } from '../data-access/decision.repository';

const JOB_SIZE = 500;

/**
 * Queues again every decision still pending after `staleMs`: its job may never have been sent (a
 * crash between storing the decision and sending) or may have been dead-lettered. Processing is
 * idempotent, so a decision queued twice is decided once.
 */
export function startPendingDecisionSweeper(deps: { decisions: DecisionRepository; bus: MessageBus; logger: Logger; staleMs: number; intervalMs: number }) {
  let stopped = false;
  let running: Promise<void> | undefined;
  const sweep = async () => {
    const cutoff = new Date(Date.now() - deps.staleMs);
    const stale = await deps.decisions.decisions
      .find({ duplicate_determination: 'pending', updated_at: { $lt: cutoff } }, { projection: { _id: 1, reference_id: 1 } })
      .limit(10 * JOB_SIZE)
      .toArray();
    for (let start = 0; start < stale.length && !stopped; start += JOB_SIZE) {
      const group = stale.slice(start, start + JOB_SIZE);
      const job: DeduplicationJob = { job_id: uuidv7(), reference_ids: group.map((row) => row.reference_id), decision_ids: group.map((row) => row._id) };
      await deps.decisions.decisions.updateMany({ _id: { $in: group.map((row) => row._id) }, duplicate_determination: 'pending' }, { $set: { updated_at: new Date() } });
      await deps.bus.sendToQueue(QUEUES.dedupServiceDeduplication, job, { messageId: job.job_id });
    }
    if (stale.length > 0) deps.logger.info({ decisions: stale.length }, 'queued stale pending duplicate decisions again');
  };
  const timer = setInterval(() => {
    if (running) return;
    running = sweep()
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'pending decision sweep failed'))
      .finally(() => {
        running = undefined;
      });
  }, deps.intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
    },
  };
}
