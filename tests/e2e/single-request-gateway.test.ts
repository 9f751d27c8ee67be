import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApiGateway, type RunningApiGateway } from '@destiny/api-gateway';
import { robotAuthHeaders, uuidv7, verifyRobotSignature } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { startDedupService } from '@destiny/dedup-service';
import { requestDevelopmentToken, startIdentityProcess, type RunningIdentityProcess } from '@destiny/devstack/identity';
import { startTestInfrastructure, type TestInfrastructure } from '@destiny/devstack/testing';
import { callUnary, createGrpcClient, type RunningBackendService } from '@destiny/platform';
import { startRobotBroker } from '@destiny/robot-broker';
import { ensureDevstackBuilt } from '../../packages/devstack/test/identity/devstack.build';

// Single enhancement requests (§14) end to end: a requester with a bearer token asks through the
// gateway, robot-broker calls the robot's base_url with HMAC headers, and the robot reports back
// through the gateway signing its report with HMAC.

interface Provisioned {
  id: string;
  client_secret: string;
}

interface SingleRead {
  id: string;
  request_status: string;
  error: string | null;
}

interface RobotRequest {
  id: string;
  reference: { id: string };
  extra_fields: unknown;
}

describe('single enhancement requests through the gateway end to end', () => {
  let infrastructure: TestInfrastructure;
  let identity: RunningIdentityProcess;
  const services: RunningBackendService[] = [];
  let dedupAddress: string;
  let gateway: RunningApiGateway;
  let admin: Record<string, string>;
  let robotServer: http.Server;
  let robotUrl: string;
  const secrets = new Map<string, string>();
  const received: Array<{ body: RobotRequest; signatureValid: boolean }> = [];
  /** The robot's report per request, registered as the call arrives (before the robot answers). */
  const reports = new Map<string, Promise<Response>>();
  let reportWith: 'enhancement' | 'error' = 'enhancement';

  const url = (route: string) => `${gateway.url}/v1${route}`;
  const bearer = (method: string, body?: unknown): RequestInit => ({ method, headers: { ...admin, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const signed = (robotId: string, body: string): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...robotAuthHeaders({ secret: secrets.get(robotId) ?? '', clientId: robotId, body }) },
    body,
  });

  async function ingest(label: string): Promise<string> {
    const client = createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, dedupAddress);
    try {
      const line = {
        line_number: 1,
        import_result_id: uuidv7(),
        reference_json: JSON.stringify({
          identifiers: [{ identifier: `10.4444/${label}.${Date.now()}`, identifier_type: 'doi' }],
          enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'bibliographic', title: `${label} ${crypto.randomUUID()}` } }],
        }),
      };
      const response = (await callUnary(client, client.IngestReferences.bind(client) as never, { import_batch_id: uuidv7(), collision_strategy: 'fail', lines: [line] } as never)) as { outcomes: Array<{ reference_id: string }> };
      return response.outcomes[0].reference_id;
    } finally {
      client.close();
    }
  }

  async function registerRobot(name: string): Promise<Provisioned> {
    const response = await fetch(url('/robots/'), bearer('POST', { name, description: 'Adds abstracts on request', owner: 'Team S', base_url: robotUrl }));
    expect(response.status).toBe(201);
    const robot = (await response.json()) as Provisioned;
    secrets.set(robot.id, robot.client_secret);
    return robot;
  }

  async function waitForStatus(id: string, status: string): Promise<SingleRead> {
    for (let attempt = 0; attempt < 300; attempt += 1) {
      const response = await fetch(url(`/enhancement-requests/single-requests/${id}/`), bearer('GET'));
      expect(response.status).toBe(200);
      const read = (await response.json()) as SingleRead;
      if (read.request_status === status) return read;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`single request ${id} never became ${status}`);
  }

  beforeAll(async () => {
    ensureDevstackBuilt();
    [infrastructure, identity] = await Promise.all([startTestInfrastructure('single-request-gateway'), startIdentityProcess()]);
    robotServer = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const clientId = String(req.headers['x-client-id'] ?? '');
        const secret = secrets.get(clientId) ?? '';
        const signature = String(req.headers.authorization ?? '').replace(/^Signature /, '');
        const signatureValid = req.url === '/hooks/single/' && secret !== '' && verifyRobotSignature({ secret, clientId, timestampHeader: String(req.headers['x-request-timestamp'] ?? ''), body: raw, signature });
        const body = JSON.parse(raw.toString('utf8')) as RobotRequest;
        received.push({ body, signatureValid });
        if (!signatureValid) {
          res.writeHead(401);
          res.end();
          return;
        }
        const kind = reportWith;
        const sendReport = (): Promise<Response> =>
          // The robot reports on the spec path with an enhancement and on the legacy path with an error.
          kind === 'enhancement'
            ? fetch(
                url(`/enhancement-requests/single-requests/${body.id}/`),
                signed(clientId, JSON.stringify({ request_id: body.id, enhancement: { reference_id: body.reference.id, source: 'single-e2e-bot', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: `On request ${body.id}` } } })),
              )
            : fetch(url(`/enhancement-requests/single-requests/${body.id}/results/`), signed(clientId, JSON.stringify({ request_id: body.id, error: { message: 'no abstract found' } })));
        reports.set(body.id, new Promise<void>((resolve) => {
          res.writeHead(202);
          res.end(() => resolve());
        }).then(sendReport));
      });
    });
    await new Promise<void>((resolve) => robotServer.listen(0, '127.0.0.1', resolve));
    robotUrl = `http://127.0.0.1:${(robotServer.address() as AddressInfo).port}/hooks/`;
    const env = infrastructure.env;
    const dedup = await startDedupService(env);
    services.push(dedup);
    dedupAddress = `127.0.0.1:${dedup.grpcPort}`;
    const broker = await startRobotBroker({ ...env, DEDUP_SERVICE_GRPC_URL: dedupAddress, OUTBOUND_ALLOWLIST: '127.0.0.0/8' });
    services.push(broker);
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
    });
    admin = { authorization: `Bearer ${await requestDevelopmentToken(identity.url, 'admin')}` };
  });

  afterAll(async () => {
    await Promise.allSettled(reports.values());
    await gateway?.stop();
    for (const service of services.reverse()) await service.stop();
    await new Promise<void>((resolve) => (robotServer ? robotServer.close(() => resolve()) : resolve()));
    await identity?.stop();
    await infrastructure?.stop();
  });

  it('when a robot accepts a single request and reports an enhancement signed with HMAC, then 202 accepted, the report 201 and the request completed with the enhancement on the reference', async () => {
    const referenceId = await ingest('single-e2e');
    const robot = await registerRobot('single-e2e-bot');
    reportWith = 'enhancement';
    const created = await fetch(url('/enhancement-requests/single-requests/'), bearer('POST', { reference_id: referenceId, robot_id: robot.id, source: 'e2e', enhancement_parameters: { lang: 'en' } }));
    expect(created.status).toBe(202);
    const request = (await created.json()) as SingleRead;
    expect(['accepted', 'completed']).toContain(request.request_status);
    const call = received.find((entry) => entry.body.id === request.id);
    expect(call).toMatchObject({ signatureValid: true, body: { reference: { id: referenceId }, extra_fields: { lang: 'en' } } });

    const report = await reports.get(request.id);
    expect(report?.status).toBe(201);
    expect(await waitForStatus(request.id, 'completed')).toMatchObject({ error: null });
    const reference = await fetch(url(`/references/${referenceId}/`), bearer('GET'));
    expect(reference.status).toBe(200);
    const body = (await reference.json()) as { enhancements: Array<{ source: string; content: { abstract?: string } }> };
    expect(body.enhancements.filter((enhancement) => enhancement.source === 'single-e2e-bot').map((enhancement) => enhancement.content.abstract)).toEqual([`On request ${request.id}`]);
  });

  it('when the robot reports an error on the legacy path, then 200 and the request is failed with its message; an unsigned report is refused', async () => {
    const referenceId = await ingest('single-e2e-error');
    const robot = await registerRobot('single-e2e-error-bot');
    reportWith = 'error';
    const created = await fetch(url('/enhancement-requests/single-requests/'), bearer('POST', { reference_id: referenceId, robot_id: robot.id }));
    expect(created.status).toBe(202);
    const request = (await created.json()) as SingleRead;
    const report = await reports.get(request.id);
    expect(report?.status).toBe(200);
    expect(await waitForStatus(request.id, 'failed')).toMatchObject({ error: 'no abstract found' });

    const unsigned = await fetch(url(`/enhancement-requests/single-requests/${request.id}/`), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ request_id: request.id, error: { message: 'x' } }) });
    expect(unsigned.status).toBe(401);
    const mismatch = await fetch(url(`/enhancement-requests/single-requests/${request.id}/`), signed(robot.id, JSON.stringify({ request_id: uuidv7(), error: { message: 'x' } })));
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toEqual({ detail: 'Request ID mismatch' });
  });
});
