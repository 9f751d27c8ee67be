// Percolation of a batch of `reference.changed` events (§13.2, §13.4): the documents of every
// event that triggers automations go to Elasticsearch in one `_search` (`percolate.documents`);
// matches are merged per robot, a robot's matches on changes its own batch caused are skipped
// (cycle check), and robot-broker creates the pending enhancements, one call per (robot, source)
// with a chunk key that makes a repeated call (a redelivered event) create nothing again.
import type { ReferenceChangedEvent } from '@destiny/contracts';
import type { Logger, RobotBrokerPort } from '@destiny/platform';
import type { Client } from '@elastic/elasticsearch';
import { planPercolation, type PercolationTask } from '../domain/percolation-document';
import { percolate, TooManyMatchesError, type PercolatorMatch } from '../data-access/percolator-index';

export interface PercolationDeps {
  es: Client;
  robots: Pick<RobotBrokerPort, 'createPendingEnhancements'>;
  logger: Logger;
  /** The `enable_percolation` feature flag (§13.2); false matches nothing. */
  enabled?: boolean;
}

export interface PercolationOutcome {
  percolated: number;
  /** Pending enhancements asked for: (robot, reference) pairs after merging. */
  dispatched: number;
  created: number;
  skippedByCycleCheck: number;
  percolateMs: number;
  dispatchMs: number;
}

/** Calls to robot-broker in flight at once. */
const DISPATCH_CONCURRENCY = 16;

export function chunkKeyOf(source: string, robotId: string): string {
  return `automation:${source}:${robotId}`;
}

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
  const outcome: PercolationOutcome = { percolated: tasks.length, dispatched: 0, created: 0, skippedByCycleCheck: 0, percolateMs: 0, dispatchMs: 0 };
  if (tasks.length === 0) {
    deps.logger.debug({ events: events.length, percolated: 0, calls: 0, created: 0, percolate_ms: 0, dispatch_ms: 0 }, 'percolated a batch');
    return outcome;
  }
  const percolateStarted = performance.now();
  const matches = await percolateInParts(deps.es, tasks.map((task) => task.document));
  outcome.percolateMs = performance.now() - percolateStarted;

  // (robot, source) → references; a Set merges several automations of one robot.
  const groups = new Map<string, { robot_id: string; source: string; references: Set<string> }>();
  for (const match of matches) {
    for (const slot of match.slots) {
      const task = tasks[slot];
      if (!task) continue;
      if (task.origin_robot_id === match.robot_id) {
        outcome.skippedByCycleCheck += 1;
        deps.logger.info({ robot_id: match.robot_id, automation_id: match.automation_id, reference_id: task.reference_id, source: task.source }, 'cycle check: a robot is not triggered by its own enhancement');
        continue;
      }
      const key = `${match.robot_id}\u0000${task.source}`;
      let group = groups.get(key);
      if (!group) {
        group = { robot_id: match.robot_id, source: task.source, references: new Set() };
        groups.set(key, group);
      }
      group.references.add(task.reference_id);
    }
  }
  const queue = [...groups.values()];
  const worker = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      const referenceIds = [...group.references];
      outcome.dispatched += referenceIds.length;
      outcome.created += await deps.robots.createPendingEnhancements({ robot_id: group.robot_id, reference_ids: referenceIds, source: group.source, chunk_key: chunkKeyOf(group.source, group.robot_id) });
    }
  };
  const dispatchStarted = performance.now();
  await Promise.all(Array.from({ length: Math.min(DISPATCH_CONCURRENCY, queue.length) }, worker));
  outcome.dispatchMs = performance.now() - dispatchStarted;
  deps.logger.debug({ events: events.length, percolated: outcome.percolated, calls: groups.size, created: outcome.created, percolate_ms: Math.round(outcome.percolateMs), dispatch_ms: Math.round(outcome.dispatchMs) }, 'percolated a batch');
  return outcome;
}
