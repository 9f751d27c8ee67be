// The background scan of a search enhancement request (contract §11.4): every match of the
// query, page by page over a point in time, becomes a pending enhancement at robot-broker. The
// progress is stored after each page, so a scan stopped part-way resumes after its last stored
// page; a page redone after a crash adds nothing because robot-broker keeps one pending
// enhancement per (request, reference).
import type { Logger, RobotBrokerPort } from '@destiny/platform';
import type { Client, estypes } from '@elastic/elasticsearch';
import { REFERENCE_ALIAS } from '../data-access/reference-index';
import type { SearchEnhancementRequestRepository } from '../data-access/search-enhancement-request.repository';
import { chunkKey } from '../domain/search-enhancement-request';
import { queryStringQuery } from '../domain/search-query';
import { toQueryError } from './search-references.usecase';

const PIT_KEEP_ALIVE = '5m';

export interface ScanDeps {
  es: Client;
  requests: SearchEnhancementRequestRepository;
  robots: RobotBrokerPort;
  logger: Logger;
  pageSize: number;
  /** True once the service is shutting down: the scan stops after the page it is on. */
  isStopping(): boolean;
  /** Called after each page is stored (tests stop the service here). */
  afterPage?(requestId: string, pagesDone: number): Promise<void>;
}

export type ScanOutcome = 'completed' | 'failed' | 'skipped' | 'interrupted';

function reasonOf(error: unknown): string {
  const mapped = toQueryError(error);
  if (mapped instanceof Error) return mapped.message;
  return String(mapped);
}

export async function scanSearchRequest(deps: ScanDeps, requestId: string): Promise<ScanOutcome> {
  const request = await deps.requests.claim(requestId, new Date());
  if (!request) return 'skipped';
  let { pages_done: pagesDone, search_after: searchAfter } = request.progress;
  let nMatched = request.n_matched;
  let pitId: string | undefined;
  try {
    pitId = (await deps.es.openPointInTime({ index: REFERENCE_ALIAS, keep_alive: PIT_KEEP_ALIVE })).id;
    for (;;) {
      if (deps.isStopping()) return 'interrupted';
      const searchRequest: estypes.SearchRequest = {
        pit: { id: pitId, keep_alive: PIT_KEEP_ALIVE },
        query: queryStringQuery(request.search_query) as estypes.QueryDslQueryContainer,
        // The unique id orders pages, so stored sort values stay meaningful in a later point in time.
        sort: [{ id: { order: 'asc' } }],
        size: deps.pageSize,
        track_total_hits: nMatched === null,
        _source: false,
        ...(searchAfter ? { search_after: searchAfter as estypes.SortResults } : {}),
      };
      const response: estypes.SearchResponse = await deps.es.search(searchRequest);
      pitId = response.pit_id ?? pitId;
      if (nMatched === null) {
        const total = response.hits.total;
        nMatched = typeof total === 'number' ? total : (total?.value ?? 0);
      }
      const hits = response.hits.hits;
      if (hits.length === 0) break;
      await deps.robots.createPendingEnhancements({
        robot_id: request.robot_id,
        reference_ids: hits.map((hit) => String(hit._id)),
        enhancement_request_id: request.id,
        source: '',
        chunk_key: chunkKey(request.id, pagesDone + 1),
      });
      pagesDone += 1;
      searchAfter = hits[hits.length - 1].sort ?? null;
      await deps.requests.recordPage(request.id, { pages_done: pagesDone, search_after: searchAfter }, nMatched, new Date());
      await deps.afterPage?.(request.id, pagesDone);
      if (hits.length < deps.pageSize) break;
    }
    await deps.requests.finish(request.id, 'completed', null, new Date(), nMatched ?? 0);
    return 'completed';
  } catch (error) {
    deps.logger.warn({ err: error, search_request_id: request.id }, 'search request scan failed');
    await deps.requests.finish(request.id, 'failed', `Failed to collect references: ${reasonOf(error)}`, new Date());
    return 'failed';
  } finally {
    if (pitId) await deps.es.closePointInTime({ id: pitId }).catch(() => undefined);
  }
}
