import { ROUTES } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import { routeHandlers, SELF_SERVED_ROUTES, unroutedOperations, type RouteCall } from './route-dispatch';
import type { Upstream, Upstreams } from './upstream-clients';

function fakeUpstreams(answer: (service: string, method: string, request: object) => unknown) {
  const calls: Array<{ service: string; method: string; request: object }> = [];
  const make = (name: keyof Upstreams): Upstream => ({
    name,
    call: async <Response>(method: string, request: object) => {
      calls.push({ service: name, method, request });
      return answer(name, method, request) as Response;
    },
    close: () => undefined,
  });
  const upstreams: Upstreams = {
    'import-service': make('import-service'),
    'dedup-service': make('dedup-service'),
    'robot-broker': make('robot-broker'),
    'search-request-service': make('search-request-service'),
    percolator: make('percolator'),
  };
  return { upstreams, calls };
}

const caller = { subject: 's', roles: [], entitlements: [], robot_id: '' };
const call = (overrides: Partial<RouteCall>): RouteCall => ({ params: {}, query: {}, body: undefined, caller, status: 200, ...overrides });

describe('route dispatch table', () => {
  it('when the table is built, then every contract route except healthcheck and ping has a handler', () => {
    const handlers = routeHandlers(fakeUpstreams(() => ({ json: '{}' })).upstreams);
    expect(unroutedOperations(handlers)).toEqual([]);
    expect(ROUTES.filter((route) => SELF_SERVED_ROUTES.has(route.operationId)).map((route) => route.path)).toEqual(['/system/healthcheck/', '/system/ping/']);
  });

  it('when a search enhancement request is a dry run by query or by body, then the count is asked and answered with 200', async () => {
    const { upstreams, calls } = fakeUpstreams(() => ({ json: '{"count":3,"is_lower_bound":false}' }));
    const handler = routeHandlers(upstreams).requestSearchEnhancement;
    const body = { robot_id: 'r', search_query: 'title:x', source: null, dry_run: false };
    expect(await handler(call({ query: { dry_run: true }, body, status: 202 }))).toEqual({ status: 200, json: { count: 3, is_lower_bound: false } });
    expect(await handler(call({ query: { dry_run: false }, body: { ...body, dry_run: true }, status: 202 }))).toEqual({ status: 200, json: { count: 3, is_lower_bound: false } });
    await handler(call({ query: { dry_run: false }, body, status: 202 }));
    expect(calls.map((entry) => entry.method)).toEqual(['CountReferences', 'CountReferences', 'CreateSearchEnhancementRequest']);
  });

  it('when a route has no upstream rpc, then it answers 501', async () => {
    const handlers = routeHandlers(fakeUpstreams(() => ({})).upstreams);
    await expect(handlers.createReferenceExport(call({ body: {} }))).rejects.toEqual(new ServiceError(501, 'Not implemented.'));
    await expect(handlers.repairIndex(call({ params: { alias: 'robot-automation-percolation' } }))).rejects.toMatchObject({ httpStatus: 501 });
  });

  it('when the reference index is repaired, then the rebuild is reported as the contract status message', async () => {
    const handlers = routeHandlers(fakeUpstreams(() => ({ index_name: 'references-v2', indexed: '12' })).upstreams);
    expect(await handlers.repairIndex(call({ params: { alias: 'reference' }, status: 202 }))).toEqual({ status: 202, json: { status: 'ok', message: 'Rebuilt index references-v2 with 12 references.' } });
  });

  it('when an import record is finalised or a batch registered, then the ids travel in the typed fields', async () => {
    const { upstreams, calls } = fakeUpstreams((_service, method) => (method.startsWith('List') ? { json: ['{}'] } : { json: '{}' }));
    const handlers = routeHandlers(upstreams);
    expect(await handlers.finaliseImportRecordPatch(call({ params: { import_record_id: 'rec' }, status: 204 }))).toEqual({ status: 204, empty: true });
    await handlers.registerImportBatch(call({ params: { import_record_id: 'rec' }, body: { storage_url: 'https://x/' }, status: 202 }));
    await handlers.listImportResults(call({ params: { import_record_id: 'rec', import_batch_id: 'bat' } }));
    expect(calls.map((entry) => entry.request)).toEqual([
      { id: 'rec' },
      { import_record_id: 'rec', batch_json: '{"storage_url":"https://x/"}' },
      { import_record_id: 'rec', import_batch_id: 'bat', result_status: '', after_line: 0 },
    ]);
  });
});
