import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { EVENTS_EXCHANGE, ROUTING_KEYS, uuidv7, verifyRobotSignature, type ReferenceChangedEvent } from '@destiny/contracts';
import { startTestInfrastructure, TEST_AMQP_URL, type TestInfrastructure } from '@destiny/devstack/testing';
import { createAmqpConnection, createLogger, namespacedBus, type RunningBackendService } from '@destiny/platform';
import { startDedupService } from '../../dedup-service/src/index';
import { startRobotBroker } from '../src/index';
import { call, dedupClient, failure, ingestReferences, robotBrokerClient, waitFor, type DedupClient, type RobotBrokerClient } from './robot-helpers';

const WRITER = { subject: 'admin', roles: ['robot.writer'], entitlements: ['robot_entitlement_writer'], robot_id: '' };
const USER = { subject: 'user', roles: ['enhancement_request.writer'], entitlements: [], robot_id: '' };

interface SingleRead {
  id: string;
  reference_id: string;
  robot_id: string;
  source: string | null;
  enhancement_parameters: Record<string, unknown> | null;
  request_status: string;
  error: string | null;
}

interface RobotCall {
  path: string;
  body: { id: string; reference: { id: string; visibility: string; identifiers: unknown[]; enhancements: Array<Record<string, unknown>> }; extra_fields: unknown };
  signatureValid: boolean;
  clientId: string;
}

type Behaviour = { status: number; text?: string; report?: 'enhancement' | 'error' };

