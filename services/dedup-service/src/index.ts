// Composition root of dedup-service: The reference store and identity authority: ingestion, enhancements, duplicate decisions, deduplicated views.
import { EVENTS_EXCHANGE } from '@destiny/contracts';
import { createForegroundPriorityGate, loadConfig, startBackendService, startOutboxRelay, type BackendOverrides, type RunningBackendService } from '@destiny/platform';
import { dedupServiceConfig } from './config';
import { createBlockingKeyRepository } from './data-access/blocking-key.repository';
import { COLLECTIONS, DEDUP_INDEXES } from './data-access/collections';
import { contentEndsWith, expandFromContent, expandFromDocument } from './domain/reference-changed.event-builder';
import type { ReferenceDocument } from './domain/reference.model';
import { createDecisionRepository } from './data-access/decision.repository';
import { createReferenceRepository } from './data-access/reference.repository';
import { createWriterLease } from './data-access/writer-lease.repository';
import * as deduplicationEngine from './domain/deduplication';
import type { DeduplicationEnginePort } from './domain/deduplication-engine.port';
import { startDeduplicationConsumer } from './entry-points/amqp/deduplication.consumer';
import { registerDedupGrpc } from './entry-points/grpc/dedup-service.grpc';
import { createAddEnhancements } from './usecases/add-enhancements.usecase';
import { createDuplicateDecisionUsecases } from './usecases/duplicate-decisions.usecase';
import { createIngestReferences } from './usecases/ingest-references.usecase';
import { createProcessDeduplication } from './usecases/process-deduplication.usecase';
import { createReferenceReads } from './usecases/reference-reads.usecase';
import { createReconcileDecisionActivations } from './usecases/reconcile-decision-activations.usecase';
import { startPendingDecisionSweeper } from './usecases/requeue-pending-decisions.usecase';
import { startBlockingKeyRefiling } from './usecases/refile-blocking-keys.usecase';

export const SERVICE_NAME = 'dedup-service';

export interface DedupOverrides extends BackendOverrides {
  /** The deduplication engine; the service's own `domain/deduplication` module by default. */
  engine?: DeduplicationEnginePort;
}

export async function startDedupService(env: NodeJS.ProcessEnv = process.env, overrides: DedupOverrides = {}): Promise<RunningBackendService> {
  const config = loadConfig(dedupServiceConfig, env);
  const engine = overrides.engine ?? deduplicationEngine;
  return startBackendService({
    name: SERVICE_NAME,
    config,
    ...overrides,
    indexes: DEDUP_INDEXES,
    register: async ({ db, grpc, bus, logger }) => {
      // Replicas take turns through a MongoDB lease for every read-decide-write; its token fences reference writes.
      const lease = createWriterLease(db, { ttlMs: config.DEDUP_WRITER_LEASE_MS });
      // Ingestion and enhancements change reference content; deduplication decides. The two lanes
      // overlap (each still one at a time), so an import's next chunk is stored while the previous
      // chunk is being decided; writes both make are conditional on the version they read.
      const inReferenceLane = <T>(work: () => Promise<T>) => lease.exclusive(work, 'references');
      const inDecisionLane = <T>(work: () => Promise<T>) => lease.exclusive(work, 'decisions');
      const references = createReferenceRepository(db, lease);
      const decisions = createDecisionRepository(db);
      const blocking = createBlockingKeyRepository(db, engine.blockingFormat);
      // A robot's poll waits on reference-file reads; relaying events waits on nobody.
      const readsFirst = createForegroundPriorityGate({ maxWaitMs: config.DEDUP_RELAY_MAX_READ_WAIT_MS, backgroundSlots: 1 });
      const relay = startOutboxRelay({
        db,
        collections: [COLLECTIONS.references],
        batchSize: 500,
        logger,
        publish: (entry) => bus.publish(entry.exchange || EVENTS_EXCHANGE, entry.routing_key, entry.payload, { messageId: entry.event_id }),
        expand: (entry, document) => expandFromDocument(entry, document as ReferenceDocument),
        expandFromMemory: (entry, id, last) => {
          const content = references.unrelayedContentOf(String(id));
          const expanded = expandFromContent(entry, content);
          // The copies are released as the relay uses them, so a relay that lags behind the
          // writes (it waits for reads) still finds the copies of what it has not published yet;
          // an import's event and its decision's often wait in one outbox, over the same content.
          if (expanded && content && last && contentEndsWith(entry, content)) references.releaseUnrelayedContent(String(id), content);
          return expanded;
        },
        inBackgroundTurn: (step) => readsFirst.inBackgroundTurn(step),
        lease: { name: SERVICE_NAME, ttlMs: config.OUTBOX_RELAY_LEASE_MS },
        // The replica relaying reads what this one wrote from the documents.
        onStandby: () => references.forgetUnrelayedContent(),
      });
      const onEvents = () => relay.notify();
      const trustedTypes = new Set(config.DEDUP_TRUSTED_IDENTIFIER_TYPES);
      const ingest = createIngestReferences({ db, references, decisions, blocking, engine, trustedTypes, bus, logger, exclusive: inReferenceLane, onEvents });
      const processDeduplication = createProcessDeduplication({ references, decisions, blocking, engine, trustedTypes, candidateSearch: config.DEDUP_CANONICAL_CANDIDATE_SEARCH, exclusive: inDecisionLane, onEvents, logger });
      registerDedupGrpc(grpc, {
        ingest,
        reads: createReferenceReads({ references }),
        decisions: createDuplicateDecisionUsecases({ references, decisions, blocking, engine, bus, exclusive: inDecisionLane, onEvents }),
        addEnhancements: createAddEnhancements({ references, blocking, engine, trustedTypes, exclusive: inReferenceLane, onEvents }),
        references,
        readsFirst,
        replyPageBytes: config.DEDUP_REPLY_PAGE_BYTES,
      });
      const consumer = await startDeduplicationConsumer(bus, processDeduplication, logger);
      const sweeper = startPendingDecisionSweeper({
        decisions,
        references,
        bus,
        logger,
        staleMs: config.DEDUP_PENDING_REQUEUE_MS,
        intervalMs: Math.max(1000, Math.floor(config.DEDUP_PENDING_REQUEUE_MS / 2)),
        exclusive: inReferenceLane,
        reconcileActivations: createReconcileDecisionActivations({ decisions, references, exclusive: inDecisionLane, logger }),
      });
      const refiling = startBlockingKeyRefiling({ references, blocking, engine, logger });
      return {
        async stop() {
          await refiling.stop();
          await sweeper.stop();
          await consumer.stop();
          await relay.stop();
          await lease.stop();
        },
      };
    },
  });
}
