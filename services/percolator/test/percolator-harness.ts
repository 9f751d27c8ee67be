// The component-test harness: MongoDB, Elasticsearch and S3 stand-ins, real RabbitMQ in a
// namespace of its own, the real robot-broker in-process (robots and pending enhancements) and
// the percolator; plus builders of `reference.changed` events shaped as dedup-service emits them.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  EVENTS_EXCHANGE,
  ROUTING_KEYS,
  uuidv7,
  type DeduplicatedReference,
  type Enhancement,
  type ExternalIdentifier,
  type ReferenceChangedEvent,
  type ReferenceDoc,
} from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { startBlob } from '@destiny/devstack/blob';
import { startMongo } from '@destiny/devstack/mongo';
import { startSearch } from '@destiny/devstack/search';
import { createTestMessagingNamespace } from '@destiny/devstack/testing';
import { callUnary, createAmqpConnection, createGrpcClient, createLogger, namespacedBus, type MessageBus, type RunningBackendService } from '@destiny/platform';
import { startRobotBroker } from '@destiny/robot-broker';
import { MongoClient } from 'mongodb';
import { referenceDocOf } from '../src/domain/percolation-document';
import { startPercolator, type PercolationOutcome } from '../src/index';

type PercolatorClient = InstanceType<ReturnType<typeof loadDestinyProtos>['destiny']['percolator']['Percolator']>;
type RobotBrokerClient = InstanceType<ReturnType<typeof loadDestinyProtos>['destiny']['robot_broker']['RobotBroker']>;

export interface PendingRow {
  reference_id: string;
  robot_id: string;
  source: string | null;
  enhancement_request_id: string | null;
  status: string;
  dedup_key?: string;
}

