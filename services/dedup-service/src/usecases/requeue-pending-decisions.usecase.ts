import { QUEUES, uuidv7, type DeduplicationJob } from '@destiny/contracts';
import type { Logger, MessageBus } from '@destiny/platform';
import type { DecisionRepository } from '../data-access/decision.repository';
import type { ReferenceRepository } from '../data-access/reference.repository';
import { DEDUPLICATION_JOB_SIZE } from './process-deduplication.usecase';

/**
 * Queues again every decision still pending after `staleMs` (after reconciling the decisions a
 * stopped commit left unactivated as long): its job may never have been sent (a crash between
 * storing the decision and sending) or may have been dead-lettered. Processing is
 * idempotent, so a decision queued twice is decided once. A stale pending decision whose reference
 * was never stored (ingestion writes the decision first and stopped before the reference; sent
 * again, it mints new ids) is deleted instead: there is nothing to decide, and it would be queued
 * again forever.
 */
export function startPendingDecisionSweeper(deps: {
  decisions: DecisionRepository;
  references: Pick<ReferenceRepository, 'existing'>;
  bus: MessageBus;
  logger: Logger;
  staleMs: number;
  intervalMs: number;
  /**
   * The lane ingestion writes in: orphans are told apart there, where no ingest is between its
   * pending decisions and its references (which a slow one could be past any grace period).
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** Finishes the activations of decisions a stopped commit left (reconcile-decision-activations), stale since the cutoff. */
  reconcileActivations?(cutoff: Date): Promise<unknown>;
}) {
  let stopped = false;
  let running: Promise<void> | undefined;
  const sweep = async () => {
    const cutoff = new Date(Date.now() - deps.staleMs);
    await deps.reconcileActivations?.(cutoff);
    const found = await deps.decisions.decisions
      .find({ duplicate_determination: 'pending', updated_at: { $lt: cutoff } }, { projection: { _id: 1, reference_id: 1 } })
      .limit(10 * DEDUPLICATION_JOB_SIZE)
      .toArray();
    const stored = await deps.exclusive(async () => {
      const existing = await deps.references.existing([...new Set(found.map((row) => row.reference_id))]);
      const orphans = found.filter((row) => !existing.has(row.reference_id)).map((row) => row._id);
      if (orphans.length > 0) {
        await deps.decisions.decisions.deleteMany({ _id: { $in: orphans }, duplicate_determination: 'pending', updated_at: { $lt: cutoff } });
        deps.logger.info({ decisions: orphans.length }, 'deleted stale pending duplicate decisions of references never stored');
      }
      return existing;
    });
    const stale = found.filter((row) => stored.has(row.reference_id));
    for (let start = 0; start < stale.length && !stopped; start += DEDUPLICATION_JOB_SIZE) {
      const group = stale.slice(start, start + DEDUPLICATION_JOB_SIZE);
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
