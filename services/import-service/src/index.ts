// Composition root of import-service: Imports: records, batches, per-line results, background batch processing.
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { callUnary, createGrpcClient, createOutboundHttpClient, enhancementContentPreparerFor, fullTextBlobStorage, loadConfig, startBackendService, startOutboxRelay, type BackendOverrides, type RunningBackendService } from '@destiny/platform';
import type { IngestReferencesRequest } from '@destiny/contracts/generated/grpc/destiny/dedup_service/IngestReferencesRequest';
import type { IngestReferencesResponse__Output } from '@destiny/contracts/generated/grpc/destiny/dedup_service/IngestReferencesResponse';
import { importServiceConfig } from './config';
import { COLLECTIONS, createImportRepository, IMPORT_INDEXES } from './data-access/import.repository';
import { startBatchCallbackConsumer } from './entry-points/amqp/batch-callback.consumer';
import { startImportBatchConsumer } from './entry-points/amqp/import-batch.consumer';
import { registerImportGrpc } from './entry-points/grpc/import-service.grpc';
import { createImportRecordUsecases } from './usecases/import-records.usecase';
import { createPrepareEnhancementContent } from './usecases/prepare-enhancement-content.usecase';
import { createProcessImportBatch, type IngestPort } from './usecases/process-import-batch.usecase';
import { createQueueBatchCallback } from './usecases/queue-batch-callback.usecase';
import { createSendBatchCallback } from './usecases/send-batch-callback.usecase';

export const SERVICE_NAME = 'import-service';

const INGEST_DEADLINE_MS = 300_000;

export async function startImportService(env: NodeJS.ProcessEnv = process.env, overrides: BackendOverrides = {}): Promise<RunningBackendService> {
  const config = loadConfig(importServiceConfig, env);
  let stopping = false;
  return startBackendService({
    name: SERVICE_NAME,
    config,
    ...overrides,
    indexes: IMPORT_INDEXES,
    register: async ({ db, grpc, bus, logger }) => {
      const repository = createImportRepository(db);
      const outbound = createOutboundHttpClient({ allowlist: config.OUTBOUND_ALLOWLIST, maxBytes: config.IMPORT_MAX_FILE_BYTES, timeoutMs: 60_000 });
      // Batch jobs wait in the batch document (outbox) until RabbitMQ confirms them.
      const relay = startOutboxRelay({
        db,
        collections: [COLLECTIONS.batches],
        logger,
        publish: (entry) => bus.sendToQueue(entry.routing_key, entry.payload, { messageId: entry.event_id }),
        lease: { name: SERVICE_NAME, ttlMs: config.OUTBOX_RELAY_LEASE_MS },
      });
      const records = createImportRecordUsecases({ repository, notifyOutbox: () => relay.notify(), outbound, allowedDomains: config.IMPORT_ALLOWED_DOMAINS });
      const dedupClient = createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, config.DEDUP_SERVICE_GRPC_URL);
      const dedup: IngestPort = {
        async ingest(request) {
          const response = await callUnary<IngestReferencesRequest, IngestReferencesResponse__Output>(dedupClient, dedupClient.IngestReferences.bind(dedupClient) as never, request, { deadlineMs: INGEST_DEADLINE_MS });
          return response.outcomes.map((outcome) => ({ line_number: outcome.line_number, status: outcome.status, reference_id: outcome.reference_id, failure_details: outcome.failure_details }));
        },
      };
      const sendCallback = createSendBatchCallback({ repository, records, outbound, logger, attempts: 3, retryBaseMs: config.IMPORT_RETRY_BASE_MS, timeoutMs: config.IMPORT_CALLBACK_TIMEOUT_MS, isStopping: () => stopping });
      const processBatch = createProcessImportBatch({
        repository,
        outbound,
        dedup,
        logger,
        isStopping: () => stopping,
        afterBatch: createQueueBatchCallback({ repository, bus }),
        prepareEnhancementContent: createPrepareEnhancementContent(enhancementContentPreparerFor(config, outbound, fullTextBlobStorage(config))),
        limits: {
          maxFileBytes: config.IMPORT_MAX_FILE_BYTES,
          maxLineBytes: config.IMPORT_MAX_LINE_BYTES,
          chunkSize: config.IMPORT_CHUNK_SIZE,
          downloadAttempts: 5,
          retryBaseMs: config.IMPORT_RETRY_BASE_MS,
          retryMaxMs: 30_000,
        },
      });
      registerImportGrpc(grpc, records, { recordsPageBytes: config.IMPORT_RECORDS_PAGE_BYTES, resultsPageBytes: config.IMPORT_RESULTS_PAGE_BYTES });
      const consumer = await startImportBatchConsumer(bus, processBatch, { logger, retryDelayMs: Math.max(100, config.IMPORT_RETRY_BASE_MS), batchesAtOnce: config.IMPORT_BATCHES_AT_ONCE });
      const callbacks = await startBatchCallbackConsumer(bus, sendCallback, logger, Math.max(100, config.IMPORT_RETRY_BASE_MS));
      return {
        async stop() {
          stopping = true;
          await Promise.all([consumer.stop(), callbacks.stop(), relay.stop()]);
          dedupClient.close();
        },
      };
    },
  });
}
