// Composition root of search-request-service: The reference search index, reference search and search-based enhancement requests.
import { setTimeout as delay } from 'node:timers/promises';
import { createRobotBrokerClient, loadConfig, startBackendService, type BackendOverrides, type ConfigValues, type MessageConsumer, type RunningBackendService } from '@destiny/platform';
import { Client } from '@elastic/elasticsearch';
import { searchRequestServiceConfig } from './config';
import { createDedupViewsClient } from './data-access/dedup-views.client';
import { INDEX_STATE_INDEXES, IndexStateRepository } from './data-access/index-state.repository';
import { ensureReferenceIndex } from './data-access/reference-index';
import { startReferenceChangedConsumer } from './entry-points/amqp/reference-changed.consumer';
import { SEARCH_REQUEST_INDEXES, SearchEnhancementRequestRepository } from './data-access/search-enhancement-request.repository';
import { startSearchScanConsumer } from './entry-points/amqp/search-scan.consumer';
import { registerSearchRequestGrpc } from './entry-points/grpc/search-request-service.grpc';
import { createSearchEnhancementRequest, requireRobot } from './usecases/create-search-enhancement-request.usecase';
import { getSearchEnhancementRequest } from './usecases/get-search-enhancement-request.usecase';
import { indexReferenceChanges } from './usecases/index-reference-changes.usecase';
import { rebuildIndex } from './usecases/rebuild-index.usecase';
import { scanSearchRequest, type ScanDeps } from './usecases/scan-search-request.usecase';

export const SERVICE_NAME = 'search-request-service';

const ENSURE_INDEX_RETRY_MS = 2000;
/** How long start waits for the index before finishing start-up without it. */
const FIRST_ENSURE_WAIT_MS = 5000;

export type SearchRequestServiceConfig = ConfigValues<typeof searchRequestServiceConfig>;

export function createElasticsearchClient(url: string): Client {
  return new Client({ node: url, requestTimeout: 30_000 });
}

export interface SearchRequestServiceOverrides extends BackendOverrides {
  /** Called after each stored scan page (tests stop the service part-way through a scan). */
  afterScanPage?: ScanDeps['afterPage'];
}

export async function startSearchRequestService(env: NodeJS.ProcessEnv = process.env, overrides: SearchRequestServiceOverrides = {}): Promise<RunningBackendService> {
  const config = loadConfig(searchRequestServiceConfig, env);
  const es = createElasticsearchClient(config.ELASTICSEARCH_URL);
  const { afterScanPage, ...backendOverrides } = overrides;
  return startBackendService({
    name: SERVICE_NAME,
    config,
    indexes: [...INDEX_STATE_INDEXES, ...SEARCH_REQUEST_INDEXES],
    ...backendOverrides,
    register: async ({ db, bus, grpc, logger }) => {
      const state = new IndexStateRepository(db);
      const views = createDedupViewsClient(config.DEDUP_SERVICE_GRPC_URL);
      const requests = new SearchEnhancementRequestRepository(db);
      const robots = createRobotBrokerClient(config.ROBOT_BROKER_GRPC_URL, { deadlineMs: 60_000 });
      let stopping = false;
      registerSearchRequestGrpc(grpc, {
        es,
        rebuild: () => rebuildIndex({ es, state, views, logger }),
        requireRobot: (robotId) => requireRobot(robots, robotId),
        createSearchRequest: (input) => createSearchEnhancementRequest({ requests, robots, bus, logger }, input),
        getSearchRequest: (id) => getSearchEnhancementRequest({ requests, robots }, id),
      });
      const scanConsumer = await startSearchScanConsumer({
        bus,
        logger,
        retryDelayMs: config.SEARCH_SCAN_RETRY_DELAY_MS,
        scan: (requestId) => scanSearchRequest({ es, requests, robots, logger, pageSize: config.SEARCH_SCAN_PAGE_SIZE, isStopping: () => stopping, afterPage: afterScanPage }, requestId),
      });
      let consumer: MessageConsumer | undefined;
      // Elasticsearch may come up after this service: the index is ensured (and events consumed)
      // as soon as it answers, while readiness reports it missing until then.
      const indexReady = (async () => {
        for (let attempt = 1; !stopping; attempt++) {
          try {
            await ensureReferenceIndex(es);
            return true;
          } catch (error) {
            logger.warn({ err: error, attempt }, 'search index not available yet; retrying');
            await delay(ENSURE_INDEX_RETRY_MS, undefined, { ref: false });
          }
        }
        return false;
      })();
      let ready = false;
      const consuming = indexReady.then(async (ok) => {
        if (!ok || stopping) return;
        consumer = await startReferenceChangedConsumer({
          bus,
          logger,
          maxBatch: config.INDEXING_BATCH_SIZE,
          waitMs: config.INDEXING_BATCH_WAIT_MS,
          index: (events) => indexReferenceChanges({ es, state, bus }, events),
        });
        ready = true;
      }).catch((error: unknown) => logger.error({ err: error }, 'reference.changed consumer could not start'));
      await Promise.race([consuming, delay(FIRST_ENSURE_WAIT_MS, undefined, { ref: false })]);
      return {
        readiness: [{ name: 'elasticsearch', check: async () => ready && (await es.ping()) }],
        async stop() {
          stopping = true;
          await scanConsumer.stop();
          await consuming;
          await consumer?.stop();
          views.close();
          robots.close();
          await es.close();
        },
      };
    },
  });
}
