import { startTestInfrastructure, type TestInfrastructure } from '@destiny/devstack/testing';
import type { RunningBackendService } from '@destiny/platform';
import { startDedupService } from '../../dedup-service/src/index';
import { startImportService } from '../../import-service/src/index';
import { startPercolator } from '../../percolator/src/index';
import { startRobotBroker } from '../../robot-broker/src/index';
import { startSearchRequestService } from '../../search-request-service/src/index';
import { startApiGateway, type RunningApiGateway } from '../src/index';

// The six services started in-process on free ports against the MongoDB stand-in and the real
// RabbitMQ, with the gateway wired to the five others over gRPC.
describe('api-gateway with the five backend services', () => {
  let infrastructure: TestInfrastructure;
  const services: Record<string, RunningBackendService> = {};
  let gateway: RunningApiGateway;

  beforeAll(async () => {
    infrastructure = await startTestInfrastructure('gateway-system');
    const env = infrastructure.env;
    services['import-service'] = await startImportService(env);
    services['dedup-service'] = await startDedupService(env);
    services['robot-broker'] = await startRobotBroker(env);
    services['search-request-service'] = await startSearchRequestService(env);
    services.percolator = await startPercolator(env);
    const address = (name: string) => `127.0.0.1:${services[name].grpcPort}`;
    gateway = await startApiGateway({
      PORT: '0',
      HEALTH_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      IMPORT_SERVICE_GRPC_URL: address('import-service'),
      DEDUP_SERVICE_GRPC_URL: address('dedup-service'),
      ROBOT_BROKER_GRPC_URL: address('robot-broker'),
      SEARCH_REQUEST_SERVICE_GRPC_URL: address('search-request-service'),
      PERCOLATOR_GRPC_URL: address('percolator'),
    });
  });

  afterAll(async () => {
    await gateway?.stop();
    await Promise.all(Object.values(services).map((service) => service.stop()));
    await infrastructure?.stop();
  });

  it('when every service is up, then the healthcheck answers 200 {"status":"ok"}', async () => {
    const response = await fetch(`${gateway.url}/v1/system/healthcheck/`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('when each backend service is asked, then its HTTP readiness and liveness answer', async () => {
    for (const service of Object.values(services)) {
      expect((await fetch(`http://127.0.0.1:${service.healthPort}/livez`)).status).toBe(200);
      const ready = await fetch(`http://127.0.0.1:${service.healthPort}/readyz`);
      expect(await ready.json()).toMatchObject({ status: 'ok', checks: { mongodb: true, message_bus: true } });
    }
  });

  it('when a flag is not a boolean, then the healthcheck answers 422 with the validation list', async () => {
    const response = await fetch(`${gateway.url}/v1/system/healthcheck/?database=maybe`);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ detail: [{ type: 'bool_parsing', loc: ['query', 'database'] }] });
  });

  it('when the OpenAPI document and docs page are requested, then both are served', async () => {
    const document = await fetch(`${gateway.url}/v1/openapi.json`);
    expect(document.status).toBe(200);
    expect(await document.json()).toMatchObject({ openapi: expect.stringMatching(/^3\.1/) });
    const page = await fetch(`${gateway.url}/v1/docs/`);
    expect(await page.text()).toContain('swagger-ui');
    expect((await fetch(`${gateway.url}/v1/docs/assets/swagger-ui-bundle.js`)).status).toBe(200);
  });

  it('when an unknown route is requested, then 404 {"detail":"Not Found"}', async () => {
    const response = await fetch(`${gateway.url}/v1/no-such-thing/`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: 'Not Found' });
  });

  it('when a service stops, then the healthcheck reports it unavailable with 500, and ping still answers', async () => {
    await services.percolator.stop();
    const response = await fetch(`${gateway.url}/v1/system/healthcheck/`);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ detail: 'percolator is unavailable.' });
    const withoutSearch = await fetch(`${gateway.url}/v1/system/healthcheck/?database=false&elasticsearch=false`);
    expect(withoutSearch.status).toBe(200);
    expect((await fetch(`${gateway.url}/v1/system/ping/`)).status).toBe(200);
  });
});
