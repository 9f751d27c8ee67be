// The percolator index (contract §13.3): one document per automation, `{query, robot_id}`, behind
// the alias `robot-automation-percolation`. It is a projection of the automations collection and
// is rebuilt from it at start (`syncPercolatorIndex`).
import { ServiceError } from '@destiny/platform';
import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import type { PercolationDocument } from '@destiny/contracts';
import type { AutomationRecord } from '../domain/automation';

export const PERCOLATION_ALIAS = 'robot-automation-percolation';

/** The largest page of matching automations one `_search` answers (Elasticsearch's default window). */
const MAX_MATCHES_PER_SEARCH = 10_000;

const keyword = { type: 'keyword' } as const;

const REFERENCE_DOC_PROPERTIES: Record<string, estypes.MappingProperty> = {
  visibility: keyword,
  duplicate_determination: keyword,
  identifiers: {
    type: 'nested',
    properties: { reference_id: keyword, identifier: keyword, identifier_type: keyword, other_identifier_name: keyword },
  },
  enhancements: {
    type: 'nested',
    properties: {
      id: keyword,
      reference_id: keyword,
      visibility: keyword,
      source: keyword,
      robot_version: keyword,
      created_at: { type: 'date' },
      content: {
        type: 'object',
        dynamic: true,
        properties: {
          enhancement_type: keyword,
          annotations: {
            type: 'nested',
            dynamic: true,
            properties: { scheme: keyword, label: keyword, annotation_type: keyword, value: { type: 'boolean' } },
          },
        },
      },
    },
  },
};

export const PERCOLATION_INDEX_MAPPINGS: estypes.MappingTypeMapping = {
  properties: {
    query: { type: 'percolator' },
    robot_id: keyword,
    reference: { type: 'object', properties: REFERENCE_DOC_PROPERTIES },
    changeset: { type: 'object', properties: REFERENCE_DOC_PROPERTIES },
  },
};

/** Elasticsearch refused a stored query (400): its error type and reason. */
export class QueryRefusedError extends Error {
  constructor(
    readonly errorType: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'QueryRefusedError';
  }
}

/** More automations matched one request than one response holds. */
export class TooManyMatchesError extends Error {
  constructor(readonly total: number) {
    super(`${total} automations matched one percolation request; at most ${MAX_MATCHES_PER_SEARCH} fit one response`);
    this.name = 'TooManyMatchesError';
  }
}

export interface PercolatorMatch {
  automation_id: string;
  robot_id: string;
  /** Positions, in the percolated batch, of the documents the automation matched. */
  slots: number[];
}

async function aliasExists(client: Client): Promise<boolean> {
  try {
    await client.indices.getAlias({ name: PERCOLATION_ALIAS });
    return true;
  } catch (error) {
    if (error instanceof errors.ResponseError && error.statusCode === 404) return false;
    throw error;
  }
}

/** Creates `robot-automation-percolation-v<timestamp>` with the alias when no alias exists yet. */
export async function ensurePercolatorIndex(client: Client): Promise<void> {
  if (await aliasExists(client)) return;
  try {
    await client.indices.create({ index: `${PERCOLATION_ALIAS}-v${Date.now()}`, mappings: PERCOLATION_INDEX_MAPPINGS, aliases: { [PERCOLATION_ALIAS]: {} } });
  } catch (error) {
    // Another replica created it first.
    if (error instanceof errors.ResponseError && error.statusCode === 400 && (await aliasExists(client))) return;
    throw error;
  }
}

function refusal(error: unknown): QueryRefusedError | null {
  if (!(error instanceof errors.ResponseError) || error.statusCode !== 400) return null;
  const body = error.body as { error?: { type?: string; reason?: string; caused_by?: { type?: string; reason?: string } } } | undefined;
  return new QueryRefusedError(body?.error?.type ?? 'bad_request', body?.error?.reason ?? error.message);
}

/** An unreachable or failing cluster (or a missing index) answers 503 rather than a bare 500. */
function unavailable(error: unknown): ServiceError | null {
  if (error instanceof errors.ConnectionError || error instanceof errors.TimeoutError) return new ServiceError(503, 'The percolator index is unavailable.');
  if (error instanceof errors.ResponseError && ((error.statusCode ?? 500) >= 500 || error.statusCode === 404)) return new ServiceError(503, 'The percolator index is unavailable.');
  return null;
}

/**
 * Stores (or replaces) an automation's query; a query Elasticsearch refuses raises
 * QueryRefusedError, an unavailable cluster a 503 ServiceError.
 */
export async function putAutomation(client: Client, automation: AutomationRecord): Promise<void> {
  try {
    // require_alias: a lost alias must not auto-create an index without the percolator mapping.
    await client.index({ index: PERCOLATION_ALIAS, id: automation.id, document: { query: automation.query, robot_id: automation.robot_id }, refresh: 'wait_for', require_alias: true });
  } catch (error) {
    throw refusal(error) ?? unavailable(error) ?? error;
  }
}

/** Stores many automations in one `_bulk`; answers the ids Elasticsearch refused, with the reason. */
export async function putAutomations(client: Client, automations: AutomationRecord[]): Promise<Map<string, string>> {
  const refused = new Map<string, string>();
  if (automations.length === 0) return refused;
  const response = await client.bulk({
    operations: automations.flatMap((automation) => [{ index: { _index: PERCOLATION_ALIAS, _id: automation.id, require_alias: true } }, { query: automation.query, robot_id: automation.robot_id }]),
    refresh: 'wait_for',
  });
  const transient: string[] = [];
  for (const item of response.items) {
    const result = item.index;
    if (!result || result.status < 300) continue;
    if (result.status === 429 || result.status >= 500) transient.push(String(result._id));
    else refused.set(String(result._id), `${result.error?.type ?? 'error'}: ${result.error?.reason ?? 'refused'}`);
  }
  if (transient.length > 0) throw new Error(`the percolator index could not store ${transient.length} automation(s) for now`);
  return refused;
}

export async function deleteAutomations(client: Client, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await client.bulk({ operations: ids.map((id) => ({ delete: { _index: PERCOLATION_ALIAS, _id: id } })), refresh: 'wait_for' });
}

export async function indexedAutomationIds(client: Client): Promise<string[]> {
  const response = await client.search({ index: PERCOLATION_ALIAS, size: MAX_MATCHES_PER_SEARCH, _source: false, query: { match_all: {} } });
  return response.hits.hits.map((hit) => String(hit._id));
}

/** Every automation matching any of the documents, with the slots it matched (one `_search`). */
export async function percolate(client: Client, documents: PercolationDocument[]): Promise<PercolatorMatch[]> {
  if (documents.length === 0) return [];
  const response = await client.search<{ robot_id: string }>({
    index: PERCOLATION_ALIAS,
    size: MAX_MATCHES_PER_SEARCH,
    _source: ['robot_id'],
    track_total_hits: true,
    query: { percolate: { field: 'query', documents } },
  });
  const total = typeof response.hits.total === 'number' ? response.hits.total : (response.hits.total?.value ?? 0);
  if (total > response.hits.hits.length) throw new TooManyMatchesError(total);
  return response.hits.hits.map((hit) => {
    const slots = (hit.fields?._percolator_document_slot as number[] | undefined) ?? (documents.length === 1 ? [0] : []);
    return { automation_id: String(hit._id), robot_id: String(hit._source?.robot_id), slots };
  });
}
