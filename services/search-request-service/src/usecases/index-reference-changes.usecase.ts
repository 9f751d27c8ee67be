// Applies a batch of `reference.changed` events to the search index and announces what became
// searchable. Idempotent and order-safe: each write carries the event's per-reference version.
import { EVENTS_EXCHANGE, ROUTING_KEYS, uuidv7, type IndexedReference, type ReferenceChangedEvent, type ReferencesIndexedEvent } from '@destiny/contracts';
import type { MessageBus } from '@destiny/platform';
import type { Client } from '@elastic/elasticsearch';
import { isOlderThanRemoval } from '../domain/index-order';
import { isIndexable, projectReference } from '../domain/reference-projection';
import type { IndexStateRepository } from '../data-access/index-state.repository';
import { bulkApply, REFERENCE_ALIAS, type BulkOutcome, type IndexOperation } from '../data-access/reference-index';

export interface IndexReferenceChangesDeps {
  es: Client;
  state: IndexStateRepository;
  bus: MessageBus;
}

export interface IndexingReport extends BulkOutcome {
  indexed: IndexedReference[];
}

/** The newest event per reference; older ones in the same batch are superseded by it. */
function newestPerReference(events: readonly ReferenceChangedEvent[]): ReferenceChangedEvent[] {
  const newest = new Map<string, ReferenceChangedEvent>();
  for (const event of events) {
    const held = newest.get(event.reference_id);
    if (!held || event.version > held.version) newest.set(event.reference_id, event);
  }
  return [...newest.values()];
}

export async function indexReferenceChanges(deps: IndexReferenceChangesDeps, events: readonly ReferenceChangedEvent[]): Promise<IndexingReport> {
  const latest = newestPerReference(events);
  // The event's own active decision is authoritative; the view's copy is the same when present.
  const viewOf = (event: ReferenceChangedEvent) => ({ ...event.reference, id: event.reference_id, duplicate_decision: event.duplicate_decision ?? event.reference.duplicate_decision });
  const removedVersions = await deps.state.removedVersions(latest.filter((event) => isIndexable(viewOf(event))).map((event) => event.reference_id));
  const operations: IndexOperation[] = [];
  const removals: Array<{ id: string; version: number }> = [];
  const reindexed: Array<{ id: string; version: number }> = [];
  for (const event of latest) {
    const id = event.reference_id;
    const view = viewOf(event);
    if (!isIndexable(view)) {
      operations.push({ kind: 'delete', id, version: event.version });
      removals.push({ id, version: event.version });
      continue;
    }
    const removedAt = removedVersions.get(id);
    if (isOlderThanRemoval(event.version, removedAt)) continue;
    operations.push({ kind: 'index', id, version: event.version, document: projectReference(view) });
    if (removedAt !== undefined) reindexed.push({ id, version: event.version });
  }
  // Read per batch, not cached: a rebuild that started after this read streams the state these
  // events describe (dedup-service commits before it publishes), so nothing falls between.
  const rebuild = await deps.state.currentRebuild();
  const targets = rebuild ? [REFERENCE_ALIAS, rebuild.index] : [REFERENCE_ALIAS];
  const outcome = await bulkApply(deps.es, targets, operations, true);
  const accepted = (entry: { id: string }) => !outcome.rejected.has(entry.id);
  await deps.state.record(removals.filter(accepted), reindexed.filter(accepted));
  const indexed = latest.filter((event) => !outcome.rejected.has(event.reference_id)).map((event) => ({ reference_id: event.reference_id, version: event.version }));
  const failed = latest.filter((event) => outcome.rejected.has(event.reference_id)).map((event) => ({ reference_id: event.reference_id, version: event.version }));
  if (indexed.length > 0 || failed.length > 0) {
    const announcement: ReferencesIndexedEvent = { event_id: uuidv7(), items: indexed, ...(failed.length > 0 ? { failed } : {}), occurred_at: new Date().toISOString() };
    // Resolves on the broker's confirm; the consumed events are acked only after it.
    await deps.bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referencesIndexed, announcement, { messageId: announcement.event_id });
  }
  return { ...outcome, indexed };
}
