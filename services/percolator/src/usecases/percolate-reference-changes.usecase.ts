// Percolation of a batch of `reference.changed` events (§13.2, §13.4): the documents of every
// event that triggers automations go to Elasticsearch in one `_search` (`percolate.documents`);
// matches are merged per robot, a robot's matches on changes its own batch caused are skipped
// (cycle check), and robot-broker creates the pending enhancements of the whole batch in one call,
// keyed per (source, robot, reference) so a redelivered event creates nothing again.
import type { ReferenceChangedEvent } from '@destiny/contracts';
import type { Logger, PendingEnhancementItem, RobotBrokerPort } from '@destiny/platform';
import type { Client } from '@elastic/elasticsearch';
import { planPercolation, type PercolationTask } from '../domain/percolation-document';
import { percolate, TooManyMatchesError, type PercolatorMatch } from '../data-access/percolator-index';

export interface PercolationDeps {
  es: Client;
  robots: Pick<RobotBrokerPort, 'createPendingEnhancementItems'>;
  logger: Logger;
  /** The `enable_percolation` feature flag (§13.2); false matches nothing. */
  enabled?: boolean;
}

export interface PercolationOutcome {
  percolated: number;
  /** Pending enhancements asked for: (robot, reference) pairs after merging. */
  dispatched: number;
  created: number;
  /** robot-broker calls made (one per batch unless it exceeds MAX_ITEMS_PER_CALL items). */
  calls: number;
  skippedByCycleCheck: number;
  percolateMs: number;
  dispatchMs: number;
}

/** Items per robot-broker call: keeps a call well below gRPC's 4 MB message limit (~150 bytes an item). */
const MAX_ITEMS_PER_CALL = 5000;

/** Percolates the documents, halving a part whose matches exceed one response (slots stay batch positions). */
async function percolateInParts(es: Client, documents: PercolationTask['document'][], offset = 0): Promise<PercolatorMatch[]> {
  try {
    const matches = await percolate(es, documents);
    return offset === 0 ? matches : matches.map((match) => ({ ...match, slots: match.slots.map((slot) => slot + offset) }));
  } catch (error) {
    if (!(error instanceof TooManyMatchesError) || documents.length === 1) throw error;
    const half = Math.ceil(documents.length / 2);
    return [...(await percolateInParts(es, documents.slice(0, half), offset)), ...(await percolateInParts(es, documents.slice(half), offset + half))];
  }
}

export async function percolateReferenceChanges(deps: PercolationDeps, events: readonly ReferenceChangedEvent[]): Promise<PercolationOutcome> {
  const tasks: PercolationTask[] = [];
  for (const event of deps.enabled === false ? [] : events) {
    const plan = planPercolation(event);
    if (plan.percolate) tasks.push(plan.task);
    else deps.logger.trace({ event_id: event.event_id, reference_id: event.reference_id, reason: plan.reason }, 'no percolation');
  }
  const outcome: PercolationOutcome = { percolated: tasks.length, dispatched: 0, created: 0, calls: 0, skippedByCycleCheck: 0, percolateMs: 0, dispatchMs: 0 };
  if (tasks.length === 0) {
    deps.logger.debug({ events: events.length, percolated: 0, calls: 0, created: 0, percolate_ms: 0, dispatch_ms: 0 }, 'percolated a batch');
    return outcome;
  }
  const percolateStarted = performance.now();
  const matches = await percolateInParts(deps.es, tasks.map((task) => task.document));
  outcome.percolateMs = performance.now() - percolateStarted;

  // (robot, source, reference) once: several automations of one robot matching one change merge.
  const items = new Map<string, PendingEnhancementItem>();
  for (const match of matches) {
    for (const slot of match.slots) {
      const task = tasks[slot];
      if (!task) continue;
      if (task.origin_robot_id === match.robot_id) {
        outcome.skippedByCycleCheck += 1;
        deps.logger.info({ robot_id: match.robot_id, automation_id: match.automation_id, reference_id: task.reference_id, source: task.source }, 'cycle check: a robot is not triggered by its own enhancement');
        continue;
      }
      const key = `${match.robot_id}\u0000${task.source}\u0000${task.reference_id}`;
      if (!items.has(key)) items.set(key, { reference_id: task.reference_id, robot_id: match.robot_id, source: task.source });
    }
  }
  const list = [...items.values()];
  outcome.dispatched = list.length;
  const dispatchStarted = performance.now();
  for (let start = 0; start < list.length; start += MAX_ITEMS_PER_CALL) {
    outcome.calls += 1;
    outcome.created += await deps.robots.createPendingEnhancementItems(list.slice(start, start + MAX_ITEMS_PER_CALL));
  }
  outcome.dispatchMs = performance.now() - dispatchStarted;
  deps.logger.debug({ events: events.length, percolated: outcome.percolated, calls: outcome.calls, created: outcome.created, percolate_ms: Math.round(outcome.percolateMs), dispatch_ms: Math.round(outcome.dispatchMs) }, 'percolated a batch');
  return outcome;
}
