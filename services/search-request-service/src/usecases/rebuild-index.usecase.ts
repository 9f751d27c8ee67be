// Rebuilds the search index from dedup-service without downtime: a new versioned index is filled
// while searches keep using the old one and events are written to both; then the alias moves in
// one `_aliases` call and the old index is deleted.
import { DeduplicatedReference, validate } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import type { Client } from '@elastic/elasticsearch';
import type { Logger } from '@destiny/platform';
import { isIndexable, projectReference } from '../domain/reference-projection';
import type { DedupViewsSource } from '../data-access/dedup-views.client';
import type { IndexStateRepository } from '../data-access/index-state.repository';
import { aliasIndices, bulkApply, createVersionedIndex, newIndexName, switchAlias, UNVERSIONED, type IndexOperation } from '../data-access/reference-index';

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
 * A streamed view carrying `version` (the reference's event version) is ordered like an event;
 * one without is written at version 0, so whatever an event wrote during the rebuild (at least
 * as new as the stream, including a removal) wins over it.
 */
function operationFor(raw: unknown, logger: Logger): IndexOperation | undefined {
  const version = (raw as { version?: unknown }).version;
  const candidate = { ...(raw as Record<string, unknown>) };
  delete candidate.version;
  candidate.duplicate_decision ??= null;
  const result = validate(DeduplicatedReference, candidate, 'body');
  if (!result.ok) {
    // One malformed view is reported and skipped rather than costing the whole rebuild.
    logger.error({ reference_id: candidate.id, errors: result.errors }, 'dedup-service streamed an invalid view; not indexed');
    return undefined;
  }
  const view = result.value as DeduplicatedReference;
  if (!isIndexable(view)) return undefined;
  const document = projectReference(view);
  return { kind: 'index', id: view.id, version: typeof version === 'number' && Number.isInteger(version) && version > 0 ? version : UNVERSIONED, document };
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
      const operations = chunk.map((raw) => operationFor(raw, deps.logger)).filter((operation): operation is IndexOperation => operation !== undefined);
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
