// Composition root of robot-broker: Robots, enhancement requests, pending enhancements, robot batches and single requests.
import { EVENTS_EXCHANGE } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { AddEnhancementsRequest } from '@destiny/contracts/generated/grpc/destiny/dedup_service/AddEnhancementsRequest';
import type { AddEnhancementsResponse__Output } from '@destiny/contracts/generated/grpc/destiny/dedup_service/AddEnhancementsResponse';
import type { IdRequest } from '@destiny/contracts/generated/grpc/destiny/common/IdRequest';
import type { JsonDocument__Output } from '@destiny/contracts/generated/grpc/destiny/common/JsonDocument';
import type { IdsRequest, IdsRequest__Output } from '@destiny/contracts/generated/grpc/destiny/common/IdsRequest';
import type { JsonDocuments__Output } from '@destiny/contracts/generated/grpc/destiny/common/JsonDocuments';
import type { ReferenceFileLinesRequest } from '@destiny/contracts/generated/grpc/destiny/dedup_service/ReferenceFileLinesRequest';
import type { ReferenceFileLines__Output } from '@destiny/contracts/generated/grpc/destiny/dedup_service/ReferenceFileLines';
import {
  callUnary,
  createBlobStorage,
  createForegroundPriorityGate,
  createFullTextLinks,
  createGrpcClient,
  createOutboundHttpClient,
  enhancementContentPreparerFor,
  loadConfig,
  ServiceError,
  startBackendService,
  startOutboxRelay,
  type BackendOverrides,
  type RunningBackendService,
} from '@destiny/platform';
import { robotBrokerConfig } from './config';
import { createBatchRepository } from './data-access/batch.repository';
import { COLLECTIONS, ROBOT_BROKER_INDEXES } from './data-access/collections';
import { createIndexedVersionRepository } from './data-access/indexed-version.repository';
import { createPendingEnhancementRepository } from './data-access/pending-enhancement.repository';
import { createRobotPollRepository } from './data-access/robot-poll.repository';
import { referenceFileLineOfView } from './domain/reference-file.writer';
import { createSecretCipher } from './domain/secret-cipher';
import { startAutomationMatchedConsumer } from './entry-points/amqp/automation-matched.consumer';
import { startReferencesIndexedConsumer } from './entry-points/amqp/references-indexed.consumer';
import { startRobotResultImportConsumer } from './entry-points/amqp/robot-result-import.consumer';
import { registerRobotBrokerGrpc } from './entry-points/grpc/robot-broker.grpc';
import { createEnhancementRequestUsecases } from './usecases/enhancement-requests.usecase';
import { createImportRobotResults } from './usecases/import-robot-results.usecase';
import { SIGNED_URL_SECONDS, type ReferenceStorePort } from './usecases/ports';
import { createRobotBatchUsecases } from './usecases/robot-batches.usecase';
import { createRobotUsecases } from './usecases/robots.usecase';
import { createSingleRequestUsecases } from './usecases/single-requests.usecase';
import { createVerifyRobotSignature } from './usecases/verify-robot-signature.usecase';

export const SERVICE_NAME = 'robot-broker';

const DEDUP_DEADLINE_MS = 120_000;

export interface RobotBrokerOverrides extends BackendOverrides {
  /** Test hook: runs after each recorded chunk of a result import. */
  afterImportChunk?(batchId: string, throughLine: number): Promise<void>;
}

