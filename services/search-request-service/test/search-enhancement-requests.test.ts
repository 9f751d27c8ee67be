import { uuidv7, type ReferenceIdsSearchResult, type SearchEnhancementRequestRead } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { RobotBrokerClient } from '@destiny/contracts/generated/grpc/destiny/robot_broker/RobotBroker';
import type { SearchRequestServiceClient } from '@destiny/contracts/generated/grpc/destiny/search_request_service/SearchRequestService';
import { startTestInfrastructure, type TestInfrastructure } from '@destiny/devstack/testing';
import { callUnary, createAmqpConnection, createGrpcClient, createLogger, namespacedBus, ServiceError, type AmqpConnection, type MessageBus, type RunningBackendService } from '@destiny/platform';
import { startRobotBroker } from '@destiny/robot-broker';
import { MongoClient } from 'mongodb';
import { startSearchRequestService, type SearchRequestServiceOverrides } from '../src/index';
import { bibliographic, changed, view } from './search-fixtures';
import { EVENTS_EXCHANGE, ROUTING_KEYS } from '@destiny/contracts';

// The real robot-broker and search-request-service against the stand-ins and real RabbitMQ; the
// scan pages through 10 matches at a time so a few dozen references span several pages.
describe('search-request-service search-based enhancement requests', () => {
  const PAGE_SIZE = 10;
  const MATCHES = 25;
  let infrastructure: TestInfrastructure;
  let broker: RunningBackendService;
  let service: RunningBackendService;
  let serviceEnv: Record<string, string>;
  let client: SearchRequestServiceClient;
  let robots: RobotBrokerClient;
  let connection: AmqpConnection;
  let bus: MessageBus;
  let mongo: MongoClient;
  let robotId: string;
  const hooks: SearchRequestServiceOverrides = {};

  const startService = async () => {
    service = await startSearchRequestService(serviceEnv, { afterScanPage: (requestId, pagesDone) => hooks.afterScanPage?.(requestId, pagesDone) ?? Promise.resolve() });
    client?.close();
    client = createGrpcClient(loadDestinyProtos().destiny.search_request_service.SearchRequestService, `127.0.0.1:${service.grpcPort}`);
  };
  const callJson = async <T>(method: 'CreateSearchEnhancementRequest' | 'GetSearchEnhancementRequest' | 'CountReferences' | 'SearchReferenceIds', request: unknown): Promise<T> => {
    const response = await callUnary<unknown, { json: string }>(client, (client[method] as (...args: never[]) => unknown).bind(client) as never, request);
    return JSON.parse(response.json) as T;
  };
  const create = (body: Record<string, unknown>) => callJson<SearchEnhancementRequestRead>('CreateSearchEnhancementRequest', { json: JSON.stringify(body) });
  const get = (id: string) => callJson<SearchEnhancementRequestRead>('GetSearchEnhancementRequest', { id });
  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  };
  const untilFinished = async (id: string) => {
    for (;;) {
      const read = await get(id);
      if (read.search_status === 'completed' || read.search_status === 'failed') return read;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const pendingOf = (requestId: string) => mongo.db('destiny_robot_broker').collection<{ reference_id: string }>('pending_enhancements').find({ enhancement_request_id: requestId }).toArray();
  const matchingIds = async (q: string) => new Set((await callJson<ReferenceIdsSearchResult>('SearchReferenceIds', { json: JSON.stringify({ q }) })).reference_ids);

  beforeAll(async () => {
    infrastructure = await startTestInfrastructure('search-requests');
    broker = await startRobotBroker(infrastructure.env);
    serviceEnv = { ...infrastructure.env, ROBOT_BROKER_GRPC_URL: `127.0.0.1:${broker.grpcPort}`, SEARCH_SCAN_PAGE_SIZE: String(PAGE_SIZE), SEARCH_SCAN_RETRY_DELAY_MS: '100', INDEXING_BATCH_WAIT_MS: '20' };
    await startService();
    robots = createGrpcClient(loadDestinyProtos().destiny.robot_broker.RobotBroker, `127.0.0.1:${broker.grpcPort}`);
    const response = await callUnary<unknown, { json: string }>(robots, robots.RegisterRobot.bind(robots) as never, {
      caller: { subject: 'admin', roles: ['robot.writer'], entitlements: [], robot_id: '' },
      json: JSON.stringify({ name: 'search robot', description: 'test robot', owner: 'tests' }),
    });
    robotId = (JSON.parse(response.json) as { id: string }).id;
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    const logger = createLogger({ service: 'search-requests-test', level: 'silent' });
    connection = await createAmqpConnection({ url: infrastructure.env.AMQP_URL, logger, name: 'search-requests-test' });
    bus = namespacedBus(connection, infrastructure.env.AMQP_NAMESPACE);
    const events = [
      ...Array.from({ length: MATCHES }, (_, index) => {
        const id = uuidv7();
        return changed(view(id, [bibliographic(id, { title: `Wetland restoration study ${index}` })]), 1);
      }),
      ...Array.from({ length: 5 }, () => {
        const id = uuidv7();
        return changed(view(id, [bibliographic(id, { title: 'Urban transport pricing' })]), 1);
      }),
    ];
    await Promise.all(events.map((event) => bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referenceChanged, event, { messageId: event.event_id })));
    while ((await callJson<{ count: number }>('CountReferences', { search_query: 'wetland OR transport' })).count < events.length) await new Promise((resolve) => setTimeout(resolve, 50));
  });

  afterAll(async () => {
    client?.close();
    robots?.close();
    await connection?.close();
    await mongo?.close();
    await service?.stop();
    await broker?.stop();
    await infrastructure?.stop();
  });

  it('when a dry run counts a query for an existing robot, then the count equals the references a search finds', async () => {
    const counted = await callJson<{ count: number; is_lower_bound: boolean }>('CountReferences', { search_query: 'title:wetland', robot_id: robotId });
    expect(counted).toEqual({ count: MATCHES, is_lower_bound: false });
    expect((await matchingIds('title:wetland')).size).toBe(MATCHES);
  });

  it('when the robot does not exist, then the request and the dry run answer 422 and nothing is stored', async () => {
    const unknown = uuidv7();
    const created = await failure(create({ robot_id: unknown, search_query: 'wetland' }));
    expect(created.httpStatus).toBe(422);
    expect(created.detail).toBe(`Robot with id ${unknown} does not exist.`);
    const counted = await failure(callJson('CountReferences', { search_query: 'wetland', robot_id: unknown }));
    expect(counted.httpStatus).toBe(422);
    expect(counted.detail).toBe(`Robot with id ${unknown} does not exist.`);
    expect(await mongo.db('destiny_search_request').collection('search_enhancement_requests').countDocuments({ robot_id: unknown })).toBe(0);
  });

  it('when a request over several pages of matches is submitted, then it completes with exactly one pending enhancement per match', async () => {
    const read = await create({ robot_id: robotId, search_query: 'title:wetland', source: 'tests' });
    expect(read).toEqual({
      id: read.id,
      robot_id: robotId,
      source: 'tests',
      search_status: 'pending',
      request_status: 'received',
      n_matched: null,
      n_enhancements_requested: 0,
      enhancement_status_counts: {},
      error: null,
    });
    const finished = await untilFinished(read.id);
    expect(finished).toEqual({ ...read, search_status: 'completed', n_matched: MATCHES, n_enhancements_requested: MATCHES, enhancement_status_counts: { pending: MATCHES }, request_status: 'received' });
    const pending = await pendingOf(read.id);
    expect(pending).toHaveLength(MATCHES);
    expect(new Set(pending.map((row) => row.reference_id))).toEqual(await matchingIds('title:wetland'));
  });

  it('when nothing matches, then the scan completes with n_matched 0 and the request reads completed', async () => {
    const read = await create({ robot_id: robotId, search_query: 'title:nothingmatchesthis' });
    expect(await untilFinished(read.id)).toEqual({ ...read, search_status: 'completed', n_matched: 0, request_status: 'completed' });
  });

  it('when the query cannot be parsed, then the scan fails with the reason', async () => {
    const read = await create({ robot_id: robotId, search_query: 'title:(unbalanced' });
    const finished = await untilFinished(read.id);
    expect(finished.search_status).toBe('failed');
    expect(finished.error).toMatch(/^Failed to collect references: /);
  });

  it('when the search query is empty, then the request answers 400 like a dry run does', async () => {
    const error = await failure(create({ robot_id: robotId, search_query: '' }));
    expect(error.httpStatus).toBe(400);
    expect((await failure(callJson('CountReferences', { search_query: '', robot_id: robotId }))).detail).toBe(error.detail);
  });

  it('when the id is unknown, then the read answers 404', async () => {
    const id = uuidv7();
    const error = await failure(get(id));
    expect(error.httpStatus).toBe(404);
    expect(error.detail).toBe(`SearchEnhancementRequest with id ${id} does not exist.`);
  });

  it('when the service stops between pages, then the restarted service resumes after the stored page and requests nothing twice', async () => {
    let stopping: Promise<void> | undefined;
    let interrupted!: () => void;
    const stoppedAfterFirstPage = new Promise<void>((resolve) => (interrupted = resolve));
    hooks.afterScanPage = async (_requestId, pagesDone) => {
      if (pagesDone === 1 && !stopping) {
        // Not awaited: stopping waits for this very page's handler to settle.
        stopping = service.stop();
        interrupted();
      }
    };
    const read = await create({ robot_id: robotId, search_query: 'wetland OR transport' });
    await stoppedAfterFirstPage;
    await stopping;
    const stored = await mongo.db('destiny_search_request').collection('search_enhancement_requests').findOne({ _id: read.id as never });
    expect(stored).toMatchObject({ search_status: 'searching', n_matched: MATCHES + 5, progress: { pages_done: 1 } });
    expect(await pendingOf(read.id)).toHaveLength(PAGE_SIZE);

    const resumedPages: number[] = [];
    hooks.afterScanPage = async (requestId, pagesDone) => {
      if (requestId === read.id) resumedPages.push(pagesDone);
    };
    await startService();
    const finished = await untilFinished(read.id);
    expect(finished).toMatchObject({ search_status: 'completed', n_matched: MATCHES + 5, n_enhancements_requested: MATCHES + 5, enhancement_status_counts: { pending: MATCHES + 5 } });
    expect(resumedPages).toEqual([2, 3]);
    const pending = await pendingOf(read.id);
    expect(pending).toHaveLength(MATCHES + 5);
    expect(new Set(pending.map((row) => row.reference_id))).toEqual(await matchingIds('wetland OR transport'));
  });

  it('when a crash lost the progress of a page whose pending enhancements were created, then the redone page adds nothing', async () => {
    const requests = mongo.db('destiny_search_request').collection<{ _id: string; progress: unknown }>('search_enhancement_requests');
    let afterFirstPage: unknown;
    let stopping: Promise<void> | undefined;
    let interrupted!: () => void;
    const stoppedAfterSecondPage = new Promise<void>((resolve) => (interrupted = resolve));
    hooks.afterScanPage = async (requestId, pagesDone) => {
      if (pagesDone === 1) afterFirstPage = (await requests.findOne({ _id: requestId }))?.progress;
      if (pagesDone === 2 && !stopping) {
        stopping = service.stop();
        interrupted();
      }
    };
    const read = await create({ robot_id: robotId, search_query: 'title:wetland' });
    await stoppedAfterSecondPage;
    await stopping;
    expect(await pendingOf(read.id)).toHaveLength(2 * PAGE_SIZE);
    // What a crash between page 2's CreatePendingEnhancements and its progress write leaves.
    await requests.updateOne({ _id: read.id }, { $set: { progress: afterFirstPage } });

    const resumedPages: number[] = [];
    hooks.afterScanPage = async (requestId, pagesDone) => {
      if (requestId === read.id) resumedPages.push(pagesDone);
    };
    await startService();
    const finished = await untilFinished(read.id);
    expect(resumedPages).toEqual([2, 3]);
    expect(finished).toMatchObject({ search_status: 'completed', n_matched: MATCHES, n_enhancements_requested: MATCHES, enhancement_status_counts: { pending: MATCHES } });
    const pending = await pendingOf(read.id);
    expect(pending).toHaveLength(MATCHES);
    expect(new Set(pending.map((row) => row.reference_id))).toEqual(await matchingIds('title:wetland'));
  });
});
