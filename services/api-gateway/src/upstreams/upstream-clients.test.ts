import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { createGrpcServer, createLogger, ServiceError, type GrpcServer } from '@destiny/platform';
import { createUpstreams, type Upstreams } from './upstream-clients';

// One real gRPC server serving only part of DedupService; the other upstreams point at a closed port.
describe('upstream gRPC calls and their error mapping', () => {
  let server: GrpcServer;
  let upstreams: Upstreams;

  beforeAll(async () => {
    server = createGrpcServer({ host: '127.0.0.1', port: 0, logger: createLogger({ service: 'upstream-test', level: 'silent' }) });
    server.addService(loadDestinyProtos().destiny.dedup_service.DedupService.service, {
      GetReference: async (request: { id: string }) => {
        if (request.id === 'boom') throw new Error('database exploded');
        if (request.id === 'huge') return { json: JSON.stringify({ notes: 'x'.repeat(65 * 1024 * 1024) }) };
        throw ServiceError.notFound('Reference', request.id);
      },
    });
    const port = await server.start();
    const closed = '127.0.0.1:9';
    upstreams = createUpstreams({ 'import-service': closed, 'dedup-service': `127.0.0.1:${port}`, 'robot-broker': closed, 'search-request-service': closed, percolator: closed });
  });

  afterAll(async () => {
    Object.values(upstreams).forEach((upstream) => upstream.close());
    await server.stop(100);
  });

  const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: ServiceError) => ({ status: error.httpStatus, detail: error.detail }));

  it('when the service raises a ServiceError, then the same status and detail come back', async () => {
    expect(await failure(upstreams['dedup-service'].call('GetReference', { id: 'abc' }))).toEqual({ status: 404, detail: 'Reference with id abc does not exist.' });
  });

  it('when the service fails unexpectedly, then 500 without internals', async () => {
    expect(await failure(upstreams['dedup-service'].call('GetReference', { id: 'boom' }))).toEqual({ status: 500, detail: 'Internal Server Error' });
  });

  it('when an answer exceeds the gRPC message limit, then 500 without the transport\'s text, not a 429', async () => {
    expect(await failure(upstreams['dedup-service'].call('GetReference', { id: 'huge' }))).toEqual({ status: 500, detail: 'Internal Server Error' });
  });

  it('when the method is not served or not in the proto, then 501 Not implemented.', async () => {
    expect(await failure(upstreams['dedup-service'].call('LookupReferences', { identifiers: [] }))).toEqual({ status: 501, detail: 'Not implemented.' });
    expect(await failure(upstreams['dedup-service'].call('NoSuchMethod', {}))).toEqual({ status: 501, detail: 'Not implemented.' });
  });

  it('when the service cannot be reached, then 503 naming it', async () => {
    expect(await failure(upstreams.percolator.call('ListAutomations', {}))).toEqual({ status: 503, detail: 'percolator is unavailable.' });
  });
});
