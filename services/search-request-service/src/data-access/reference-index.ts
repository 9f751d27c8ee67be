// The `reference` search index (contract §13.5): an alias over versioned indices, written with
// external versioning so the per-reference event version decides which state wins.
import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import type { ReferenceSearchDocument } from '../domain/reference-projection';

export const REFERENCE_ALIAS = 'reference';

export const REFERENCE_INDEX_MAPPINGS: estypes.MappingTypeMapping = {
  // Only the §13.5 fields are searchable; the stored view is returned, never indexed.
  dynamic: false,
  properties: {
    id: { type: 'keyword' },
    visibility: { type: 'keyword' },
    duplicate_determination: { type: 'keyword' },
    title: { type: 'text' },
    abstract: { type: 'text' },
    authors: { type: 'text' },
    publication_date: { type: 'date' },
    publication_year: { type: 'integer' },
    annotations: { type: 'keyword' },
    evaluated_schemes: { type: 'keyword' },
    inclusion_destiny: { type: 'scaled_float', scaling_factor: 10000 },
    linked_data_concepts: { type: 'keyword' },
    linked_data_labels: { type: 'text' },
    linked_data_evaluated_properties: { type: 'keyword' },
    linked_data_countries: { type: 'keyword' },
    linked_data_country_wb_regions: { type: 'keyword' },
    view: { type: 'object', enabled: false },
  },
};

export type IndexOperation =
  | { kind: 'index'; id: string; version: number; document: ReferenceSearchDocument }
  | { kind: 'delete'; id: string; version: number };

export interface BulkOutcome {
  /** Operations written. */
  applied: number;
  /** Writes refused because the index holds the same or a newer version. */
  stale: number;
  /** Documents Elasticsearch refused for good (a 4xx other than 409/429), with the reason. */
  rejected: Map<string, string>;
}

export class BulkIndexingError extends Error {
  constructor(readonly failures: Array<{ id: string; status: number; reason: string }>) {
    super(`bulk indexing failed for ${failures.length} operation(s): ${failures.slice(0, 3).map((failure) => `${failure.id} ${failure.status} ${failure.reason}`).join('; ')}`);
    this.name = 'BulkIndexingError';
  }
}

export function newIndexName(now = new Date()): string {
  return `${REFERENCE_ALIAS}-v${now.getTime()}`;
}

export async function createVersionedIndex(client: Client, name: string, withAlias: boolean): Promise<void> {
  await client.indices.create({ index: name, mappings: REFERENCE_INDEX_MAPPINGS, ...(withAlias ? { aliases: { [REFERENCE_ALIAS]: {} } } : {}) });
}

/** The concrete indices behind the alias (empty when it does not exist). */
export async function aliasIndices(client: Client): Promise<string[]> {
  try {
    const response = await client.indices.getAlias({ name: REFERENCE_ALIAS });
    return Object.keys(response);
  } catch (error) {
    if (error instanceof errors.ResponseError && error.statusCode === 404) return [];
    throw error;
  }
}

/** Creates `reference-v<timestamp>` with the alias when no alias exists yet. */
export async function ensureReferenceIndex(client: Client): Promise<string> {
  const existing = await aliasIndices(client);
  if (existing.length > 0) return existing[0];
  const name = newIndexName();
  await createVersionedIndex(client, name, true);
  return name;
}

/** Points the alias at `target` only, in one `_aliases` call, so searches never see no index. */
export async function switchAlias(client: Client, target: string): Promise<string[]> {
  const previous = (await aliasIndices(client)).filter((name) => name !== target);
  await client.indices.updateAliases({
    actions: [...previous.map((index) => ({ remove: { index, alias: REFERENCE_ALIAS } })), { add: { index: target, alias: REFERENCE_ALIAS } }],
  });
  return previous;
}

/** Failures worth retrying: the cluster, not the document, was the problem. */
function isTransient(status: number): boolean {
  return status === 429 || status >= 500;
}

/**
 * One `_bulk` per call over every target, all with external versioning: a replayed or older
 * event is refused (409) and counted as stale, and so is an unversioned rebuild view wherever an
 * event (or an event's delete tombstone) got there first.
 */
export async function bulkApply(client: Client, targets: readonly string[], operations: readonly IndexOperation[], refresh: boolean): Promise<BulkOutcome> {
  if (operations.length === 0 || targets.length === 0) return { applied: 0, stale: 0, rejected: new Map() };
  const body: unknown[] = [];
  for (const target of targets) {
    for (const operation of operations) {
      if (operation.kind === 'delete') body.push({ delete: { _index: target, _id: operation.id, version: operation.version, version_type: 'external' } });
      else body.push({ index: { _index: target, _id: operation.id, version: operation.version, version_type: 'external' } }, operation.document);
    }
  }
  const response = await client.bulk({ operations: body, refresh: refresh ? 'wait_for' : false });
  let applied = 0;
  let stale = 0;
  const rejected = new Map<string, string>();
  const transient: Array<{ id: string; status: number; reason: string }> = [];
  for (const item of response.items) {
    const result = item.index ?? item.delete;
    if (!result) continue;
    const reason = result.error?.reason ?? result.error?.type ?? 'unknown';
    if (result.status === 409) stale++;
    else if (result.status < 300 || (item.delete && result.status === 404)) applied++;
    else if (isTransient(result.status)) transient.push({ id: String(result._id), status: result.status, reason });
    else rejected.set(String(result._id), `${result.status} ${reason}`);
  }
  if (transient.length > 0) throw new BulkIndexingError(transient);
  return { applied, stale, rejected };
}
