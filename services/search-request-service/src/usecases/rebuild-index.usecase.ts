// Rebuilds the search index from dedup-service without downtime: a new versioned index is filled
// while searches keep using the old one and events are written to both; then the alias moves in
// one `_aliases` call and the old index is deleted.
import { DeduplicatedReference, validate } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import type { Client } from '@elastic/elasticsearch';
import type { Logger } from '@destiny/platform';
import { isOlderThanRemoval, streamedViewVersion } from '../domain/index-order';
import { isIndexable, projectReference } from '../domain/reference-projection';
import type { DedupViewsSource, StreamedView } from '../data-access/dedup-views.client';
import type { IndexStateRepository } from '../data-access/index-state.repository';
import { aliasIndices, bulkApply, createVersionedIndex, newIndexName, switchAlias, type IndexOperation } from '../data-access/reference-index';

export interface RebuildIndexDeps {
  es: Client;
  state: IndexStateRepository;
  views: DedupViewsSource;
  logger: Logger;
  chunkSize?: number;
}

export interface RebuildReport {
  index: string;
  indexed: number;
}

const DEFAULT_CHUNK_SIZE = 1000;
/** A rebuild whose marker was not renewed for this long is taken to have died. */
export const REBUILD_STALE_AFTER_MS = 10 * 60_000;

/**
 * A streamed view is ordered like an event, at the reference's version as dedup-service sent it
 * (one sent without is written at UNVERSIONED, so whatever an event wrote wins over it).
 */
function operationFor(streamed: StreamedView, logger: Logger): IndexOperation | undefined {
  const candidate = { ...(streamed.view as Record<string, unknown>) };
  candidate.duplicate_decision ??= null;
  const result = validate(DeduplicatedReference, candidate, 'body');
  if (!result.ok) {
    // One malformed view is reported and skipped rather than costing the whole rebuild.
    logger.error({ reference_id: candidate.id, errors: result.errors }, 'dedup-service streamed an invalid view; not indexed');
    return undefined;
  }
  const view = result.value as DeduplicatedReference;
  if (!isIndexable(view)) return undefined;
  return { kind: 'index', id: view.id, version: streamedViewVersion(streamed.version), document: projectReference(view) };
}

/** Live indexing's rule: a state no newer than the reference's recorded removal stays out. */
async function withoutRemoved(state: IndexStateRepository, operations: IndexOperation[]): Promise<IndexOperation[]> {
  const removedAt = await state.removedVersions(operations.map((operation) => operation.id));
  return operations.filter((operation) => !isOlderThanRemoval(operation.version, removedAt.get(operation.id)));
}

export async function rebuildIndex(deps: RebuildIndexDeps): Promise<RebuildReport> {
  const startedAt = new Date();
  const index = newIndexName(startedAt);
  await createVersionedIndex(deps.es, index, false);
  const claim = await deps.state.beginRebuild(index, startedAt, REBUILD_STALE_AFTER_MS);
  if (!claim.claimed) {
    await deps.es.indices.delete({ index });
    throw ServiceError.conflict('A search index rebuild is already running.');
  }
  // The dead rebuild's index goes, unless it had already become the alias target.
  if (claim.abandoned && !(await aliasIndices(deps.es)).includes(claim.abandoned)) {
    deps.logger.warn({ index: claim.abandoned }, 'taking over from a rebuild that stopped; deleting its index');
    await deps.es.indices.delete({ index: claim.abandoned, ignore_unavailable: true });
  }
  let switched = false;
  try {
    let indexed = 0;
    for await (const chunk of deps.views.streamViews(deps.chunkSize ?? DEFAULT_CHUNK_SIZE)) {
      const operations = await withoutRemoved(deps.state, chunk.map((streamed) => operationFor(streamed, deps.logger)).filter((operation): operation is IndexOperation => operation !== undefined));
      const outcome = await bulkApply(deps.es, [index], operations, false);
      indexed += outcome.applied;
      await deps.state.heartbeat(index);
      for (const [id, reason] of outcome.rejected) deps.logger.error({ reference_id: id, reason }, 'search index refused a reference during the rebuild');
      deps.logger.debug({ index, indexed }, 'rebuild progress');
    }
    // A reference removed as a duplicate while its old view was in flight must not come back,
    // even where Elasticsearch already forgot the delete's tombstone (`index.gc_deletes`).
    const removed = await deps.state.removedSince(startedAt);
    await bulkApply(deps.es, [index], removed.map(({ id, version }) => ({ kind: 'delete', id, version })), false);
    await deps.es.indices.refresh({ index });
    const previous = await switchAlias(deps.es, index);
    switched = true;
    await deps.state.endRebuild(index);
    if (previous.length > 0) await deps.es.indices.delete({ index: previous });
    deps.logger.info({ index, indexed, replaced: previous }, 'search index rebuilt');
    return { index, indexed };
  } catch (error) {
    await deps.state.endRebuild(index);
    if (!switched) await deps.es.indices.delete({ index }).catch(() => undefined);
    throw error;
  }
}
