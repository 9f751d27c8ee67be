import { EVENTS_EXCHANGE, ROUTING_KEYS, uuidv7, type AutomationMatchedEvent, type ReferenceChangedEvent, type ReferencesIndexedEvent } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { observeEvents, startTestInfrastructure, TEST_AMQP_URL, type TestInfrastructure } from '@destiny/devstack/testing';
import { callUnary, createAmqpConnection, createGrpcClient, createLogger, namespacedBus, type ServiceError } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import { startDedupService } from '../../dedup-service/src/index';
import { startRobotBroker, type RobotBrokerOverrides } from '../src/index';

export type RobotBrokerClient = InstanceType<ReturnType<typeof loadDestinyProtos>['destiny']['robot_broker']['RobotBroker']>;
export type DedupClient = InstanceType<ReturnType<typeof loadDestinyProtos>['destiny']['dedup_service']['DedupService']>;

export function robotBrokerClient(port: number): RobotBrokerClient {
  return createGrpcClient(loadDestinyProtos().destiny.robot_broker.RobotBroker, `127.0.0.1:${port}`);
}

export function dedupClient(port: number): DedupClient {
  return createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, `127.0.0.1:${port}`);
}

export async function call<T>(client: RobotBrokerClient | DedupClient, method: string, request: unknown): Promise<T> {
  const fn = (client as unknown as Record<string, never>)[method];
  return callUnary(client, fn, request as never) as Promise<T>;
}

/** Calls a method whose request and answer carry a contract body as `json` text; returns the parsed body. */
export async function callJson<T>(client: RobotBrokerClient, method: string, request: unknown): Promise<T> {
  return JSON.parse((await call<{ json: string }>(client, method, request)).json) as T;
}

/** The status and detail a call failed with; fails the test when the call succeeds. */
export const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: ServiceError) => ({ status: error.httpStatus, detail: error.detail }),
  );

/** The stand-ins and a RabbitMQ namespace, with a quick lease sweep for robot-broker's tests. */
export async function startInfrastructure(label: string): Promise<TestInfrastructure> {
  const infrastructure = await startTestInfrastructure(label);
  infrastructure.env.ROBOT_LEASE_SWEEP_MS = '200';
  return infrastructure;
}

/**
 * Plays search-request-service's part for robot-broker: every `reference.changed` is announced
 * back as `references.indexed` with its version (optionally held back until released).
 */
export async function startIndexAnnouncer(namespace: string) {
  let holding = false;
  const held: Array<{ reference_id: string; version: number }> = [];
  const announce = async (items: Array<{ reference_id: string; version: number }>) => {
    if (items.length === 0) return;
    const event: ReferencesIndexedEvent = { event_id: uuidv7(), items, occurred_at: new Date().toISOString() };
    await observer.publish(ROUTING_KEYS.referencesIndexed, event, event.event_id);
  };
  const observer = await observeEvents<ReferenceChangedEvent>(namespace, {
    queue: 'test.index-announcer',
    routingKey: ROUTING_KEYS.referenceChanged,
    prefetch: 50,
    onEvent: async (event) => {
      const item = { reference_id: event.reference_id, version: event.version };
      if (holding) held.push(item);
      else await announce([item]);
    },
  });
  return {
    hold() {
      holding = true;
    },
    async release() {
      holding = false;
      await announce(held.splice(0));
    },
    close: () => observer.close(),
  };
}

export { waitFor } from '@destiny/devstack/testing';

/** Publishes `automation.matched` events in `namespace`, in order, as the percolator does. */
export async function publishAutomationMatched(namespace: string, events: AutomationMatchedEvent[]): Promise<void> {
  const bus = namespacedBus(await createAmqpConnection({ url: TEST_AMQP_URL, logger: createLogger({ service: 'test', level: 'silent' }), name: 'automation-publisher' }), namespace);
  try {
    for (const event of events) await bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.automationMatched, event, { messageId: event.event_id });
  } finally {
    await bus.close();
  }
}