/** A robot's HTTP endpoint: checks the service's HMAC headers, answers as told, reports back over gRPC. */
async function startTestRobot(report: (call: RobotCall, kind: 'enhancement' | 'error') => Promise<void>) {
  const calls: RobotCall[] = [];
  const secrets = new Map<string, string>();
  let behaviour: Behaviour = { status: 202 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const clientId = String(req.headers['x-client-id'] ?? '');
      const signature = String(req.headers.authorization ?? '').replace(/^Signature /, '');
      const secret = secrets.get(clientId) ?? '';
      const signatureValid = secret !== '' && verifyRobotSignature({ secret, clientId, timestampHeader: String(req.headers['x-request-timestamp'] ?? ''), body: raw, signature });
      const robotCall: RobotCall = { path: req.url ?? '', body: JSON.parse(raw.toString('utf8')) as RobotCall['body'], signatureValid, clientId };
      calls.push(robotCall);
      const current = behaviour;
      res.writeHead(signatureValid ? current.status : 401, { 'Content-Type': 'text/plain' });
      res.end(signatureValid ? (current.text ?? '') : 'bad signature', () => {
        if (signatureValid && current.report) void report(robotCall, current.report);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/robot/`,
    calls,
    trust(robotId: string, secret: string) {
      secrets.set(robotId, secret);
    },
    behave(next: Behaviour) {
      behaviour = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('robot-broker single enhancement requests', () => {
  let infrastructure: TestInfrastructure;
  let dedup: RunningBackendService;
  let broker: RunningBackendService;
  let client: RobotBrokerClient;
  let references: DedupClient;
  let robot: Awaited<ReturnType<typeof startTestRobot>>;
  const reports: Array<Promise<unknown>> = [];
  const changes: ReferenceChangedEvent[] = [];
  let amqp: Awaited<ReturnType<typeof createAmqpConnection>>;

  const json = async <T>(method: string, request: unknown, on: RobotBrokerClient = client) => JSON.parse((await call<{ json: string }>(on, method, request)).json) as T;
  const submit = (requestId: string, body: unknown, pathId = requestId) => json<SingleRead>('SubmitSingleRobotResult', { caller: USER, id: pathId, json: JSON.stringify(body) });
  const abstractFor = (referenceId: string, text: string) => ({ reference_id: referenceId, source: 'single-bot', visibility: 'public', robot_version: '2.0', content: { enhancement_type: 'abstract', process: 'other', abstract: text } });

  beforeAll(async () => {
    infrastructure = await startTestInfrastructure('single-requests');
    dedup = await startDedupService(infrastructure.env);
    broker = await startRobotBroker({ ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`, ROBOT_CALL_TIMEOUT_MS: '5000' });
    client = robotBrokerClient(broker.grpcPort);
    references = dedupClient(dedup.grpcPort);
    amqp = await createAmqpConnection({ url: TEST_AMQP_URL, logger: createLogger({ service: 'single-test', level: 'silent' }), name: 'single-requests-test' });
    const bus = namespacedBus(amqp, infrastructure.env.AMQP_NAMESPACE);
    await bus.declareTopology({ exchanges: [{ name: EVENTS_EXCHANGE, type: 'topic' }], queues: [{ name: 'test.single-changes', bindings: [{ exchange: EVENTS_EXCHANGE, routingKey: ROUTING_KEYS.referenceChanged }] }] });
    await bus.consume<ReferenceChangedEvent>('test.single-changes', async (event) => {
      changes.push(event);
      return { outcome: 'ack' };
    });
    robot = await startTestRobot(async (robotCall, kind) => {
      const body =
        kind === 'error'
          ? { request_id: robotCall.body.id, error: { message: 'robot could not do it' } }
          : { request_id: robotCall.body.id, enhancement: abstractFor(robotCall.body.reference.id, `Abstract written for ${robotCall.body.id}`) };
      const sent = submit(robotCall.body.id, body);
      reports.push(sent.catch((error: unknown) => error));
      await sent;
    });
  });

  afterAll(async () => {
    await Promise.all(reports);
    await robot?.close();
    if (amqp) await namespacedBus(amqp, infrastructure.env.AMQP_NAMESPACE).deleteTopology({ exchanges: [], queues: [{ name: 'test.single-changes' }] });
    await amqp?.close();
    client?.close();
    references?.close();
    await broker?.stop();
    await dedup?.stop();
    await infrastructure?.stop();
  });

  const newRobot = async (name: string, baseUrl: string | null) => {
    const created = await json<{ id: string; client_secret: string }>('RegisterRobot', { caller: WRITER, json: JSON.stringify({ name, description: 'd', owner: 'o', entitlements: [], ...(baseUrl === null ? {} : { base_url: baseUrl }) }) });
    robot.trust(created.id, created.client_secret);
    return created.id;
  };
  const create = (body: Record<string, unknown>, on: RobotBrokerClient = client) => json<SingleRead>('CreateSingleEnhancementRequest', { caller: USER, json: JSON.stringify(body) }, on);
  const get = (id: string) => json<SingleRead>('GetSingleEnhancementRequest', { id });

  it('when the robot accepts and reports an enhancement, then the request completes and the enhancement is stored with the reference', async () => {
    const [referenceId] = await ingestReferences(references, 1, 'single-round-trip');
    const robotId = await newRobot('round-trip-bot', robot.url);
    robot.behave({ status: 202, report: 'enhancement' });
    const created = await create({ reference_id: referenceId, robot_id: robotId, source: 'tests', enhancement_parameters: { depth: 2 } });
    expect(['accepted', 'completed']).toContain(created.request_status);
    expect(created).toMatchObject({ reference_id: referenceId, robot_id: robotId, source: 'tests', enhancement_parameters: { depth: 2 }, error: null });

    const robotCall = robot.calls.find((entry) => entry.body.id === created.id);
    expect(robotCall).toMatchObject({ path: '/robot/single/', signatureValid: true, clientId: robotId });
    expect(robotCall?.body.extra_fields).toEqual({ depth: 2 });
    expect(Object.keys(robotCall?.body.reference ?? {})).toEqual(['visibility', 'id', 'identifiers', 'enhancements']);
    expect(robotCall?.body.reference.id).toBe(referenceId);
    expect(robotCall?.body.reference.enhancements[0]).toHaveProperty('robot_version', null);

    const done = await waitFor(async () => {
      const current = await get(created.id);
      return current.request_status === 'completed' && current;
    }, 'the request to complete');
    expect(done.error).toBeNull();
    const stored = JSON.parse((await call<{ json: string }>(references, 'GetReference', { id: referenceId })).json) as { enhancements: Array<{ source: string; content: { abstract?: string } }> };
    expect(stored.enhancements.filter((enhancement) => enhancement.source === 'single-bot').map((enhancement) => enhancement.content.abstract)).toEqual([`Abstract written for ${created.id}`]);
    // The robot is the change's origin, which is what excludes it from its own automations.
    const change = await waitFor(() => changes.find((event) => event.reference_id === referenceId && event.kind === 'enhanced'), 'the reference.changed event');
    expect(change.origin).toEqual({ robot_id: robotId, enhancement_request_id: created.id });
  });

  it('when the reported enhancement carries keys the contract does not declare, then the stored enhancement keeps none of them', async () => {
    const [referenceId] = await ingestReferences(references, 1, 'single-unknown-keys');
    const robotId = await newRobot('unknown-keys-single-bot', robot.url);
    robot.behave({ status: 202 });
    const created = await create({ reference_id: referenceId, robot_id: robotId });
    const enhancement = { ...abstractFor(referenceId, 'Abstract with extras'), source: 'single-extras-bot', confidence: 0.9, content: { enhancement_type: 'abstract', process: 'other', abstract: 'Abstract with extras', extra_key: 1 } };
    expect(await submit(created.id, { request_id: created.id, enhancement })).toMatchObject({ request_status: 'completed' });
    const text = (await call<{ json: string }>(references, 'GetReference', { id: referenceId })).json;
    const stored = (JSON.parse(text) as { enhancements: Array<Record<string, unknown> & { source: string }> }).enhancements.filter((item) => item.source === 'single-extras-bot');
    expect(stored).toEqual([expect.objectContaining({ robot_version: '2.0', content: { enhancement_type: 'abstract', process: 'other', abstract: 'Abstract with extras' } })]);
    expect(Object.keys(stored[0]).sort()).toEqual(['content', 'created_at', 'derived_from', 'id', 'reference_id', 'robot_version', 'source', 'visibility']);
  });

  it('when the robot reports an error, then the request is failed with its message', async () => {
    const [referenceId] = await ingestReferences(references, 1, 'single-error-report');
    const robotId = await newRobot('error-report-bot', robot.url);
    robot.behave({ status: 202, report: 'error' });
    const created = await create({ reference_id: referenceId, robot_id: robotId });
    const failed = await waitFor(async () => {
      const current = await get(created.id);
      return current.request_status === 'failed' && current;
    }, 'the request to fail');
    expect(failed.error).toBe('robot could not do it');
  });

  it('when the robot answers 500, then the request is failed', async () => {
    const [referenceId] = await ingestReferences(references, 1, 'single-500');
    const robotId = await newRobot('broken-bot', robot.url);
    robot.behave({ status: 500, text: 'boom' });
    const created = await create({ reference_id: referenceId, robot_id: robotId });
    expect(created).toMatchObject({ request_status: 'failed', error: `Cannot request enhancement from Robot ${robotId}.` });
    expect(await get(created.id)).toEqual(created);
  });

  it('when the robot answers 400, then the request is rejected with the robot\'s text', async () => {
    const [referenceId] = await ingestReferences(references, 1, 'single-400');
    const robotId = await newRobot('picky-bot', robot.url);
    robot.behave({ status: 400, text: 'I only enhance articles about owls' });
    const created = await create({ reference_id: referenceId, robot_id: robotId });
    expect(created).toMatchObject({ request_status: 'rejected', error: 'I only enhance articles about owls' });
  });

  it('when the robot cannot be reached, then the request is failed', async () => {
    const [referenceId] = await ingestReferences(references, 1, 'single-unreachable');
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const robotId = await newRobot('absent-bot', `http://127.0.0.1:${port}`);
    const created = await create({ reference_id: referenceId, robot_id: robotId });
    expect(created).toMatchObject({ request_status: 'failed', error: `Cannot request enhancement from Robot ${robotId}.` });
  });

  it('when the reference or robot does not exist or the robot has no base_url, then 422 and nothing is called', async () => {
    const [referenceId] = await ingestReferences(references, 1, 'single-422');
    const robotId = await newRobot('no-url-bot', null);
    const missingReference = uuidv7();
    const missingRobot = uuidv7();
    const before = robot.calls.length;
    expect(await failure(create({ reference_id: missingReference, robot_id: robotId }))).toEqual({ status: 422, detail: `Reference with id ${missingReference} does not exist.` });
    expect(await failure(create({ reference_id: referenceId, robot_id: missingRobot }))).toEqual({ status: 422, detail: `Robot with id ${missingRobot} does not exist.` });
    expect(await failure(create({ reference_id: referenceId, robot_id: robotId }))).toEqual({ status: 422, detail: 'Robot has no base_url.' });
    expect(robot.calls.length).toBe(before);
  });

  it('when a result is misaddressed, for another reference or derived from unknown enhancements, then 400, 404 or 422 and the request is unchanged', async () => {
    const [referenceId, otherId] = await ingestReferences(references, 2, 'single-bad-results');
    const robotId = await newRobot('quiet-bot', robot.url);
    robot.behave({ status: 202 });
    const created = await create({ reference_id: referenceId, robot_id: robotId });
    expect(created.request_status).toBe('accepted');
    const unknown = uuidv7();
    expect(await failure(submit(created.id, { request_id: created.id, error: { message: 'x' } }, unknown))).toEqual({ status: 400, detail: 'Request ID mismatch' });
    expect(await failure(submit(unknown, { request_id: unknown, error: { message: 'x' } }))).toEqual({ status: 404, detail: `EnhancementRequest with id ${unknown} does not exist.` });
    expect(await failure(submit(created.id, { request_id: created.id, enhancement: abstractFor(otherId, 'wrong one') }))).toEqual({ status: 422, detail: 'Enhancement is for a different reference than requested.' });
    expect((await failure(submit(created.id, { request_id: created.id }))).status).toBe(422);
    const strangerParent = uuidv7();
    expect(await failure(submit(created.id, { request_id: created.id, enhancement: { ...abstractFor(referenceId, 'orphan'), derived_from: [strangerParent] } }))).toEqual({
      status: 422,
      detail: `Enhancements with ids [${strangerParent}] do not exist.`,
    });
    expect(await get(created.id)).toEqual(created);

    const stored = JSON.parse((await call<{ json: string }>(references, 'GetReference', { id: referenceId })).json) as { enhancements: Array<{ id: string }> };
    const completed = await submit(created.id, { request_id: created.id, enhancement: { ...abstractFor(referenceId, 'right one'), derived_from: [stored.enhancements[0].id] } });
    expect(completed).toMatchObject({ id: created.id, request_status: 'completed', error: null });
  });

  it('when an unknown single request is read, then 404', async () => {
    const unknown = uuidv7();
    expect(await failure(get(unknown))).toEqual({ status: 404, detail: `EnhancementRequest with id ${unknown} does not exist.` });
  });

  it('when OUTBOUND_ALLOWLIST does not permit loopback, then a loopback base_url is not called and the request is failed', async () => {
    const guarded = await startRobotBroker({ ...infrastructure.env, OUTBOUND_ALLOWLIST: '', DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}` });
    const guardedClient = robotBrokerClient(guarded.grpcPort);
    try {
      const [referenceId] = await ingestReferences(references, 1, 'single-ssrf');
      const robotId = await newRobot('loopback-bot', robot.url);
      robot.behave({ status: 202 });
      const before = robot.calls.length;
      const created = await create({ reference_id: referenceId, robot_id: robotId }, guardedClient);
      expect(created).toMatchObject({ request_status: 'failed', error: `Cannot request enhancement from Robot ${robotId}.` });
      expect(robot.calls.length).toBe(before);
    } finally {
      guardedClient.close();
      await guarded.stop();
    }
  });
});
