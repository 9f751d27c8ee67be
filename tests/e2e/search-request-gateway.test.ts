import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApiGateway, type RunningApiGateway } from '@destiny/api-gateway';
import { robotAuthHeaders, uuidv7 } from '@destiny/contracts';
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

// Search-based enhancement requests (§11) through the gateway: references ingested by
// dedup-service become searchable, a request over them is scanned into pending enhancements at
// robot-broker, and a contract robot polls exactly the matched references.

interface Provisioned {
  id: string;
  client_secret: string;
}

describe('search-based enhancement requests through the gateway end to end', () => {
  let dataDir: string;
  let mongo: Awaited<ReturnType<typeof startMongo>>;
  let search: Awaited<ReturnType<typeof startSearch>>;
  let blob: Awaited<ReturnType<typeof startBlob>>;
  let identity: RunningIdentityProcess;
  const services: RunningBackendService[] = [];
  let dedupAddress: string;
  let gateway: RunningApiGateway;
  let admin: Record<string, string>;
  const messaging = createTestMessagingNamespace('search-request-gateway');
  const url = (route: string) => `${gateway.url}/v1${route}`;
  const bearer = (method: string, body?: unknown): RequestInit => ({ method, headers: { ...admin, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const signed = (robot: Provisioned, method: string): RequestInit => ({ method, headers: { 'content-type': 'application/json', ...robotAuthHeaders({ secret: robot.client_secret, clientId: robot.id, body: '' }) } });

  async function ingest(titles: string[]): Promise<string[]> {
    const client = createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, dedupAddress);
    try {
      const lines = titles.map((title, n) => ({
        line_number: n + 1,
        import_result_id: uuidv7(),
        reference_json: JSON.stringify({
          identifiers: [{ identifier: `10.5555/search-request.${n}.${crypto.randomUUID()}`, identifier_type: 'doi' }],
          enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'bibliographic', title } }],
        }),
      }));
      const response = (await callUnary(client, client.IngestReferences.bind(client) as never, { import_batch_id: uuidv7(), collision_strategy: 'fail', lines } as never)) as { outcomes: Array<{ reference_id: string }> };
      return response.outcomes.map((outcome) => outcome.reference_id);
    } finally {
      client.close();
    }
  }

  const dryRun = async (robotId: string, searchQuery: string) => fetch(url('/enhancement-requests/search/?dry_run=true'), bearer('POST', { robot_id: robotId, search_query: searchQuery }));

  beforeAll(async () => {
    ensureDevstackBuilt();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-search-request-gateway-'));
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
    });
    services.push(broker);
    const searchService = await startSearchRequestService({
      ...env,
      ELASTICSEARCH_URL: search.url,
      DEDUP_SERVICE_GRPC_URL: dedupAddress,
      ROBOT_BROKER_GRPC_URL: `127.0.0.1:${broker.grpcPort}`,
      INDEXING_BATCH_WAIT_MS: '10',
      SEARCH_SCAN_PAGE_SIZE: '3',
    });
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

  it('when a search request is submitted for a robot, then it completes over exactly the matches and the robot polls them', async () => {
    const matching = await ingest(Array.from({ length: 7 }, (_, n) => `Mangrove carbon storage ${n}`));
    await ingest(['Desert irrigation economics', 'Desert solar yields']);
    const robotResponse = await fetch(url('/robots/'), bearer('POST', { name: 'search-robot', description: 'Adds abstracts', owner: 'Team A' }));
    expect(robotResponse.status).toBe(201);
    const robot = (await robotResponse.json()) as Provisioned;

    let counted = await dryRun(robot.id, 'mangrove');
    while (((await counted.clone().json()) as { count: number }).count < matching.length) counted = await dryRun(robot.id, 'mangrove');
    expect(counted.status).toBe(200);
    expect(await counted.json()).toEqual({ count: matching.length, is_lower_bound: false });

    const created = await fetch(url('/enhancement-requests/search/'), bearer('POST', { robot_id: robot.id, search_query: 'mangrove', source: 'e2e' }));
    expect(created.status).toBe(202);
    const request = (await created.json()) as { id: string };
    expect(request).toEqual({ id: request.id, robot_id: robot.id, source: 'e2e', search_status: 'pending', request_status: 'received', n_matched: null, n_enhancements_requested: 0, enhancement_status_counts: {}, error: null });

    const read = async () => {
      const response = await fetch(url(`/enhancement-requests/search/${request.id}/`), bearer('GET'));
      expect(response.status).toBe(200);
      return (await response.json()) as { search_status: string; request_status: string };
    };
    let current = await read();
    while (current.search_status === 'pending' || current.search_status === 'searching') current = await read();
    expect(current).toEqual({ ...request, search_status: 'completed', n_matched: matching.length, n_enhancements_requested: matching.length, enhancement_status_counts: { pending: matching.length } });

    const polled = await fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}&limit=100`), signed(robot, 'POST'));
    expect(polled.status).toBe(200);
    const batch = (await polled.json()) as { reference_storage_url: string };
    const lines = (await (await fetch(batch.reference_storage_url)).text()).split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as { id: string });
    expect(lines.map((line) => line.id).sort()).toEqual([...matching].sort());
    expect(await read()).toMatchObject({ request_status: 'processing', enhancement_status_counts: { processing: matching.length } });
  });

  it('when the robot does not exist or the request id is unknown, then 422 and 404 with the contract details', async () => {
    const robotId = uuidv7();
    const created = await fetch(url('/enhancement-requests/search/'), bearer('POST', { robot_id: robotId, search_query: 'mangrove' }));
    expect(created.status).toBe(422);
    expect(await created.json()).toEqual({ detail: `Robot with id ${robotId} does not exist.` });
    const dryRun = await fetch(url('/enhancement-requests/search/?dry_run=true'), bearer('POST', { robot_id: robotId, search_query: 'mangrove' }));
    expect(dryRun.status).toBe(422);
    expect(await dryRun.json()).toEqual({ detail: `Robot with id ${robotId} does not exist.` });
    const id = uuidv7();
    const missing = await fetch(url(`/enhancement-requests/search/${id}/`), bearer('GET'));
    expect(missing.status).toBe(404);
  });
});