export interface PercolatorHarness {
  percolator: RunningBackendService;
  searchUrl: string;
  mongoUrl: string;
  env: Record<string, string>;
  registerRobot(name?: string): Promise<string>;
  /** Calls a Percolator rpc; answers the parsed JSON (documents as an array). */
  call<T>(method: 'CreateAutomation' | 'UpdateAutomation' | 'ListAutomations' | 'GetAutomation', request: unknown): Promise<T>;
  /** Publishes the events and returns once the percolator has percolated (and acked) each of them. */
  percolate(events: ReferenceChangedEvent[]): Promise<PercolationOutcome[]>;
  publish(events: ReferenceChangedEvent[]): Promise<void>;
  /** Resolves once every event id has been percolated in some batch. */
  waitPercolated(eventIds: string[]): Promise<void>;
  pending(filter?: Record<string, unknown>): Promise<PendingRow[]>;
  restartPercolator(): Promise<void>;
  /** Stops the search stand-in early (an outage). */
  stopSearch(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPercolatorHarness(label: string, extraEnv: Record<string, string> = {}): Promise<PercolatorHarness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `destiny-${label}-`));
  const mongo = await startMongo({ port: 0, dataDir: path.join(dataDir, 'mongo') });
  const search = await startSearch({ port: 0, dataDir: path.join(dataDir, 'search') });
  const blob = await startBlob({ port: 0, host: '127.0.0.1', dataDir: path.join(dataDir, 'blob') });
  const messaging = createTestMessagingNamespace(label);
  const common = { ...messaging.env, MONGODB_URL: mongo.url, GRPC_PORT: '0', HEALTH_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'silent' };
  const broker = await startRobotBroker({
    ...common,
    BLOB_ENDPOINT: blob.url,
    BLOB_ACCESS_KEY: blob.accessKey,
    BLOB_SECRET_KEY: blob.secretKey,
    BLOB_BUCKET: 'destiny',
    ROBOT_SECRET_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
  });
  const env = { ...common, ELASTICSEARCH_URL: search.url, ROBOT_BROKER_GRPC_URL: `127.0.0.1:${broker.grpcPort}`, PERCOLATION_BATCH_WAIT_MS: '20', ...extraEnv };
  const percolated = new Map<string, PercolationOutcome>();
  const waiters = new Set<() => void>();
  const afterBatch = (events: ReferenceChangedEvent[], outcome: PercolationOutcome) => {
    for (const event of events) percolated.set(event.event_id, outcome);
    for (const wake of waiters) wake();
  };
  let percolator = await startPercolator(env, { afterBatch });
  const protos = loadDestinyProtos().destiny;
  let client: PercolatorClient = createGrpcClient(protos.percolator.Percolator, `127.0.0.1:${percolator.grpcPort}`);
  const robots: RobotBrokerClient = createGrpcClient(protos.robot_broker.RobotBroker, `127.0.0.1:${broker.grpcPort}`);
  const logger = createLogger({ service: `${label}-test`, level: 'silent' });
  const connection = await createAmqpConnection({ url: messaging.env.AMQP_URL, logger, name: `${label}-test` });
  const bus: MessageBus = namespacedBus(connection, messaging.namespace);
  const mongoClient = await MongoClient.connect(mongo.url);
  let searchStopped: Promise<void> | undefined;
  const stopSearch = () => (searchStopped ??= search.stop());
  const brokerDb = mongoClient.db('destiny_robot_broker');

  const publish = async (events: ReferenceChangedEvent[]) => {
    await Promise.all(events.map((event) => bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referenceChanged, event, { messageId: event.event_id })));
  };
  const waitPercolated = async (eventIds: string[]) => {
    while (!eventIds.every((id) => percolated.has(id))) {
      await new Promise<void>((resolve) => waiters.add(resolve));
      waiters.clear();
    }
  };

  return {
    get percolator() {
      return percolator;
    },
    searchUrl: search.url,
    mongoUrl: mongo.url,
    env,
    async registerRobot(name = `robot-${uuidv7()}`) {
      const response = await callUnary<unknown, { json: string }>(robots, robots.RegisterRobot.bind(robots) as never, {
        caller: { subject: 'admin', roles: ['robot.writer'], entitlements: [], robot_id: '' },
        json: JSON.stringify({ name, description: 'test robot', owner: 'tests' }),
      });
      return (JSON.parse(response.json) as { id: string }).id;
    },
    async call<T>(method: 'CreateAutomation' | 'UpdateAutomation' | 'ListAutomations' | 'GetAutomation', request: unknown) {
      const response = await callUnary<unknown, { json: string | string[] }>(client, (client[method] as (...args: never[]) => unknown).bind(client) as never, request);
      return (Array.isArray(response.json) ? response.json.map((item) => JSON.parse(item) as unknown) : JSON.parse(response.json)) as T;
    },
    async percolate(events) {
      for (const event of events) percolated.delete(event.event_id);
      await publish(events);
      await waitPercolated(events.map((event) => event.event_id));
      return events.map((event) => percolated.get(event.event_id) as PercolationOutcome);
    },
    publish,
    waitPercolated,
    async pending(filter = {}) {
      return (await brokerDb.collection('pending_enhancements').find(filter).toArray()) as unknown as PendingRow[];
    },
    async restartPercolator() {
      client.close();
      await percolator.stop();
      percolator = await startPercolator(env, { afterBatch });
      client = createGrpcClient(protos.percolator.Percolator, `127.0.0.1:${percolator.grpcPort}`);
    },
    stopSearch,
    async stop() {
      client.close();
      robots.close();
      await percolator.stop();
      await broker.stop();
      await connection.close();
      await mongoClient.close();
      await messaging.remove();
      await stopSearch();
      await blob.stop();
      await mongo.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// ---- reference.changed events as dedup-service builds them ----

let clock = Date.parse('2026-01-01T00:00:00Z');

export function enhancement(referenceId: string, content: Enhancement['content'], source = 'test'): Enhancement {
  clock += 1000;
  return { id: uuidv7(), reference_id: referenceId, source, visibility: 'public', robot_version: '1.0.0', derived_from: null, content, created_at: new Date(clock).toISOString() };
}

export function abstractOf(referenceId: string, text = 'An abstract.', source = 'test'): Enhancement {
  return enhancement(referenceId, { enhancement_type: 'abstract', process: 'other', abstract: text }, source);
}

export function inclusionOf(referenceId: string, value: boolean, source = 'classifier'): Enhancement {
  return enhancement(referenceId, { enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 'inclusion:destiny', label: 'include', value, score: 0.9, data: {} }] } as Enhancement['content'], source);
}

export function titled(referenceId: string, title: string): Enhancement {
  return enhancement(referenceId, { enhancement_type: 'bibliographic', title, pagination: { volume: '1', issue: null, first_page: '1', last_page: '9' } } as Enhancement['content']);
}

/** A stored reference: its id, identifiers and enhancements. */
export interface StoredReference {
  id: string;
  identifiers: ExternalIdentifier[];
  enhancements: Enhancement[];
}

