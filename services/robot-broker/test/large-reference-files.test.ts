import { uuidv7 } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { startDedupService } from '../../dedup-service/src/index';
import { startRobotBroker } from '../src/index';
import { call, callJson, dedupClient, robotBrokerClient, startInfrastructure, type DedupClient, type RobotBrokerClient } from './robot-helpers';

const USER = { subject: 'user', roles: ['enhancement_request.writer'], entitlements: [], robot_id: '' };
const WRITER = { subject: 'admin', roles: ['robot.writer'], entitlements: ['robot_entitlement_writer'], robot_id: '' };
const REFERENCES = 70;
const ABSTRACT_BYTES = 1024 * 1024;

// A robot's batch holds up to 10,000 references; their lines together can outgrow the 64 MB a gRPC
// reply may carry, here 70 references of 1 MB each.
describe('robot-broker polling a batch whose reference lines outgrow one gRPC reply', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let dedup: RunningBackendService;
  let broker: RunningBackendService;
  let client: RobotBrokerClient;
  let references: DedupClient;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('large-reference-files');
    dedup = await startDedupService(infrastructure.env);
    references = dedupClient(dedup.grpcPort);
    broker = await startRobotBroker({ ...infrastructure.env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}` });
    client = robotBrokerClient(broker.grpcPort);
  });

  afterAll(async () => {
    client?.close();
    await broker?.stop();
    references?.close();
    await dedup?.stop();
    await infrastructure?.stop();
  });

  it('when a poll claims 70 references of 1 MB each, then its reference file holds every one of them', async () => {
    const ids: string[] = [];
    for (let start = 0; start < REFERENCES; start += 10) {
      const lines = Array.from({ length: 10 }, (_, offset) => ({
        line_number: offset + 1,
        import_result_id: uuidv7(),
        reference_json: JSON.stringify({
          identifiers: [{ identifier: `10.5555/large.${start + offset}`, identifier_type: 'doi' }],
          enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: `${start + offset} `.padEnd(ABSTRACT_BYTES, 'x') } }],
        }),
      }));
      const { outcomes } = await call<{ outcomes: Array<{ status: string; reference_id: string }> }>(references, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: 'fail', lines });
      ids.push(...outcomes.map((outcome) => outcome.reference_id));
    }
    const robot = await callJson<{ id: string }>(client, 'RegisterRobot', { caller: WRITER, json: JSON.stringify({ name: 'large-bot', description: 'd', owner: 'o', entitlements: [] }) });
    await callJson(client, 'CreateEnhancementRequest', { caller: USER, json: JSON.stringify({ robot_id: robot.id, reference_ids: ids, source: 'tests' }) });

    const polled = await call<{ json: string }>(client, 'PollRobotEnhancementBatch', { caller: USER, robot_id: robot.id, limit: 100, lease: 'PT10M' });
    const batch = JSON.parse(polled.json) as { reference_storage_url: string };
    const file = await (await fetch(batch.reference_storage_url)).text();

    // Counts and ids only: a failure should not print 70 MB.
    const lines = file.slice(0, -1).split('\n');
    expect(lines.length).toBe(REFERENCES);
    expect(lines.map((line) => (JSON.parse(line) as { id: string }).id).sort()).toEqual([...ids].sort());
    expect(lines.filter((line) => line.length <= ABSTRACT_BYTES).length).toBe(0);
  }, 120_000);
});
