import crypto from 'node:crypto';
import { robotSignature, uuidv7 } from '@destiny/contracts';
import { startSystemUnderTest, type Provisioned, type SystemUnderTest } from './support/system-under-test';

// A robot written against the contract (HMAC signing, plain fetch for the files) through the
// gateway in front of robot-broker, dedup-service and search-request-service, with bearer tokens
// from the identity stand-in for the requester.

describe('robots through the gateway end to end', () => {
  let system: SystemUnderTest;
  const url = (route: string) => system.url(route);
  const bearer = (method: string, body?: unknown) => system.bearer(method, body);
  const signed: SystemUnderTest['signed'] = (...args) => system.signed(...args);
  const register = (name: string) => system.register(name);

  const ingest = (count: number, label: string): Promise<string[]> =>
    system.ingest(
      Array.from({ length: count }, (_, n) => ({
        identifiers: [{ identifier: `10.4444/${label}.${n}.${Date.now()}`, identifier_type: 'doi' }],
        enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'bibliographic', title: `${label} reference ${n} ${crypto.randomUUID()}` } }],
      })),
    );

  beforeAll(async () => {
    system = await startSystemUnderTest({
      label: 'robot-gateway',
      services: ['dedup-service', 'robot-broker', 'search-request-service'],
      env: { 'robot-broker': { ROBOT_LEASE_SWEEP_MS: '200' }, 'search-request-service': { INDEXING_BATCH_WAIT_MS: '10' } },
    });
  });

  afterAll(async () => {
    await system?.stop();
  });

  it('when a robot is registered, updated and its secret cycled through the gateway, then 201/200/422/201 with robot bodies', async () => {
    const robot = await register('registry-bot');
    expect(robot.client_secret).toMatch(/^[0-9a-f]{64}$/);
    const update = await fetch(url(`/robots/${robot.id}/`), bearer('PUT', { id: robot.id, name: 'registry-bot', description: 'new', owner: 'Team B' }));
    expect(update.status).toBe(200);
    expect(await update.json()).toEqual({ name: 'registry-bot', description: 'new', owner: 'Team B', entitlements: [], id: robot.id });
    const withSecret = await fetch(url(`/robots/${robot.id}/`), bearer('PUT', { name: 'registry-bot', description: 'new', owner: 'Team B', client_secret: robot.client_secret }));
    expect(withSecret.status).toBe(422);
    const clash = await fetch(url('/robots/'), bearer('POST', { name: 'registry-bot', description: 'd', owner: 'o' }));
    expect(clash.status).toBe(409);
    const cycled = await fetch(url(`/robots/${robot.id}/secret/`), bearer('POST'));
    expect(cycled.status).toBe(201);
    expect(((await cycled.json()) as Provisioned).client_secret).not.toBe(robot.client_secret);
  });

  it('when a contract robot polls, downloads, uploads and submits, then the request goes received → processing → completed once the enhancements are searchable', async () => {
    const refs = await ingest(3, 'robot-loop');
    const robot = await register('loop-robot');
    const created = await fetch(url('/enhancement-requests/'), bearer('POST', { robot_id: robot.id, reference_ids: refs, source: 'e2e' }));
    expect(created.status).toBe(202);
    const request = (await created.json()) as { id: string; request_status: string };
    expect(request.request_status).toBe('received');
    const status = async () => ((await (await fetch(url(`/enhancement-requests/${request.id}/`), bearer('GET'))).json()) as { request_status: string }).request_status;

    const polled = await fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}&limit=10&lease=PT10M`), signed(robot, 'POST'));
    expect(polled.status).toBe(200);
    const batch = (await polled.json()) as { id: string; reference_storage_url: string; result_storage_url: string; extra_fields: null };
    expect(batch.extra_fields).toBeNull();
    expect(await status()).toBe('processing');
    const again = await fetch(url(`/robot-enhancement-batches/${batch.id}/`), signed(robot, 'GET'));
    expect(again.status).toBe(200);

    const lines = (await (await fetch(batch.reference_storage_url)).text()).split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { id: string });
    expect(lines.map((line) => line.id).sort()).toEqual([...refs].sort());
    const results = lines.map((line) => `${JSON.stringify({ reference_id: line.id, source: 'loop-robot', visibility: 'public', robot_version: '1.0.0', content: { enhancement_type: 'abstract', process: 'other', abstract: `About ${line.id}` } })}\n`).join('');
    expect((await fetch(batch.result_storage_url, { method: 'PUT', body: results })).status).toBe(200);

    const renewed = await fetch(url(`/robot-enhancement-batches/${batch.id}/renew-lease/?lease=PT10M`), signed(robot, 'PATCH'));
    expect(renewed.status).toBe(200);
    expect(await renewed.text()).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);

    const mismatch = await fetch(url(`/robot-enhancement-batches/${batch.id}/results/`), signed(robot, 'POST', JSON.stringify({ request_id: refs[0], error: null })));
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toEqual({ detail: 'Request ID mismatch' });
    const submitted = await fetch(url(`/robot-enhancement-batches/${batch.id}/results/`), signed(robot, 'POST', JSON.stringify({ request_id: batch.id, error: null })));
    expect(submitted.status).toBe(202);
    expect(await submitted.json()).toMatchObject({ robot_id: robot.id, id: batch.id, source: null, validation_result_url: null, error: null });

    let current = await status();
    for (let attempt = 0; attempt < 600 && current !== 'completed'; attempt += 1) {
      expect(['processing', 'importing', 'indexing', 'completed']).toContain(current);
      await new Promise((resolve) => setTimeout(resolve, 50));
      current = await status();
    }
    expect(current).toBe('completed');
    const reference = (await (await fetch(url(`/references/${refs[0]}/`), bearer('GET'))).json()) as { enhancements: Array<{ source: string }> };
    expect(reference.enhancements.filter((enhancement) => enhancement.source === 'loop-robot')).toHaveLength(1);
    const empty = await fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}`), signed(robot, 'POST'));
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('when a lease would end after the year 9999, then poll and renewal answer 422 with the validation list and the batch keeps its lease', async () => {
    const refs = await ingest(1, 'robot-long-lease');
    const robot = await register('long-lease-robot');
    expect((await fetch(url('/enhancement-requests/'), bearer('POST', { robot_id: robot.id, reference_ids: refs }))).status).toBe(202);
    const tooLong = (lease: string) => ({ detail: [{ type: 'value_error', loc: ['query', 'lease'], msg: 'Value error, lease is too long: it would expire after the year 9999.', input: lease }] });
    const refusedPoll = await fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}&lease=P99999999999Y`), signed(robot, 'POST'));
    expect(refusedPoll.status).toBe(422);
    expect(await refusedPoll.json()).toEqual(tooLong('P99999999999Y'));
    const polled = await fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}&lease=PT10M`), signed(robot, 'POST'));
    expect(polled.status).toBe(200);
    const batch = (await polled.json()) as { id: string };
    for (const lease of ['P300000Y', 'P99999999999Y']) {
      const refused = await fetch(url(`/robot-enhancement-batches/${batch.id}/renew-lease/?lease=${lease}`), signed(robot, 'PATCH'));
      expect(refused.status).toBe(422);
      expect(await refused.json()).toEqual(tooLong(lease));
    }
    // The lease is as it was, still running: it can be renewed.
    const renewed = await fetch(url(`/robot-enhancement-batches/${batch.id}/renew-lease/?lease=PT10M`), signed(robot, 'PATCH'));
    expect(renewed.status).toBe(200);
  });

  it('when a robot polls full batches back to back, then each poll gets the next references (prepared meanwhile) and the last answers 204', async () => {
    const refs = await ingest(4, 'robot-back-to-back');
    const robot = await register('back-to-back-robot');
    expect((await fetch(url('/enhancement-requests/'), bearer('POST', { robot_id: robot.id, reference_ids: refs }))).status).toBe(202);
    const poll = () => fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}&limit=2&lease=PT10M`), signed(robot, 'POST'));
    const served: string[] = [];
    for (let batchNumber = 0; batchNumber < 2; batchNumber += 1) {
      const response = await poll();
      expect(response.status).toBe(200);
      const batch = (await response.json()) as { id: string; reference_storage_url: string };
      expect((await fetch(url(`/robot-enhancement-batches/${batch.id}/`), signed(robot, 'GET'))).status).toBe(200);
      const lines = (await (await fetch(batch.reference_storage_url)).text()).split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(2);
      served.push(...lines.map((line) => (JSON.parse(line) as { id: string }).id));
    }
    expect(served.sort()).toEqual([...refs].sort());
    expect((await poll()).status).toBe(204);
  });

  it('when a signature is wrong in any way, then 401 with the §4.4 detail, including the old secret after cycling', async () => {
    const robot = await register('hmac-robot');
    const poll = url(`/robot-enhancement-batches/?robot_id=${robot.id}`);
    const detail = async (init: RequestInit) => {
      const response = await fetch(poll, init);
      expect(response.status).toBe(401);
      return ((await response.json()) as { detail: string }).detail;
    };
    expect((await fetch(poll, signed(robot, 'POST'))).status).toBe(204);
    expect(await detail(signed(robot, 'POST', '', { secret: 'f'.repeat(64) }))).toBe('Signature is invalid.');
    expect(await detail(signed(robot, 'POST', '', { timestamp: Date.now() / 1000 - 301 }))).toBe('Token is expired.');
    const stranger = uuidv7();
    expect(await detail(signed(robot, 'POST', '', { clientId: stranger }))).toBe(`robot client ${stranger} does not exist.`);
    const tampered = signed(robot, 'POST', '');
    expect(await detail({ ...tampered, body: '{}' })).toBe('Signature is invalid.');
    expect(await detail({ method: 'POST' })).toBe('Authorization header missing.');

    const timestamp = String(Date.now() / 1000);
    const raw = robotSignature({ secret: robot.client_secret, clientId: robot.id, timestamp, body: '' });
    expect((await fetch(poll, { method: 'POST', headers: { authorization: `Signature ${raw}`, 'x-client-id': robot.id, 'x-request-timestamp': timestamp } })).status).toBe(204);

    const cycled = (await (await fetch(url(`/robots/${robot.id}/secret/`), bearer('POST'))).json()) as Provisioned;
    expect(await detail(signed(robot, 'POST'))).toBe('Signature is invalid.');
    expect((await fetch(poll, signed(cycled, 'POST'))).status).toBe(204);
  });

  it('when a lease passes before the robot submits, then the results are 422 and the work is offered again', async () => {
    const refs = await ingest(2, 'robot-expiry');
    const robot = await register('late-robot');
    expect((await fetch(url('/enhancement-requests/'), bearer('POST', { robot_id: robot.id, reference_ids: refs }))).status).toBe(202);
    const first = (await (await fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}&lease=PT1S`), signed(robot, 'POST'))).json()) as { id: string };
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const late = await fetch(url(`/robot-enhancement-batches/${first.id}/results/`), signed(robot, 'POST', JSON.stringify({ request_id: first.id, error: null })));
    expect(late.status).toBe(422);
    expect(await late.json()).toEqual({ detail: "Cannot process results: Cannot transition from status 'expired' to 'importing'" });
    const renew = await fetch(url(`/robot-enhancement-batches/${first.id}/renew-lease/`), signed(robot, 'PATCH'));
    expect(renew.status).toBe(409);
    const second = await fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}`), signed(robot, 'POST'));
    expect(second.status).toBe(200);
    const lines = (await (await fetch(((await second.json()) as { reference_storage_url: string }).reference_storage_url)).text()).split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(2);
    const failed = await fetch(url(`/robot-enhancement-batches/${first.id}/results/`), signed(robot, 'POST', JSON.stringify({ request_id: first.id, error: { message: 'too late' } })));
    expect(failed.status).toBe(422);
  });
});