export function reference(identifiers: ExternalIdentifier[], enhancements: (id: string) => Enhancement[] = () => []): StoredReference {
  const id = uuidv7();
  return { id, identifiers, enhancements: enhancements(id) };
}

export function doi(value: string): ExternalIdentifier {
  return { identifier: value, identifier_type: 'doi' };
}

type Determination = 'canonical' | 'duplicate' | 'exact_duplicate' | 'unsearchable';

function viewOf(own: StoredReference, duplicates: StoredReference[], determination: Determination | null, canonicalId: string | null = null): DeduplicatedReference {
  return {
    visibility: 'public',
    id: own.id,
    identifiers: [...own.identifiers, ...duplicates.flatMap((item) => item.identifiers)],
    enhancements: [...own.enhancements, ...duplicates.flatMap((item) => item.enhancements)],
    duplicate_decision: determination ? { duplicate_determination: determination, canonical_reference_id: canonicalId } : null,
  };
}

/** dedup-service's ReferenceDoc of stored references (each identifier with its owner). */
function storedDoc(parts: StoredReference[], determination: Determination | null): ReferenceDoc {
  const doc = referenceDocOf(viewOf(parts[0], parts.slice(1), determination), {
    visibility: 'public',
    identifiers: parts.flatMap((part) => part.identifiers.map((identifier) => ({ reference_id: part.id, identifier: String(identifier.identifier), identifier_type: identifier.identifier_type }))),
  });
  return doc;
}

function event(input: Omit<ReferenceChangedEvent, 'event_id' | 'occurred_at' | 'version'> & { version?: number }): ReferenceChangedEvent {
  return { event_id: uuidv7(), occurred_at: new Date().toISOString(), version: input.version ?? 2, ...input };
}

/** A reference's first decision (canonical or another non-duplicate value): reference and changeset alike. */
export function decided(own: StoredReference, determination: Determination, duplicates: StoredReference[] = []): ReferenceChangedEvent {
  const view = viewOf(own, duplicates, determination);
  return event({ reference_id: own.id, kind: 'duplicate_decision_changed', reference: view, changeset: storedDoc([own], determination), duplicate_decision: view.duplicate_decision, duplicate_decision_id: uuidv7(), origin: {} });
}

/** The two events dedup-service emits when `duplicate` becomes a duplicate of `canonical`. */
export function deduplicated(canonical: StoredReference, duplicate: StoredReference, otherDuplicates: StoredReference[] = []): { ofDuplicate: ReferenceChangedEvent; ofCanonical: ReferenceChangedEvent } {
  const duplicateView = viewOf(duplicate, [], 'duplicate', canonical.id);
  const canonicalView = viewOf(canonical, [...otherDuplicates, duplicate], 'canonical');
  // Both events report the duplicate's decision: it is what changed the canonical's group.
  const decisionId = uuidv7();
  return {
    ofDuplicate: event({ reference_id: duplicate.id, kind: 'duplicate_decision_changed', reference: duplicateView, changeset: storedDoc([duplicate], 'duplicate'), duplicate_decision: duplicateView.duplicate_decision, duplicate_decision_id: decisionId, origin: {} }),
    ofCanonical: event({ reference_id: canonical.id, kind: 'duplicate_decision_changed', reference: canonicalView, changeset: storedDoc([duplicate], 'duplicate'), duplicate_decision: canonicalView.duplicate_decision, duplicate_decision_id: decisionId, origin: {} }),
  };
}

/** Enhancements stored from robot `robotId`'s batch on `target` (already holding them). */
export function enhanced(target: StoredReference, added: Enhancement[], origin: { robot_id: string; robot_enhancement_batch_id: string }, determination: Determination = 'canonical', duplicates: StoredReference[] = [], canonicalId: string | null = null): ReferenceChangedEvent {
  const view = viewOf({ ...target, enhancements: [...target.enhancements, ...added] }, duplicates, determination, canonicalId);
  const changeset: ReferenceDoc = { visibility: 'public', enhancements: added.map((item) => ({ id: item.id as string, reference_id: item.reference_id, visibility: item.visibility, source: item.source, robot_version: item.robot_version ?? undefined, created_at: item.created_at ?? undefined, content: item.content as Record<string, unknown> })) };
  return event({ reference_id: target.id, kind: 'enhanced', reference: view, changeset, duplicate_decision: view.duplicate_decision, origin });
}
