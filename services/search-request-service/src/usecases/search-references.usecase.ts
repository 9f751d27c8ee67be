// Reference search (contract §7.3), id search (first 10,000) and exact counts (dry runs, §11).
import {
  ReferenceSearchIdsQuery,
  ReferenceSearchQuery,
  SEARCH_PAGE_SIZE,
  SEARCH_RESULT_WINDOW,
  validate,
  type Reference,
  type ReferenceIdsSearchResult,
  type ReferenceSearchResult,
  type SearchResultTotal,
} from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import { errors, type Client, type estypes } from '@elastic/elasticsearch';
import { buildSearchQuery, buildSort, pageOffset, queryStringQuery } from '../domain/search-query';
import { REFERENCE_ALIAS } from '../data-access/reference-index';

function parseParameters<T>(schema: typeof ReferenceSearchQuery | typeof ReferenceSearchIdsQuery, input: unknown): T {
  const result = validate(schema, input, 'query');
  if (!result.ok) throw ServiceError.unprocessable(result.errors);
  return result.value as T;
}

/**
 * Elasticsearch's reason for refusing a query (a malformed query string) as §7.3's 400; an
 * unreachable or failing cluster as 503 rather than a bare 500.
 */
export function toQueryError(error: unknown): unknown {
  if (error instanceof errors.ConnectionError || error instanceof errors.TimeoutError || (error instanceof errors.ResponseError && (error.statusCode ?? 500) >= 500)) {
    return new ServiceError(503, 'The search index is unavailable.');
  }
  if (!(error instanceof errors.ResponseError) || error.statusCode !== 400) return error;
  const body = error.body as { error?: { root_cause?: Array<{ reason?: string }>; reason?: string; caused_by?: { reason?: string } } } | undefined;
  const reason = body?.error?.root_cause?.[0]?.reason ?? body?.error?.caused_by?.reason ?? body?.error?.reason ?? error.message;
  return ServiceError.badRequest(`Elasticsearch query failed: ${reason}`);
}

function totalOf(total: estypes.SearchTotalHits | number | undefined): SearchResultTotal {
  if (typeof total === 'number') return { count: total, is_lower_bound: false };
  return { count: total?.value ?? 0, is_lower_bound: total?.relation === 'gte' };
}

interface StoredView {
  view: Reference;
}

/**
 * Each hit answers with the view stored in its `_source` rather than a `GetDeduplicatedViews`
 * call: one round trip, no dependency on dedup-service for reads, and the view always belongs to
 * the very version that matched (a fetched view could be newer than what was searched).
 */
export async function searchReferences(es: Client, input: unknown): Promise<ReferenceSearchResult> {
  const parameters = parseParameters<ReferenceSearchQuery>(ReferenceSearchQuery, input);
  const page = parameters.page ?? 1;
  const request: estypes.SearchRequest = {
    index: REFERENCE_ALIAS,
    query: buildSearchQuery(parameters) as estypes.QueryDslQueryContainer,
    sort: buildSort(parameters.sort) as estypes.Sort,
    from: pageOffset(page),
    size: SEARCH_PAGE_SIZE,
    track_total_hits: SEARCH_RESULT_WINDOW,
    _source: ['view'],
  };
  const response = await es.search<StoredView>(request).catch((error: unknown) => Promise.reject(toQueryError(error)));
  const references = response.hits.hits.map((hit) => hit._source!.view);
  return { total: totalOf(response.hits.total), page: { count: references.length, number: page }, references };
}

export async function searchReferenceIds(es: Client, input: unknown): Promise<ReferenceIdsSearchResult> {
  const parameters = parseParameters<ReferenceSearchIdsQuery>(ReferenceSearchIdsQuery, input);
  const response = await es
    .search({
      index: REFERENCE_ALIAS,
      query: buildSearchQuery(parameters) as estypes.QueryDslQueryContainer,
      sort: buildSort(parameters.sort) as estypes.Sort,
      size: SEARCH_RESULT_WINDOW,
      track_total_hits: SEARCH_RESULT_WINDOW,
      _source: false,
    })
    .catch((error: unknown) => Promise.reject(toQueryError(error)));
  return { total: totalOf(response.hits.total), reference_ids: response.hits.hits.map((hit) => String(hit._id)) };
}

/** The exact number of references a query string matches (search-request dry runs). */
export async function countReferences(es: Client, searchQuery: string): Promise<SearchResultTotal> {
  if (!searchQuery) throw ServiceError.badRequest('Elasticsearch query failed: the search query must not be empty');
  const response = await es.count({ index: REFERENCE_ALIAS, query: queryStringQuery(searchQuery) as estypes.QueryDslQueryContainer }).catch((error: unknown) => Promise.reject(toQueryError(error)));
  return { count: response.count, is_lower_bound: false };
}
