import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApiGateway, type RunningApiGateway } from '@destiny/api-gateway';
import { robotAuthHeaders, robotSignature, uuidv7 } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { startDedupService } from '@destiny/dedup-service';
import { startBlob } from '@destiny/devstack/blob';
import { requestDevelopmentToken, startIdentityProcess, type RunningIdentityProcess } from '@destiny/devstack/identity';
import { startMongo } from '@destiny/devstack/mongo';
import { startSearch } from '@destiny/devstack/search';
import { createTestMessagingNamespace } from '@destiny/devstack/testing';
import { callUnary, createGrpcClient, type RunningBackendService } from '@destiny/platform';
import { startRobotBroker } from '@destiny/robot-broker';
import { startSearchRequestService } from '@destiny/search-request-service';
import { ensureDevstackBuilt } from '../../packages/devstack/test/identity/devstack.build';

// A robot written against the contract (HMAC signing, plain fetch for the files) through the
// gateway in front of robot-broker, dedup-service and search-request-service, with bearer tokens
// from the identity stand-in for the requester.

interface Provisioned {
  id: string;
  client_secret: string;
}

describe('robots through the gateway end to end', () => {
  let dataDir: string;
  let mongo: Awaited<ReturnType<typeof startMongo>>;
  let search: Awaited<ReturnType<typeof startSearch>>;
  let blob: Awaited<ReturnType<typeof startBlob>>;
  let identity: RunningIdentityProcess;
  const services: RunningBackendService[] = [];
  let dedupAddress: string;
  let gateway: RunningApiGateway;
  let admin: Record<string, string>;
  const messaging = createTestMessagingNamespace('robot-gateway');
  const url = (route: string) => `${gateway.url}/v1${route}`;
  const bearer = (method: string, body?: unknown): RequestInit => ({ method, headers: { ...admin, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  /** What a robot sends: the exact body bytes it signs. */
  const signed = (robot: Provisioned, method: string, body = '', options: { secret?: string; clientId?: string; timestamp?: number } = {}): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json', ...robotAuthHeaders({ secret: options.secret ?? robot.client_secret, clientId: options.clientId ?? robot.id, body, timestamp: options.timestamp }) },
    body: method === 'GET' ? undefined : body,
  });

  async function ingest(count: number, label: string): Promise<string[]> {
    const client = createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, dedupAddress);
    try {
      const lines = Array.from({ length: count }, (_, n) => ({
        line_number: n + 1,
        import_result_id: uuidv7(),
        reference_json: JSON.stringify({
          identifiers: [{ identifier: `10.4444/${label}.${n}.${Date.now()}`, identifier_type: 'doi' }],
          enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'bibliographic', title: `${label} reference ${n} ${crypto.randomUUID()}` } }],
        }),
      }));
      const response = (await callUnary(client, client.IngestReferences.bind(client) as never, { import_batch_id: uuidv7(), collision_strategy: 'fail', lines } as never)) as { outcomes: Array<{ reference_id: string }> };
      return response.outcomes.map((outcome) => outcome.reference_id);
    } finally {
      client.close();
    }
  }

  async function register(name: string): Promise<Provisioned> {
    const response = await fetch(url('/robots/'), bearer('POST', { name, description: 'Adds abstracts', owner: 'Team A' }));
    expect(response.status).toBe(201);
    return (await response.json()) as Provisioned;
  }

  beforeAll(async () => {
    ensureDevstackBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-robot-gateway-'));
    [mongo, search, blob, identity] = await Promise.all([
      startMongo({ port: 0, dataDir: path.join(dataDir, 'mongo') }),
      startSearch({ port: 0 }),
      startBlob({ port: 0, host: '127.0.0.1', dataDir: path.join(dataDir, 'blob') }),
      startIdentityProcess(),
    ]);
    const env = { ...messaging.env, MONGODB_URL: mongo.url, GRPC_PORT: '0', HEALTH_PORT: '0', LOG_LEVEL: 'silent', GRPC_HOST: '127.0.0.1' };
    const dedup = await startDedupService(env);
    services.push(dedup);
    dedupAddress = `127.0.0.1:${dedup.grpcPort}`;
    const broker = await startRobotBroker({
      ...env,
      DEDUP_SERVICE_GRPC_URL: dedupAddress,
      BLOB_ENDPOINT: blob.url,
      BLOB_ACCESS_KEY: blob.accessKey,
      BLOB_SECRET_KEY: blob.secretKey,
      ROBOT_SECRET_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
      ROBOT_LEASE_SWEEP_MS: '200',
    });
    services.push(broker);
    const searchService = await startSearchRequestService({ ...env, ELASTICSEARCH_URL: search.url, DEDUP_SERVICE_GRPC_URL: dedupAddress, INDEXING_BATCH_WAIT_MS: '10' });
    services.push(searchService);
    gateway = await startApiGateway({
      PORT: '0',
      HEALTH_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      AUTH_ISSUER: identity.issuer,
      AUTH_JWKS_URL: identity.jwksUrl,
      AUTH_AUDIENCE: identity.audience,
      DEDUP_SERVICE_GRPC_URL: dedupAddress,
      ROBOT_BROKER_GRPC_URL: `127.0.0.1:${broker.grpcPort}`,
      SEARCH_REQUEST_SERVICE_GRPC_URL: `127.0.0.1:${searchService.grpcPort}`,
    });
    admin = { authorization: `Bearer ${await requestDevelopmentToken(identity.url, 'admin')}` };
  });

  afterAll(async () => {
    await gateway?.stop();
    for (const service of services.reverse()) await service.stop();
    await Promise.all([mongo?.stop(), search?.stop(), blob?.stop(), identity?.stop()]);
    await messaging.remove();
    fs.rmSync(dataDir, { recursive: true, force: true });
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
