import { robotAuthHeaders, robotSignature } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient } from 'mongodb';
import { startRobotBroker } from '../src/index';
import { call, failure, robotBrokerClient, startInfrastructure, type RobotBrokerClient } from './robot-helpers';

interface Provisioned {
  id: string;
  name: string;
  description: string;
  owner: string;
  entitlements: string[];
  client_secret: string;
  base_url?: string;
}

const WRITER = { subject: 'admin', roles: ['robot.writer'], entitlements: ['robot_entitlement_writer'], robot_id: '' };
const PLAIN: { subject: string; roles: string[]; entitlements: string[]; robot_id: string } = { subject: 'user', roles: ['robot.writer'], entitlements: [], robot_id: '' };

describe('robot-broker robot registry and signatures', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let broker: RunningBackendService;
  let client: RobotBrokerClient;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('robot-registry');
    broker = await startRobotBroker(infrastructure.env);
    client = robotBrokerClient(broker.grpcPort);
  });

  afterAll(async () => {
    client?.close();
    await broker?.stop();
    await infrastructure?.stop();
  });

  const register = async (body: unknown, caller = PLAIN) => JSON.parse((await call<{ json: string }>(client, 'RegisterRobot', { caller, json: JSON.stringify(body) })).json) as Provisioned;
  it('when a robot is registered, then it answers a ProvisionedRobot whose secret is 64 hex and stored only encrypted', async () => {
    const robot = await register({ name: 'abstract-bot', description: 'Adds abstracts', owner: 'Team A' });
    expect(Object.keys(robot).sort()).toEqual(['client_secret', 'description', 'entitlements', 'id', 'name', 'owner']);
    expect(robot.client_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(robot.entitlements).toEqual([]);
    const mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    try {
      const stored = await mongo.db('destiny_robot_broker').collection('robots').findOne({ _id: robot.id as never });
      expect(JSON.stringify(stored)).not.toContain(robot.client_secret);
    } finally {
      await mongo.close();
    }
    const read = JSON.parse((await call<{ json: string }>(client, 'GetRobot', { id: robot.id })).json);
    expect(read).toEqual({ name: 'abstract-bot', description: 'Adds abstracts', owner: 'Team A', entitlements: [], id: robot.id });
    const listed = (await call<{ json: string[] }>(client, 'ListRobots', {})).json.map((text) => JSON.parse(text) as { id: string });
    expect(listed.map((item) => item.id)).toContain(robot.id);
  });

  it('when names clash, keys are unknown or ids differ, then 409 and 422 come back with the contract messages', async () => {
    await register({ name: 'clash-bot', description: 'd', owner: 'o' });
    expect(await failure(register({ name: 'clash-bot', description: 'd', owner: 'o' }))).toEqual({
      status: 409,
      detail: 'Unable to perform operation on Robot. Violation: Key (name)=(clash-bot) already exists.',
    });
    const other = await register({ name: 'other-bot', description: 'd', owner: 'o' });
    const update = (body: unknown, caller = PLAIN) => call<{ json: string }>(client, 'UpdateRobot', { caller, id: other.id, json: JSON.stringify(body) });
    expect((await failure(update({ name: 'clash-bot', description: 'd', owner: 'o' }))).status).toBe(409);
    expect((await failure(update({ name: 'x', description: 'd', owner: 'o', client_secret: 'no' }))).status).toBe(422);
    expect((await failure(update({ name: 'x', description: 'd', owner: 'o', id: '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f' }))).status).toBe(422);
    const updated = JSON.parse((await update({ name: 'renamed-bot', description: 'new', owner: 'p', id: other.id, base_url: 'https://robot.example/' })).json);
    expect(updated).toEqual({ name: 'renamed-bot', description: 'new', owner: 'p', entitlements: [], id: other.id, base_url: 'https://robot.example/' });
    expect(await failure(call(client, 'GetRobot', { id: '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f' }))).toEqual({ status: 404, detail: 'Robot with id 01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f does not exist.' });
  });

  it('when entitlements are set without the writer grant, then 403; with it they are stored; equal or empty sets keep them', async () => {
    const denied = await failure(register({ name: 'ft-bot', description: 'd', owner: 'o', entitlements: ['full_text'] }));
    expect(denied).toEqual({ status: 403, detail: 'Changing robot entitlements requires the robot.entitlement.writer scope or role.' });
    const robot = await register({ name: 'ft-bot', description: 'd', owner: 'o', entitlements: ['full_text'] }, WRITER);
    expect(robot.entitlements).toEqual(['full_text']);
    const update = (entitlements: string[] | undefined, caller = PLAIN) =>
      call<{ json: string }>(client, 'UpdateRobot', { caller, id: robot.id, json: JSON.stringify({ name: 'ft-bot', description: 'd', owner: 'o', ...(entitlements ? { entitlements } : {}) }) });
    expect(JSON.parse((await update([])).json).entitlements).toEqual(['full_text']);
    expect(JSON.parse((await update(['full_text'])).json).entitlements).toEqual(['full_text']);
    expect((await failure(update(['raw_enhancement_writer']))).status).toBe(403);
    expect(JSON.parse((await update(['raw_enhancement_writer'], WRITER)).json).entitlements).toEqual(['raw_enhancement_writer']);
    expect(JSON.parse((await call<{ json: string }>(client, 'GetRobot', { id: robot.id })).json).entitlements).toEqual(['raw_enhancement_writer']);
  });

  it('when a robot signs correctly, then VerifyRobotSignature answers it with its entitlements; every wrong input is a 401 with the §4.4 detail', async () => {
    const robot = await register({ name: 'signer-bot', description: 'd', owner: 'o', entitlements: ['full_text'] }, WRITER);
    const body = '{"request_id":"01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e60","error":null}';
    const verify = (secret: string, presentedBody = body, clientId = robot.id, timestamp?: number) => {
      const headers = robotAuthHeaders({ secret, clientId, body, timestamp });
      return call<{ robot_id: string; entitlements: string[] }>(client, 'VerifyRobotSignature', {
        authorization: headers.Authorization,
        client_id: clientId,
        request_timestamp: headers['X-Request-Timestamp'],
        body: Buffer.from(presentedBody),
      });
    };
    expect(await verify(robot.client_secret)).toEqual({ subject: robot.id, roles: [], entitlements: ['full_text'], robot_id: robot.id });
    const invalid = { status: 401, detail: 'Signature is invalid.' };
    expect(await failure(verify('0'.repeat(64)))).toEqual(invalid);
    expect(await failure(verify(robot.client_secret, `${body} `))).toEqual(invalid);
    const stranger = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
    expect(await failure(verify(robot.client_secret, body, stranger))).toEqual({ status: 401, detail: `robot client ${stranger} does not exist.` });

    // A robot that signs the raw header text (not Python float formatting) is accepted too.
    const raw = robotSignature({ secret: robot.client_secret, clientId: robot.id, timestamp: '1767225600.50', body: '' });
    expect((await call<{ robot_id: string }>(client, 'VerifyRobotSignature', { authorization: `Signature ${raw}`, client_id: robot.id, request_timestamp: '1767225600.50', body: Buffer.alloc(0) })).robot_id).toBe(robot.id);

    const cycled = JSON.parse((await call<{ json: string }>(client, 'CycleRobotSecret', { id: robot.id })).json) as Provisioned;
    expect(cycled.client_secret).toMatch(/^[0-9a-f]{64}$/);
    expect(cycled.client_secret).not.toBe(robot.client_secret);
    expect(await failure(verify(robot.client_secret))).toEqual(invalid);
    expect((await verify(cycled.client_secret)).robot_id).toBe(robot.id);
  });
});
