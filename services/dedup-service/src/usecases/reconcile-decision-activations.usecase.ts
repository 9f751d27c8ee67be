import type { Logger } from '@destiny/platform';
import type { AnyBulkWriteOperation } from 'mongodb';
import { activeDecisionWrites, type DecisionDocument, type DecisionRepository } from '../data-access/decision.repository';
import type { ReferenceRepository } from '../data-access/reference.repository';

const BATCH = 1000;

/**
 * Finishes what a decision commit that stopped between storing new decisions and activating them
 * left (a killed process; a manual decision's caller told 503): a new decision its reference carries
 * is activated and the reference's others deactivated, as the commit would have done; one its
 * reference does not carry never took effect and stays inactive. Runs in the decision lane, so no
 * commit is half-way meanwhile.
 */
export function createReconcileDecisionActivations(deps: {
  decisions: DecisionRepository;
  references: Pick<ReferenceRepository, 'summaries'>;
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  logger: Logger;
}) {
  const staleSince = (cutoff: Date) => deps.decisions.activations.find({ created_at: { $lt: cutoff } }).limit(BATCH).toArray();
  return async function reconcileDecisionActivations(cutoff: Date): Promise<number> {
    if ((await staleSince(cutoff)).length === 0) return 0;
    return deps.exclusive(async () => {
      // Read again in the lane: a commit that was still running has finished and removed its own.
      const stale = await staleSince(cutoff);
      if (stale.length === 0) return 0;
      const carried = new Map((await deps.references.summaries([...new Set(stale.map((item) => item.reference_id))])).map((row) => [row._id, row.active_decision?.decision_id ?? null]));
      const taken = stale.filter((item) => carried.get(item.reference_id) === item._id);
      const untaken = stale.filter((item) => carried.get(item.reference_id) !== item._id);
      const now = new Date();
      const operations: AnyBulkWriteOperation<DecisionDocument>[] = [
        ...activeDecisionWrites(
          new Map(taken.map((item) => [item.reference_id, item._id])),
          taken.map((item) => item._id),
          now,
        ),
        ...(untaken.length > 0 ? [{ updateMany: { filter: { _id: { $in: untaken.map((item) => item._id) }, active_decision: true }, update: { $set: { active_decision: false, updated_at: now } } } }] : []),
      ];
      if (operations.length > 0) await deps.decisions.decisions.bulkWrite(operations, { ordered: false });
      await deps.decisions.endActivations(stale.map((item) => item._id));
      deps.logger.warn({ activated: taken.length, left_inactive: untaken.length }, 'reconciled duplicate decisions a stopped commit left unactivated');
      return stale.length;
    });
  };
}