export async function startRobotBroker(env: NodeJS.ProcessEnv = process.env, overrides: RobotBrokerOverrides = {}): Promise<RunningBackendService> {
  const config = loadConfig(robotBrokerConfig, env);
  const cipher = createSecretCipher(config.ROBOT_SECRET_ENCRYPTION_KEY);
  const blob = createBlobStorage({
    endpoint: config.BLOB_ENDPOINT,
    publicEndpoint: config.BLOB_PUBLIC_ENDPOINT || undefined,
    accessKey: config.BLOB_ACCESS_KEY,
    secretKey: config.BLOB_SECRET_KEY,
    bucket: config.BLOB_BUCKET,
  });
  await blob.ensureBucket();
  const { afterImportChunk, ...backendOverrides } = overrides;
  return startBackendService({
    name: SERVICE_NAME,
    config,
    ...backendOverrides,
    indexes: ROBOT_BROKER_INDEXES,
    register: async ({ db, grpc, bus, logger }) => {
      const dedupClient = createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, config.DEDUP_SERVICE_GRPC_URL);
      const references: ReferenceStorePort = {
        async deduplicatedViews(ids) {
          if (ids.length === 0) return [];
          const response = await callUnary<IdsRequest, JsonDocuments__Output>(dedupClient, dedupClient.GetDeduplicatedViews.bind(dedupClient) as never, { ids: [...ids] }, { deadlineMs: DEDUP_DEADLINE_MS });
          return (response.json ?? []).map((text) => JSON.parse(text) as Record<string, unknown> & { id: string });
        },
        async storedReferenceIds(ids) {
          if (ids.length === 0) return [];
          try {
            return (await callUnary<IdsRequest, IdsRequest__Output>(dedupClient, dedupClient.GetStoredReferenceIds.bind(dedupClient) as never, { ids: [...ids] }, { deadlineMs: DEDUP_DEADLINE_MS })).ids ?? [];
          } catch (error) {
            // A dedup-service of an earlier version (rolling upgrade) tells only by the views.
            if (!(error instanceof ServiceError && error.httpStatus === 501)) throw error;
            return (await references.deduplicatedViews(ids)).map((view) => view.id);
          }
        },
        async referenceFileLines(ids, fullTextEntitled) {
          const found: Array<{ id: string; line: string; fullText: boolean }> = [];
          // Page by page: lines past dedup-service's reply budget come back as ids to ask for again.
          for (let asked = [...ids]; asked.length > 0; ) {
            let response: ReferenceFileLines__Output;
            try {
              response = await callUnary<ReferenceFileLinesRequest, ReferenceFileLines__Output>(dedupClient, dedupClient.GetReferenceFileLines.bind(dedupClient) as never, { ids: asked, full_text: fullTextEntitled }, { deadlineMs: DEDUP_DEADLINE_MS });
            } catch (error) {
              // A dedup-service of an earlier version (rolling upgrade) serves only the views.
              if (!(error instanceof ServiceError && error.httpStatus === 501)) throw error;
              return [...found, ...(await references.deduplicatedViews(asked)).map((view) => referenceFileLineOfView(view, fullTextEntitled))];
            }
            const lines = response.lines ?? [];
            found.push(...(response.ids ?? []).map((id, index) => ({ id, line: lines[index], fullText: response.full_texts?.[index] ?? false })));
            // A page without lines would make no progress (a dedup-service that never pages sends none back).
            asked = lines.length > 0 ? (response.remaining_ids ?? []) : [];
          }
          return found;
        },
        async getReference(id) {
          try {
            const response = await callUnary<IdRequest, JsonDocument__Output>(dedupClient, dedupClient.GetReference.bind(dedupClient) as never, { id }, { deadlineMs: DEDUP_DEADLINE_MS });
            return JSON.parse(response.json) as Record<string, unknown> & { id: string };
          } catch (error) {
            if (error instanceof ServiceError && error.httpStatus === 404) return null;
            throw error;
          }
        },
        async addEnhancements(request) {
          const response = await callUnary<AddEnhancementsRequest, AddEnhancementsResponse__Output>(dedupClient, dedupClient.AddEnhancements.bind(dedupClient) as never, request, { deadlineMs: DEDUP_DEADLINE_MS });
          return response.outcomes ?? [];
        },
      };
      const pending = createPendingEnhancementRepository(db);
      await pending.adoptRowLeases();
      const batches = createBatchRepository(db);
      const indexed = createIndexedVersionRepository(db);
      // Jobs wait in the batch document (outbox) until RabbitMQ confirms them.
      const relay = startOutboxRelay({
        db,
        collections: [COLLECTIONS.batches],
        logger,
        publish: (entry) => (entry.exchange === '' ? bus.sendToQueue(entry.routing_key, entry.payload, { messageId: entry.event_id }) : bus.publish(entry.exchange || EVENTS_EXCHANGE, entry.routing_key, entry.payload, { messageId: entry.event_id })),
        lease: { name: SERVICE_NAME, ttlMs: config.OUTBOX_RELAY_LEASE_MS },
      });
      const content = enhancementContentPreparerFor(config, createOutboundHttpClient({ allowlist: config.OUTBOUND_ALLOWLIST, maxBytes: config.FULL_TEXT_MAX_BYTES, timeoutMs: config.FULL_TEXT_TIMEOUT_MS }), blob);
      const fullTextLinks = createFullTextLinks(blob, SIGNED_URL_SECONDS);
      const pollPriority = createForegroundPriorityGate({
        maxWaitMs: config.ROBOT_IMPORT_MAX_POLL_WAIT_MS,
        // One chunk at a time while robots poll (a poll in the last second), more otherwise.
        backgroundSlots: 1,
        idleBackgroundSlots: config.ROBOT_IMPORT_CHUNKS_IN_FLIGHT,
        recentMs: 1000,
      });
      const batchUsecases = createRobotBatchUsecases({
        pending,
        batches,
        polls: createRobotPollRepository(db),
        blob,
        references,
        notifyOutbox: () => relay.notify(),
        fullTextLinks,
        pollPriority,
        prepareAheadMs: config.ROBOT_PREPARE_AHEAD_SECONDS * 1000,
        logger,
      });
      const requests = createEnhancementRequestUsecases({ db, pending, indexed, references, workArrived: (robotIds) => batchUsecases.workArrived(robotIds) });
      registerRobotBrokerGrpc(grpc, {
        robots: createRobotUsecases({ db, cipher }),
        signatures: createVerifyRobotSignature({ db, cipher }),
        requests,
        batches: batchUsecases,
        singles: createSingleRequestUsecases({
          db,
          cipher,
          references,
          logger,
          outbound: createOutboundHttpClient({ allowlist: config.OUTBOUND_ALLOWLIST, maxBytes: 64 * 1024, timeoutMs: config.ROBOT_CALL_TIMEOUT_MS }),
          callTimeoutMs: config.ROBOT_CALL_TIMEOUT_MS,
          callAttempts: config.ROBOT_CALL_ATTEMPTS,
          content,
          fullTextLinks,
        }),
      });
      const importer = createImportRobotResults({ db, batches, pending, indexed, blob, references, logger, chunkSize: config.ROBOT_RESULT_IMPORT_CHUNK_SIZE,
        chunkSizeWhilePolling: config.ROBOT_RESULT_IMPORT_CHUNK_SIZE_WHILE_POLLING,
        content,
        indexingDeadlineMs: config.ROBOT_INDEXING_DEADLINE_SECONDS * 1000,
        pollPriority,
        afterChunk: afterImportChunk });
      const importConsumer = await startRobotResultImportConsumer(bus, importer, logger, 2000);
      const indexedConsumer = await startReferencesIndexedConsumer(bus, { indexed, pending }, logger);
      const automationConsumer = await startAutomationMatchedConsumer(bus, requests.createPendingRows, logger);
      let sweeping: Promise<unknown> = Promise.resolve();
      const sweep = setInterval(() => {
        const now = new Date();
        sweeping = Promise.all([pending.expireDue(now), pending.failOverdueIndexing(now)]).catch((error: unknown) => logger.warn({ err: error }, 'lease and indexing deadline sweep failed'));
      }, config.ROBOT_LEASE_SWEEP_MS);
      sweep.unref();
      return {
        readiness: [{ name: 'blob_storage', check: () => blob.ping() }],
        async stop() {
          clearInterval(sweep);
          await batchUsecases.drain();
          await sweeping;
          await importConsumer.stop();
          await indexedConsumer.stop();
          await automationConsumer.stop();
          await relay.stop();
          dedupClient.close();
        },
      };
    },
  });
}