/** Ingests references with distinct DOIs and titles; answers their ids in order. */
export async function ingestReferences(dedup: DedupClient, count: number, label: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 500) {
    const lines = Array.from({ length: Math.min(500, count - start) }, (_, offset) => {
      const n = start + offset;
      return {
        line_number: n + 1,
        import_result_id: uuidv7(),
        reference_json: JSON.stringify({
          visibility: 'public',
          identifiers: [{ identifier: `10.5555/${label}.${n}`, identifier_type: 'doi' }],
          enhancements: [
            {
              source: 'importer',
              visibility: 'public',
              content: { enhancement_type: 'bibliographic', title: `${label} distinct study number ${n} ${crypto.randomUUID()}`, publication_year: 2000 + (n % 20) },
            },
          ],
        }),
      };
    });
    const response = await call<{ outcomes: Array<{ status: string; reference_id: string; failure_details: string }> }>(dedup, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: 'fail', lines });
    for (const outcome of response.outcomes) {
      if (outcome.status !== 'completed') throw new Error(`ingest failed: ${outcome.failure_details}`);
      ids.push(outcome.reference_id);
    }
  }
  return ids;
}

export function abstractLine(referenceId: string, text = `Abstract of ${referenceId}`): string {
  return JSON.stringify({ reference_id: referenceId, source: 'abstract-bot', visibility: 'public', robot_version: '1.0.0', content: { enhancement_type: 'abstract', process: 'other', abstract: text } });
}

const HARNESS_USER = { subject: 'user', roles: ['enhancement_request.writer'], entitlements: [] as string[], robot_id: '' };
const HARNESS_WRITER = { subject: 'admin', roles: ['robot.writer'], entitlements: [] as string[], robot_id: '' };

/**
 * robot-broker beside dedup-service on the stand-ins, a MongoDB client on robot-broker's database
 * (`beforeBrokerStarts` may seed it) and the calls most tests make.
 */
export async function startRobotBrokerHarness(label: string, options: { overrides?: RobotBrokerOverrides; env?: Record<string, string>; beforeBrokerStarts?(db: Db, references: DedupClient): Promise<void> } = {}) {
  const infrastructure = await startInfrastructure(label);
  const dedup = await startDedupService(infrastructure.env);
  const references = dedupClient(dedup.grpcPort);
  const mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
  const db = mongo.db('destiny_robot_broker');
  await options.beforeBrokerStarts?.(db, references);
  const broker = await startRobotBroker({ ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`, ...options.env }, options.overrides);
  const client = robotBrokerClient(broker.grpcPort);
  let dedupStopped: Promise<void> | undefined;
  const json = <T>(method: string, request: unknown) => callJson<T>(client, method, request);
  return {
    db,
    client,
    references,
    /** The RabbitMQ namespace robot-broker consumes in. */
    namespace: infrastructure.env.AMQP_NAMESPACE,
    json,
    newRobot: (name: string) => json<{ id: string }>('RegisterRobot', { caller: HARNESS_WRITER, json: JSON.stringify({ name, description: 'd', owner: 'o' }) }),
    request: (robotId: string, referenceIds: string[]) =>
      json<{ id: string }>('CreateEnhancementRequest', { caller: HARNESS_USER, json: JSON.stringify({ robot_id: robotId, reference_ids: referenceIds, source: 'tests' }) }),
    requestStatus: async (id: string) => (await json<{ request_status: string }>('GetEnhancementRequest', { id })).request_status,
    /** Polls as a requester with `entitlements`; null when there is no work. */
    poll: async (robotId: string, limit: number, options: { lease?: string; entitlements?: string[] } = {}): Promise<{ id: string; reference_storage_url: string; result_storage_url: string } | null> => {
      const document = await call<{ json: string }>(client, 'PollRobotEnhancementBatch', { caller: { ...HARNESS_USER, entitlements: options.entitlements ?? [] }, robot_id: robotId, limit, lease: options.lease ?? 'PT10M' });
      return document.json === '' ? null : JSON.parse(document.json);
    },
    /** Stops dedup-service, so robot-broker's calls to it fail from now on. */
    async stopReferenceStore() {
      dedupStopped ??= dedup.stop();
      await dedupStopped;
    },
    async stop() {
      await mongo.close();
      client.close();
      references.close();
      await broker.stop();
      await (dedupStopped ?? dedup.stop());
      await infrastructure.stop();
    },
  };
}

export type RobotBrokerHarness = Awaited<ReturnType<typeof startRobotBrokerHarness>>;
