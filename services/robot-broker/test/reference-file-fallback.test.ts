import * as grpc from '@grpc/grpc-js';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { RunningBackendService } from '@destiny/platform';
import { startDedupService } from '../../dedup-service/src/index';
import { startRobotBroker } from '../src/index';
import { call, callJson, dedupClient, ingestReferences, robotBrokerClient, startInfrastructure, type DedupClient, type RobotBrokerClient } from './robot-helpers';

const USER = { subject: 'user', roles: ['enhancement_request.writer'], entitlements: [], robot_id: '' };
const WRITER = { subject: 'admin', roles: ['robot.writer'], entitlements: ['robot_entitlement_writer'], robot_id: '' };

/**
 * A dedup-service of the version before `GetReferenceFileLines` and `GetStoredReferenceIds`: every
 * other unary method is passed to the real one, those are not served (grpc-js answers UNIMPLEMENTED).
 */
async function startEarlierDedupService(target: DedupClient): Promise<{ port: number; stop(): void }> {
  const definition = loadDestinyProtos().destiny.dedup_service.DedupService.service;
  const implementation: grpc.UntypedServiceImplementation = {};
  for (const [method, shape] of Object.entries(definition)) {
    if (method === 'GetReferenceFileLines' || method === 'GetStoredReferenceIds' || shape.requestStream || shape.responseStream) continue;
    implementation[method] = ((forwarded: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      (target as unknown as Record<string, (request: unknown, done: (error: grpc.ServiceError | null, response?: unknown) => void) => void>)[method](forwarded.request, (error, response) => callback(error, response));
    }) as grpc.UntypedHandleCall;
  }
  const server = new grpc.Server();
  server.addService(definition, implementation);
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
  return { port, stop: () => server.forceShutdown() };
}

describe('robot-broker polling through a dedup-service of an earlier version', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let dedup: RunningBackendService;
  let earlier: Awaited<ReturnType<typeof startEarlierDedupService>>;
  let broker: RunningBackendService;
  let client: RobotBrokerClient;
  let references: DedupClient;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('reference-file-fallback');
    dedup = await startDedupService(infrastructure.env);
    references = dedupClient(dedup.grpcPort);
    earlier = await startEarlierDedupService(references);
    broker = await startRobotBroker({ ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${earlier.port}` });
    client = robotBrokerClient(broker.grpcPort);
  });

  afterAll(async () => {
    client?.close();
    await broker?.stop();
    earlier?.stop();
    references?.close();
    await dedup?.stop();
    await infrastructure?.stop();
  });

  it('when dedup-service does not serve GetReferenceFileLines or GetStoredReferenceIds, then a request is checked and a poll writes the reference file from the views, line for line as the current dedup-service writes it', async () => {
    const ids = await ingestReferences(references, 4, 'fallback');
    const robot = await callJson<{ id: string }>(client, 'RegisterRobot', { caller: WRITER, json: JSON.stringify({ name: 'fallback-bot', description: 'd', owner: 'o', entitlements: [] }) });
    await callJson(client, 'CreateEnhancementRequest', { caller: USER, json: JSON.stringify({ robot_id: robot.id, reference_ids: ids, source: 'tests' }) });

    const polled = await call<{ json: string }>(client, 'PollRobotEnhancementBatch', { caller: USER, robot_id: robot.id, limit: 10, lease: 'PT10M' });
    const batch = JSON.parse(polled.json) as { reference_storage_url: string };
    const response = await fetch(batch.reference_storage_url);
    expect(response.status).toBe(200);
    const file = await response.text();

    const current = await call<{ ids: string[]; lines: string[] }>(references, 'GetReferenceFileLines', { ids, full_text: false });
    expect(current.ids).toEqual(ids);
    expect(file.endsWith('\n')).toBe(true);
    expect(file.slice(0, -1).split('\n').sort()).toEqual([...current.lines].sort());
  });
});
