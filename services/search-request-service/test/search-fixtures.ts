// Contract-shaped `reference.changed` events and the harness the component tests share: the search
// and MongoDB stand-ins, real RabbitMQ in a namespace of its own, a dedup-service gRPC stand-in
// for rebuilds, and the service in-process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVENTS_EXCHANGE, QUEUES, ROUTING_KEYS, uuidv7, type DeduplicatedReference, type Enhancement, type ReferenceChangedEvent, type ReferencesIndexedEvent } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { startMongo } from '@destiny/devstack/mongo';
import { startSearch } from '@destiny/devstack/search';
import { createTestMessagingNamespace } from '@destiny/devstack/testing';
import { callUnary, createAmqpConnection, createGrpcClient, createGrpcServer, createLogger, namespacedBus, type GrpcServer, type MessageBus, type RunningBackendService } from '@destiny/platform';
import type { DeduplicatedViewsChunk } from '@destiny/contracts/generated/grpc/destiny/dedup_service/DeduplicatedViewsChunk';
import type { SearchRequestServiceClient } from '@destiny/contracts/generated/grpc/destiny/search_request_service/SearchRequestService';
import { startSearchRequestService } from '../src/index';

type Content = Enhancement['content'];

let clock = Date.parse('2026-01-01T00:00:00Z');

export function enhancement(referenceId: string, content: Content, createdAt?: string): Enhancement {
  clock += 1000;
  return { id: uuidv7(), reference_id: referenceId, source: 'test', visibility: 'public', robot_version: null, derived_from: null, content, created_at: createdAt ?? new Date(clock).toISOString() };
}

export function bibliographic(referenceId: string, fields: Record<string, unknown>, createdAt?: string): Enhancement {
  return enhancement(referenceId, { enhancement_type: 'bibliographic', ...fields } as Content, createdAt);
}

export function abstractOf(referenceId: string, text: string, createdAt?: string): Enhancement {
  return enhancement(referenceId, { enhancement_type: 'abstract', process: 'other', abstract: text }, createdAt);
}

export function view(id: string, enhancements: Enhancement[], decision: DeduplicatedReference['duplicate_decision'] = { duplicate_determination: 'canonical', canonical_reference_id: null }): DeduplicatedReference {
  return { visibility: 'public', id, identifiers: [{ identifier: `10.1234/${id}`, identifier_type: 'doi' }], enhancements, duplicate_decision: decision };
}

export function changed(reference: DeduplicatedReference, version: number, kind: ReferenceChangedEvent['kind'] = 'imported'): ReferenceChangedEvent {
  return {
    event_id: uuidv7(),
    reference_id: reference.id,
    version,
    kind,
    reference,
    changeset: { visibility: 'public' },
    duplicate_decision: reference.duplicate_decision,
    origin: {},
    occurred_at: new Date().toISOString(),
  };
}

export interface SearchHarness {
  service: RunningBackendService;
  searchUrl: string;
  mongoUrl: string;
  bus: MessageBus;
  /** Views the dedup-service stand-in streams on a rebuild (id → view, with the version it sends alongside). */
  dedupViews: Map<string, DeduplicatedReference & { version?: number }>;
  /** Awaited by the dedup-service stand-in before it streams anything (to act during a rebuild). */
  streamStarted?: () => Promise<void>;
  indexed: Map<string, number>;
  indexedEvents: ReferencesIndexedEvent[];
  publish(events: ReferenceChangedEvent[]): Promise<void>;
  /** Publishes and returns once `references.indexed` reported every event's version. */
  index(events: ReferenceChangedEvent[]): Promise<void>;
  call<T>(method: 'SearchReferences' | 'SearchReferenceIds', parameters: Record<string, unknown>): Promise<T>;
  count(searchQuery: string): Promise<{ count: number; is_lower_bound: boolean }>;
  rebuild(): Promise<{ index_name: string; indexed: string }>;
  /** Stops the search stand-in early (an outage). */
  stopSearch(): Promise<void>;
  stop(): Promise<void>;
}

