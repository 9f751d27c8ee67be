import { EVENTS_EXCHANGE, ROUTING_KEYS, uuidv7, type ReferencesIndexedEvent } from '@destiny/contracts';
import { TEST_AMQP_URL } from '@destiny/devstack/testing';
import { createAmqpConnection, createLogger, namespacedBus, type RunningBackendService } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import { startDedupService } from '../../dedup-service/src/index';
import { startRobotBroker } from '../src/index';
import { abstractLine, callJson, dedupClient, ingestReferences, robotBrokerClient, startInfrastructure, waitFor, type DedupClient, type RobotBrokerClient } from './robot-helpers';

// INDEXING → COMPLETED / INDEXING_FAILED (§12.1, §12.6): robot-broker waits for the exact reference
// version AddEnhancements reported; a refused version or a passed deadline fails the wait. Nothing
// plays search-request-service here: the test announces (or withholds) the indexing itself.

const USER = { subject: 'user', roles: ['enhancement_request.writer'], entitlements: [], robot_id: '' };
const WRITER = { subject: 'admin', roles: ['robot.writer'], entitlements: [], robot_id: '' };

describe('robot-broker indexing outcomes', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let dedup: RunningBackendService;
  let broker: RunningBackendService | undefined;
  let client: RobotBrokerClient;
  let references: DedupClient;
  let mongo: MongoClient;
  let db: Db;

  async function startBroker(deadlineSeconds: number): Promise<void> {
    client?.close();
    await broker?.stop();
    broker = await startRobotBroker({ ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`, ROBOT_INDEXING_DEADLINE_SECONDS: String(deadlineSeconds) });
    client = robotBrokerClient(broker.grpcPort);
  }

  beforeAll(async () => {
    infrastructure = await startInfrastructure('robot-indexing');
    dedup = await startDedupService(infrastructure.env);
    references = dedupClient(dedup.grpcPort);
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = mongo.db('destiny_robot_broker');
  });

  afterAll(async () => {
    await mongo?.close();
    client?.close();
    references?.close();
    await broker?.stop();
    await dedup?.stop();
    await infrastructure?.stop();
  });

  const json = <T>(method: string, request: unknown) => callJson<T>(client, method, request);
  const requestStatus = async (id: string) => (await json<{ request_status: string }>('GetEnhancementRequest', { id })).request_status;
  const rowOf = async (requestId: string) => (await db.collection('pending_enhancements').findOne({ enhancement_request_id: requestId })) as unknown as { status: string; index_version: number };

  /** One robot, one request per reference, one batch returning an abstract for each; answers the request ids once stored. */
  async function storeAbstracts(label: string, count: number): Promise<{ refs: string[]; requests: string[] }> {
    const refs = await ingestReferences(references, count, label);
    const robot = await json<{ id: string }>('RegisterRobot', { caller: WRITER, json: JSON.stringify({ name: `${label}-bot`, description: 'd', owner: 'o' }) });
    const requests: string[] = [];
    for (const ref of refs) requests.push((await json<{ id: string }>('CreateEnhancementRequest', { caller: USER, json: JSON.stringify({ robot_id: robot.id, reference_ids: [ref] }) })).id);
    const batch = await json<{ id: string; result_storage_url: string }>('PollRobotEnhancementBatch', { caller: USER, robot_id: robot.id, limit: 10, lease: 'PT10M' });
    const upload = await fetch(batch.result_storage_url, { method: 'PUT', body: refs.map((ref) => `${abstractLine(ref)}\n`).join('') });
    expect(upload.status).toBe(200);
    await json('SubmitRobotEnhancementBatchResult', { caller: USER, id: batch.id, json: JSON.stringify({ request_id: batch.id, error: null }) });
    for (const id of requests) await waitFor(async () => (await requestStatus(id)) === 'indexing', `request ${id} indexing`);
    return { refs, requests };
  }

  async function announce(event: Omit<ReferencesIndexedEvent, 'event_id' | 'occurred_at'>): Promise<void> {
    const full: ReferencesIndexedEvent = { event_id: uuidv7(), occurred_at: new Date().toISOString(), ...event };
    const bus = namespacedBus(await createAmqpConnection({ url: TEST_AMQP_URL, logger: createLogger({ service: 'test', level: 'silent' }), name: 'index-announcer' }), infrastructure.env.AMQP_NAMESPACE);
    try {
      await bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referencesIndexed, full, { messageId: full.event_id });
    } finally {
      await bus.close();
    }
  }

  it('when the search index announces versions, then only the stored version completes a pending enhancement and a refused version makes it indexing_failed', async () => {
    await startBroker(600);
    const { refs, requests } = await storeAbstracts('announced', 3);
    const versions = await Promise.all(requests.map(async (id) => (await rowOf(id)).index_version));
    // An older version than the one holding the enhancement completes nothing.
    await announce({ items: [{ reference_id: refs[0], version: versions[0] - 1 }] });
    await announce({ items: [{ reference_id: refs[1], version: versions[1] }], failed: [{ reference_id: refs[2], version: versions[2] }] });
    await waitFor(async () => (await requestStatus(requests[1])) === 'completed', 'the indexed one completed');
    await waitFor(async () => (await requestStatus(requests[2])) === 'indexing_failed', 'the refused one indexing_failed');
    expect(await requestStatus(requests[0])).toBe('indexing');
    await announce({ items: [{ reference_id: refs[0], version: versions[0] }] });
    await waitFor(async () => (await requestStatus(requests[0])) === 'completed', 'completed at its version');
    expect((await rowOf(requests[2])).status).toBe('indexing_failed');
  });

  it('when a stored enhancement is not announced as indexed before the deadline, then it becomes indexing_failed and so does its request', async () => {
    await startBroker(1);
    const { requests } = await storeAbstracts('deadline', 2);
    for (const id of requests) await waitFor(async () => (await requestStatus(id)) === 'indexing_failed', `request ${id} indexing_failed`);
    expect((await rowOf(requests[0])).status).toBe('indexing_failed');
  });
});
