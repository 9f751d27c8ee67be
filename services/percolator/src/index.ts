// Composition root of percolator: Automations as percolator queries, matched against reference changes.
import { setTimeout as delay } from 'node:timers/promises';
import type { ReferenceChangedEvent } from '@destiny/contracts';
import { createRobotBrokerClient, loadConfig, startBackendService, type BackendOverrides, type MessageConsumer, type RunningBackendService } from '@destiny/platform';
import { Client } from '@elastic/elasticsearch';
import { percolatorConfig } from './config';
import { AUTOMATION_INDEXES, AutomationRepository } from './data-access/automation.repository';
import { startReferenceChangedConsumer } from './entry-points/amqp/reference-changed.consumer';
import { registerPercolatorGrpc } from './entry-points/grpc/percolator.grpc';
import { createAutomationUsecases } from './usecases/manage-automations.usecase';
import { percolateReferenceChanges, type PercolationOutcome } from './usecases/percolate-reference-changes.usecase';
import { syncPercolatorIndex } from './usecases/sync-percolator-index.usecase';

export const SERVICE_NAME = 'percolator';

const SYNC_RETRY_MS = 2000;
/** How long start waits for the index before finishing start-up without it. */
const FIRST_SYNC_WAIT_MS = 5000;

export { PERCOLATION_ALIAS, PERCOLATION_INDEX_MAPPINGS } from './data-access/percolator-index';
export { planPercolation, referenceDocOf } from './domain/percolation-document';

export type { PercolationOutcome } from './usecases/percolate-reference-changes.usecase';

export interface PercolatorOverrides extends BackendOverrides {
  /** Test and benchmark hook: runs after each batch of events was percolated and dispatched. */
  afterBatch?(events: ReferenceChangedEvent[], outcome: PercolationOutcome): void;
}

export async function startPercolator(env: NodeJS.ProcessEnv = process.env, overrides: PercolatorOverrides = {}): Promise<RunningBackendService> {
  const config = loadConfig(percolatorConfig, env);
  const { afterBatch, ...backendOverrides } = overrides;
  const es = new Client({ node: config.ELASTICSEARCH_URL, requestTimeout: 30_000 });
  const robots = createRobotBrokerClient(config.ROBOT_BROKER_GRPC_URL);
  return startBackendService({
    name: SERVICE_NAME,
    config,
    indexes: AUTOMATION_INDEXES,
    ...backendOverrides,
    register: async ({ db, bus, grpc, logger }) => {
      const automations = new AutomationRepository(db);
      registerPercolatorGrpc(grpc, createAutomationUsecases({ automations, es, robots, logger }));
      let stopping = false;
      let consumer: MessageConsumer | undefined;
      // Elasticsearch may come up after this service: the index is synced from the automations
      // collection (and events consumed) as soon as it answers; readiness reports it until then.
      const synced = (async () => {
        for (let attempt = 1; !stopping; attempt++) {
          try {
            await syncPercolatorIndex({ es, automations, logger });
            return true;
          } catch (error) {
            logger.warn({ err: error, attempt }, 'percolator index not available yet; retrying');
            await delay(SYNC_RETRY_MS, undefined, { ref: false });
          }
        }
        return false;
      })();
      let ready = false;
      const consuming = synced
        .then(async (ok) => {
          if (!ok || stopping) return;
          consumer = await startReferenceChangedConsumer({
            bus,
            logger,
            maxBatch: config.PERCOLATION_BATCH_SIZE,
            waitMs: config.PERCOLATION_BATCH_WAIT_MS,
            percolate: async (events) => {
              const outcome = await percolateReferenceChanges({ es, robots, logger, enabled: config.PERCOLATION_ENABLED }, events);
              afterBatch?.(events, outcome);
            },
          });
          ready = true;
        })
        .catch((error: unknown) => logger.error({ err: error }, 'reference.changed consumer could not start'));
      await Promise.race([consuming, delay(FIRST_SYNC_WAIT_MS, undefined, { ref: false })]);
      return {
        readiness: [{ name: 'elasticsearch', check: async () => ready && (await es.ping()) }],
        async stop() {
          stopping = true;
          await consuming;
          await consumer?.stop();
          robots.close();
          await es.close();
        },
      };
    },
  });
}