export async function startSearchHarness(label: string): Promise<SearchHarness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `destiny-${label}-`));
  const mongo = await startMongo({ port: 0, dataDir: path.join(dataDir, 'mongo') });
  const search = await startSearch({ port: 0, dataDir: path.join(dataDir, 'search') });
  const messaging = createTestMessagingNamespace(label);
  const logger = createLogger({ service: 'dedup-stand-in', level: 'silent' });
  const dedupViews = new Map<string, DeduplicatedReference & { version?: number }>();
  const dedup: GrpcServer = createGrpcServer({ host: '127.0.0.1', port: 0, logger });
  dedup.addService(loadDestinyProtos().destiny.dedup_service.DedupService.service, {
    StreamDeduplicatedViews: {
      stream: async (request: { chunk_size: number }, write: (message: DeduplicatedViewsChunk) => Promise<void>) => {
        await harness.streamStarted?.();
        const all = [...dedupViews.values()];
        const size = request.chunk_size || 100;
        for (let start = 0; start < all.length; start += size) {
          const chunk = all.slice(start, start + size);
          // As dedup-service sends them: the view as JSON, its version alongside (0: none).
          await write({ json: chunk.map(({ version: _version, ...reference }) => JSON.stringify(reference)), versions: chunk.map((entry) => entry.version ?? 0) });
        }
      },
    },
  });
  const dedupPort = await dedup.start();
  const service = await startSearchRequestService({
    ...messaging.env,
    MONGODB_URL: mongo.url,
    ELASTICSEARCH_URL: search.url,
    DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedupPort}`,
    GRPC_PORT: '0',
    HEALTH_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    INDEXING_BATCH_WAIT_MS: '20',
  });
  const connection = await createAmqpConnection({ url: messaging.env.AMQP_URL, logger, name: `${label}-test` });
  const bus = namespacedBus(connection, messaging.namespace);
  const indexed = new Map<string, number>();
  const indexedEvents: ReferencesIndexedEvent[] = [];
  const waiters = new Set<() => void>();
  const consumer = await bus.consume<ReferencesIndexedEvent>(QUEUES.robotBrokerReferencesIndexed, async (message) => {
    indexedEvents.push(message);
    for (const item of message.items) indexed.set(item.reference_id, Math.max(indexed.get(item.reference_id) ?? 0, item.version));
    for (const wake of waiters) wake();
    return { outcome: 'ack' };
  });
  const protos = loadDestinyProtos().destiny;
  const client: SearchRequestServiceClient = createGrpcClient(protos.search_request_service.SearchRequestService, `127.0.0.1:${service.grpcPort}`);

  const publish = async (events: ReferenceChangedEvent[]) => {
    for (let start = 0; start < events.length; start += 500) {
      await Promise.all(events.slice(start, start + 500).map((event) => bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referenceChanged, event, { messageId: event.event_id })));
    }
  };

  const harness: SearchHarness = {
    service,
    searchUrl: search.url,
    mongoUrl: mongo.url,
    bus,
    dedupViews,
    indexed,
    indexedEvents,
    publish,
    async index(events) {
      await publish(events);
      const done = () => events.every((event) => (indexed.get(event.reference_id) ?? 0) >= event.version);
      while (!done()) {
        await new Promise<void>((resolve) => {
          waiters.add(resolve);
        });
        waiters.clear();
      }
    },
    async call<T>(method: 'SearchReferences' | 'SearchReferenceIds', parameters: Record<string, unknown>) {
      const response = await callUnary<{ json: string }, { json: string }>(client, client[method] as never, { json: JSON.stringify(parameters) });
      return JSON.parse(response.json) as T;
    },
    async count(searchQuery) {
      const response = await callUnary<{ search_query: string }, { json: string }>(client, client.CountReferences as never, { search_query: searchQuery });
      return JSON.parse(response.json) as { count: number; is_lower_bound: boolean };
    },
    async rebuild() {
      return (await callUnary(client, client.RebuildIndex, {}, { deadlineMs: 120_000 })) as unknown as { index_name: string; indexed: string };
    },
    stopSearch: () => search.stop(),
    async stop() {
      client.close();
      await consumer.stop();
      await service.stop();
      await connection.close();
      await dedup.stop(100);
      await messaging.remove();
      await search.stop();
      await mongo.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
