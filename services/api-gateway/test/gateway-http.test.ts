import http from 'node:http';
import net from 'node:net';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { robotAuthHeaders, robotSignature } from '@destiny/contracts';
import { createGrpcServer, createLogger, ServiceError, type GrpcServer } from '@destiny/platform';
import { startApiGateway, type RunningApiGateway } from '../src/index';
import { startAzureTestIssuer, startTestIssuer, type TestIssuer } from './support/test-issuer';

// The gateway against a test identity provider and one fake gRPC server standing in for the
// services behind it: import-service registers nothing, so its methods answer UNIMPLEMENTED.

const KNOWN_REFERENCE = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
/** A reference whose read fails inside dedup-service with an unexpected error (gRPC INTERNAL, no ServiceError). */
const BROKEN_REFERENCE = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5e';
/** A batch whose summary's failure details come in pages. */
const PAGED_BATCH = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4f22';
const PAGED_REFERENCES = ['01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e51', '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e52', '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e53'];
const ROBOT_ID = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e60';
const BATCH_ID = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e61';
const ROBOT_SECRET = 'robot-secret';
const abstract = { id: '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e70', reference_id: KNOWN_REFERENCE, source: 'test', visibility: 'public', robot_version: null, derived_from: null, content: { enhancement_type: 'abstract', process: 'other', abstract: 'An abstract.' } };
const fullText = { id: '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e71', reference_id: KNOWN_REFERENCE, source: 'test', visibility: 'public', robot_version: null, derived_from: null, content: { enhancement_type: 'full_text', file_url: 'https://example.org/a.pdf' } };
const reference = { visibility: 'public', id: KNOWN_REFERENCE, identifiers: [{ identifier_type: 'doi', identifier: '10.1234/abc' }], enhancements: [abstract, fullText] };

interface Recorded {
  records: Array<{ id: string; notes: string }>;
  recordPages: Array<{ limit: number; before_id: string }>;
  importResults: Array<{ id: string; line: number }>;
  resultPages: Array<{ import_record_id: string; import_batch_id: string; result_status: string; after_line: number }>;
  detailPages: number[];
  lookups: string[][];
  signatures: Array<{ authorization: string; client_id: string; request_timestamp: string; body: Buffer }>;
  polls: unknown[];
  results: unknown[];
  invoked: string[][];
}

async function startFakeUpstreams(recorded: Recorded): Promise<{ server: GrpcServer; address: string }> {
  const protos = loadDestinyProtos().destiny;
  const server = createGrpcServer({ host: '127.0.0.1', port: 0, logger: createLogger({ service: 'fake-upstreams', level: 'silent' }) });
  server.addService(protos.dedup_service.DedupService.service, {
    GetReference: async (request: { id: string }) => {
      if (request.id === BROKEN_REFERENCE) throw new Error('the store went away');
      if (request.id !== KNOWN_REFERENCE) throw ServiceError.notFound('Reference', request.id);
      return { json: JSON.stringify(reference) };
    },
    LookupReferences: async (request: { identifiers: string[] }) => {
      recorded.lookups.push(request.identifiers);
      // Pages as a page budget would cut them: the views that did not fit are named by id, and
      // looking those up again may resolve one to a canonical already answered.
      const paged = PAGED_REFERENCES.map((id) => ({ visibility: 'public', id, identifiers: [], enhancements: [] }));
      if (request.identifiers[0] === 'doi:10.1234/paged') return { json: [JSON.stringify(paged[0])], remaining_ids: [paged[1].id, paged[2].id] };
      if (request.identifiers[0] === paged[1].id) return { json: [JSON.stringify(paged[1]), JSON.stringify(paged[0])], remaining_ids: [paged[2].id] };
      if (request.identifiers[0] === paged[2].id) return { json: [JSON.stringify(paged[2])], remaining_ids: [] };
      return { json: [JSON.stringify(reference)] };
    },
    InvokeDeduplication: async (request: { ids: string[] }) => {
      recorded.invoked.push(request.ids);
      return {};
    },
  });
  server.addService(protos.robot_broker.RobotBroker.service, {
    VerifyRobotSignature: async (request: Recorded['signatures'][number]) => {
      recorded.signatures.push(request);
      const expected = `Signature ${robotSignature({ secret: ROBOT_SECRET, clientId: request.client_id, timestamp: request.request_timestamp, body: request.body })}`;
      if (request.authorization !== expected) throw new ServiceError(401, 'Signature is invalid.');
      return { subject: request.client_id, roles: [], entitlements: [], robot_id: request.client_id };
    },
    PollRobotEnhancementBatch: async (request: unknown) => {
      recorded.polls.push(request);
      return { json: '' };
    },
    SubmitRobotEnhancementBatchResult: async (request: { caller: unknown; id: string; json: string }) => {
      recorded.results.push(request);
      const body = JSON.parse(request.json) as { error: { message: string } | null };
      return { json: JSON.stringify({ robot_id: ROBOT_ID, source: null, id: request.id, reference_data_url: null, result_storage_url: null, validation_result_url: null, error: body.error?.message ?? null }) };
    },
    RenewRobotEnhancementBatchLease: async () => ({ json: JSON.stringify('2026-01-31T12:10:00.123456+00:00') }),
  });
  // Only the record and result lists: every other ImportService method still answers UNIMPLEMENTED.
  server.addService(protos.import_service.ImportService.service, {
    ListImportRecords: async (request: { limit: number; before_id: string }) => {
      recorded.recordPages.push(request);
      const start = request.before_id ? recorded.records.findIndex((record) => record.id === request.before_id) + 1 : 0;
      // Pages of at most two records, or one when records are large, as a page budget would cut them.
      const size = recorded.records[start]?.notes.length > 1000 ? 1 : 2;
      const page = recorded.records.slice(start, start + Math.min(size, request.limit));
      const more = start + page.length < recorded.records.length && page.length < request.limit;
      return { json: page.map((record) => JSON.stringify(record)), more, last_id: page.at(-1)?.id ?? '' };
    },
    GetImportBatchSummary: async (request: { import_batch_id: string }) => {
      const details = ['Entry 1:\n\nInvalid JSON', 'Entry 2:\n\nInvalid JSON'];
      const summary = { storage_url: 'https://x/', callback_url: null, collision_strategy: 'fail', id: request.import_batch_id, import_batch_id: request.import_batch_id, import_batch_status: 'failed', results: { failed: 5 }, failure_details: details };
      // The summary with a small batch's details, or the first page of a large batch's.
      return { json: JSON.stringify(summary), more: request.import_batch_id === PAGED_BATCH, last_line: 2 };
    },
    ListImportFailureDetails: async (request: { after_line: number }) => {
      recorded.detailPages.push(request.after_line);
      const after = [3, 4, 5].filter((line) => line > request.after_line);
      return { failure_details: after.slice(0, 2).map((line) => `Entry ${line}:\n\n"Invalid" JSON`), more: after.length > 2, last_line: after.slice(0, 2).at(-1) ?? request.after_line };
    },
    ListImportResults: async (request: Recorded['resultPages'][number]) => {
      recorded.resultPages.push(request);
      // Pages of at most two results, as a page budget would cut them.
      const after = recorded.importResults.filter((result) => result.line > request.after_line);
      const page = after.slice(0, 2);
      return { json: page.map((result) => JSON.stringify(result)), more: after.length > page.length, last_line: page.at(-1)?.line ?? request.after_line };
    },
  });
  server.addService(protos.search_request_service.SearchRequestService.service, {
    SearchReferences: async () => ({ json: '{not json' }),
  });
  const port = await server.start();
  server.setServing(true);
  return { server, address: `127.0.0.1:${port}` };
}

describe('api-gateway HTTP surface: auth, validation, routing, errors', () => {
  let issuer: TestIssuer;
  let upstreams: { server: GrpcServer; address: string };
  let gateway: RunningApiGateway;
  const recorded: Recorded = { records: [], recordPages: [], importResults: [], resultPages: [], detailPages: [], lookups: [], signatures: [], polls: [], results: [], invoked: [] };
  const url = (path: string) => `${gateway.url}/v1${path}`;
  const bearer = (roles: string[]) => ({ authorization: `Bearer ${issuer.mint({ roles })}` });
  const importRecord = { processor_name: 'test', processor_version: '1', expected_reference_count: 1, source_name: 'test' };

  const gatewayEnv = (overrides: Record<string, string> = {}) => ({
    PORT: '0',
    HEALTH_PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    AUTH_ISSUER: issuer.issuer,
    AUTH_JWKS_URL: issuer.jwksUrl,
    AUTH_AUDIENCE: issuer.audience,
    IMPORT_SERVICE_GRPC_URL: upstreams.address,
    DEDUP_SERVICE_GRPC_URL: upstreams.address,
    ROBOT_BROKER_GRPC_URL: upstreams.address,
    SEARCH_REQUEST_SERVICE_GRPC_URL: upstreams.address,
    PERCOLATOR_GRPC_URL: upstreams.address,
    ...overrides,
  });

  beforeAll(async () => {
    issuer = await startTestIssuer();
    upstreams = await startFakeUpstreams(recorded);
    gateway = await startApiGateway(gatewayEnv());
  });

  afterAll(async () => {
    await gateway?.stop();
    await upstreams?.server.stop(100);
    await issuer?.stop();
  });

  describe('bearer authentication (§4.2, §4.3)', () => {
    it.each([
      ['no Authorization header', {}],
      ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
      ['an empty bearer token', { authorization: 'Bearer ' }],
    ])('when a request has %s, then 401 "Authorization HTTPBearer header missing."', async (_name, headers: Record<string, string>) => {
      const response = await fetch(url(`/references/${KNOWN_REFERENCE}/`), { headers });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: 'Authorization HTTPBearer header missing.' });
    });

    it('when the token is garbage, then 401 "Unable to parse authentication token."', async () => {
      const response = await fetch(url(`/references/${KNOWN_REFERENCE}/`), { headers: { authorization: 'Bearer not.a.token' } });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: 'Unable to parse authentication token.' });
    });

    it('when the token has expired, then 401 with exactly "Token is expired." (what destiny_sdk refreshes on)', async () => {
      const token = issuer.mint({ roles: ['reference.reader'], expiresInSeconds: -5 });
      const response = await fetch(url(`/references/${KNOWN_REFERENCE}/`), { headers: { authorization: `bearer ${token}` } });
      expect(response.status).toBe(401);
      expect(await response.text()).toBe('{"detail":"Token is expired."}');
    });

    it('when the token was issued for another environment, then 401 Invalid token claims', async () => {
      const otherAudience = issuer.mint({ roles: ['reference.reader'], claims: { aud: 'destiny-repository-client-production' } });
      const response = await fetch(url(`/references/${KNOWN_REFERENCE}/`), { headers: { authorization: `Bearer ${otherAudience}` } });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ detail: 'Invalid token claims: Invalid audience' });
      const otherIssuer = issuer.mint({ roles: ['reference.reader'], claims: { iss: 'https://auth.example.org/realms/destiny' } });
      const second = await fetch(url(`/references/${KNOWN_REFERENCE}/`), { headers: { authorization: `Bearer ${otherIssuer}` } });
      expect(await second.json()).toEqual({ detail: 'Invalid token claims: Invalid issuer' });
    });

    it('when the roles sit in realm_access instead of the client, then 403', async () => {
      const token = issuer.mint({ claims: { realm_access: { roles: ['reference.reader'] } } });
      const response = await fetch(url(`/references/${KNOWN_REFERENCE}/`), { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ detail: 'The token does not contain the required role.' });
    });

    it('when the identity provider cannot be reached, then 401 "Unable to fetch signing keys from identity provider."', async () => {
      const unreachable = await startApiGateway(gatewayEnv({ AUTH_JWKS_URL: 'http://127.0.0.1:9/realms/test/protocol/openid-connect/certs' }));
      try {
        const response = await fetch(`${unreachable.url}/v1/references/${KNOWN_REFERENCE}/`, { headers: bearer(['reference.reader']) });
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ detail: 'Unable to fetch signing keys from identity provider.' });
      } finally {
        await unreachable.stop();
      }
    });
  });

  describe('Azure AD and multi-issuer bearer tokens (AUTH_PROVIDER=both, §4.2, §4.3)', () => {
    it('when an Azure token carries the route\'s .all scope, then it reaches the route; without it, 403 IDW10203; a Keycloak token still works', async () => {
      const tenant = await startAzureTestIssuer();
      const both = await startApiGateway(gatewayEnv({ AUTH_PROVIDER: 'both', AZURE_LOGIN_URL: tenant.loginUrl, AZURE_APPLICATION_ID: tenant.applicationId }));
      const read = (token: string) => fetch(`${both.url}/v1/references/${KNOWN_REFERENCE}/`, { headers: { authorization: `Bearer ${token}` } });
      try {
        const granted = await read(tenant.mint({ scp: 'reference.reader.all reference.full_text.reader.all' }));
        expect(granted.status).toBe(200);
        expect(await granted.json()).toEqual(reference);
        const refused = await read(tenant.mint({ scp: 'import.writer.all' }));
        expect(refused.status).toBe(403);
        expect(await refused.json()).toEqual({ detail: 'IDW10203: The scope permissions (scp) claim does not contain the required scope reference.reader.all' });
        const neither = await read(tenant.mint());
        expect(neither.status).toBe(403);
        expect(await neither.json()).toEqual({ detail: 'IDW10201: Neither scope or roles claim was found in the bearer token.' });
        const keycloakToken = await read(issuer.mint({ roles: ['reference.reader'] }));
        expect(keycloakToken.status).toBe(200);
        expect(await keycloakToken.json()).toEqual({ ...reference, enhancements: [abstract] });
        const unknown = await read(issuer.mint({ roles: ['reference.reader'], claims: { iss: 'https://auth.example.org/realms/destiny' } }));
        expect(unknown.status).toBe(401);
        expect(await unknown.json()).toEqual({ detail: 'Token issuer is not recognized.' });
      } finally {
        await both.stop();
        await tenant.stop();
      }
    });

    it('when AUTH_PROVIDER is azure and AZURE_APPLICATION_ID is unset, then the gateway refuses to start, naming the variable', async () => {
      // A gateway that starts anyway is stopped again, so the failure is reported rather than left running.
      const outcome = await startApiGateway(gatewayEnv({ AUTH_PROVIDER: 'azure', AZURE_LOGIN_URL: 'https://login.microsoftonline.com/tenant' })).then(
        async (started) => {
          await started.stop();
          return 'started';
        },
        (error: Error) => error.message,
      );
      expect(outcome).toMatch(/AZURE_APPLICATION_ID is required when AUTH_PROVIDER is azure/);
    });
  });

  describe('permissions and their order (§4.1, §4.3)', () => {
    it.each([
      ['POST', '/imports/records/', importRecord],
      ['GET', '/robots/', undefined],
      ['POST', '/references/duplicate-decisions/invoke/', { reference_ids: [KNOWN_REFERENCE] }],
      ['POST', '/system/indices/reference/repair/', undefined],
    ])('when a reader-only token calls %s %s, then 403', async (method, path, body) => {
      const response = await fetch(url(path), { method, headers: { ...bearer(['reference.reader']), 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ detail: 'The token does not contain the required role.' });
    });

    it('when the body is invalid, then no token gives 401, a wrong role 403, and only the right role reaches the 422', async () => {
      const send = (headers: Record<string, string>) => fetch(url('/imports/records/'), { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{"expected_reference_count":"many"}' });
      expect((await send({})).status).toBe(401);
      expect((await send(bearer(['reference.reader']))).status).toBe(403);
      const response = await send(bearer(['import.writer']));
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({
        detail: expect.arrayContaining([
          expect.objectContaining({ type: 'missing', loc: ['body', 'processor_name'] }),
          expect.objectContaining({ type: 'int_parsing', loc: ['body', 'expected_reference_count'] }),
        ]),
      });
    });

    it('when a path id is invalid and the caller is unauthenticated, then 401 comes before the 422', async () => {
      expect((await fetch(url('/references/not-a-uuid/'))).status).toBe(401);
      const response = await fetch(url('/references/not-a-uuid/'), { headers: bearer(['reference.reader']) });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ detail: [{ type: 'uuid_parsing', loc: ['path', 'reference_id'], input: 'not-a-uuid' }] });
    });
  });

  describe('validation and routing errors (§1.1, §1.5, §5)', () => {
    it('when the JSON body is malformed, then 422 json_invalid', async () => {
      const response = await fetch(url('/imports/records/'), { method: 'POST', headers: { ...bearer(['import.writer']), 'content-type': 'application/json' }, body: '{"processor_name": ' });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ detail: [{ type: 'json_invalid', loc: ['body', expect.any(Number)], msg: 'JSON decode error' }] });
    });

    it('when a body nests deeper than any contract body, then 422 json_invalid rather than a 500 from echoing or forwarding it', async () => {
      const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
      const response = await fetch(url('/imports/records/'), { method: 'POST', headers: { ...bearer(['import.writer']), 'content-type': 'application/json' }, body: deep });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ detail: [{ type: 'json_invalid', loc: ['body', 0], msg: 'JSON decode error: JSON is nested deeper than 100 levels.' }] });
      const query = { robot_id: KNOWN_REFERENCE, query: JSON.parse(`${'{"bool":{"must":['.repeat(60)}{"match_all":{}}${']}}'.repeat(60)}`) as unknown };
      const automation = await fetch(url('/enhancement-requests/automations/'), { method: 'POST', headers: { ...bearer(['enhancement_request.writer']), 'content-type': 'application/json' }, body: JSON.stringify(query) });
      expect(automation.status).toBe(422);
    });

    it('when a body holds a number JSON cannot carry or a key BSON cannot store, then 422 json_invalid naming it, not a 500 or a silent null', async () => {
      const record = (extra: string) => `{"processor_name":"p","processor_version":"1","source_name":"s","expected_reference_count":1${extra}}`;
      for (const [extra, msg] of [
        [',"notes":[1e400]', 'JSON decode error: A number is out of range: JSON numbers must be finite double-precision values.'],
        [',"notes":{"a\\u0000":1}', 'JSON decode error: The object key "a\\u0000" contains a NUL character.'],
        [',"notes":"\\ud800x"', 'JSON decode error: A string holds an unpaired UTF-16 surrogate escape (such as \\ud800), which is not valid Unicode.'],
      ]) {
        const response = await fetch(url('/imports/records/'), { method: 'POST', headers: { ...bearer(['import.writer']), 'content-type': 'application/json' }, body: record(extra) });
        expect(response.status).toBe(422);
        expect(await response.json()).toMatchObject({ detail: [{ type: 'json_invalid', loc: ['body', 0], msg }] });
      }
    });

    it('when a body is not valid UTF-8, then 400 as FastAPI answers it, rather than storing U+FFFD in its place', async () => {
      const body = Buffer.concat([Buffer.from('{"processor_name":"caf'), Buffer.from([0xe9]), Buffer.from('","processor_version":"1","source_name":"s","expected_reference_count":1}')]);
      const response = await fetch(url('/imports/records/'), { method: 'POST', headers: { ...bearer(['import.writer']), 'content-type': 'application/json' }, body });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ detail: 'There was an error parsing the body' });
    });

    it('when a route that takes no body is sent a malformed one, then the body is ignored, as the reference implementation does', async () => {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const request = http.request(url(`/references/${KNOWN_REFERENCE}/`), { method: 'GET', headers: { ...bearer(['reference.reader']), 'content-type': 'application/json', 'content-length': '2' } }, (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
        });
        request.on('error', reject);
        request.end('{x');
      });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ id: KNOWN_REFERENCE });
    });

    it('when a path id is not valid percent-encoding, then 400 with a JSON detail', async () => {
      for (const id of ['%E0%A4%A', '%ED%A0%80']) {
        const response = await fetch(url(`/references/${id}/`), { headers: bearer(['reference.reader']) });
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({ detail: 'The request path is not valid percent-encoded UTF-8.' });
      }
    });

    it('when the URL or headers exceed the parser\'s 16 KB, then 431 with a JSON detail, and the gateway keeps serving', async () => {
      const longLookup = await fetch(url(`/references/?identifier=${'doi:10.1/x,'.repeat(2000)}`), { headers: bearer(['reference.reader']) });
      expect(longLookup.status).toBe(431);
      expect(await longLookup.json()).toEqual({ detail: 'The request line or headers are too large.' });
      const longHeader = await fetch(url(`/references/${KNOWN_REFERENCE}/`), { headers: { ...bearer(['reference.reader']), 'x-padding': 'p'.repeat(20_000) } });
      expect(longHeader.status).toBe(431);
      expect((await fetch(url(`/references/${KNOWN_REFERENCE}/`), { headers: bearer(['reference.reader']) })).status).toBe(200);
    });

    it('when the request is not valid HTTP, then 400 with a JSON detail', async () => {
      const reply = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(gateway.port, '127.0.0.1', () => socket.write('NOT A REQUEST\r\n\r\n'));
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString('utf8')));
        socket.on('end', () => resolve(text));
        socket.on('error', reject);
      });
      expect(reply.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      expect(reply).toContain('Content-Type: application/json');
      expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ detail: 'The request is not valid HTTP.' });
    });

    it('when a body is required and none is sent, then 422 missing body', async () => {
      const response = await fetch(url('/imports/records/'), { method: 'POST', headers: { ...bearer(['import.writer']), 'content-type': 'application/json' } });
      expect(response.status).toBe(422);
      expect(await response.json()).toEqual({ detail: [{ type: 'missing', loc: ['body'], msg: 'Field required', input: null }] });
    });

    it('when a route is unknown, then 404; when the method is wrong, then 405', async () => {
      const unknown = await fetch(url('/references/a/b/c/'), { headers: bearer(['reference.reader']) });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toEqual({ detail: 'Not Found' });
      const wrongMethod = await fetch(url(`/references/${KNOWN_REFERENCE}/`), { method: 'DELETE', headers: bearer(['reference.reader']) });
      expect(wrongMethod.status).toBe(405);
      expect(await wrongMethod.json()).toEqual({ detail: 'Method Not Allowed' });
      expect((await fetch(url('/references/search/'), { method: 'POST' })).status).toBe(405);
      expect((await fetch(`${gateway.url}/V1/REFERENCES/${KNOWN_REFERENCE}/`, { headers: bearer(['reference.reader']) })).status).toBe(404);
    });

    it('when a known path is requested without its trailing slash, then 307 to the slashed path with the query kept', async () => {
      const response = await fetch(url('/references?identifier=doi:10.1/x'), { redirect: 'manual', headers: bearer(['reference.reader']) });
      expect(response.status).toBe(307);
      expect(response.headers.get('location')).toBe('/v1/references/?identifier=doi:10.1/x');
      const ping = await fetch(url('/system/ping'), { redirect: 'manual' });
      expect(ping.status).toBe(307);
      expect(ping.headers.get('location')).toBe('/v1/system/ping/');
    });

    it('when the literal /references/search/ path is asked, then it is not taken for a reference id', async () => {
      const response = await fetch(url('/references/search/'), { headers: bearer(['reference.reader']) });
      expect(response.status).toBe(422);
      expect(await response.json()).toMatchObject({ detail: [{ type: 'missing', loc: ['query', 'q'] }] });
    });

    it('when the upstream method is not implemented, then 501 {"detail":"Not implemented."}', async () => {
      const response = await fetch(url('/imports/records/'), { method: 'POST', headers: { ...bearer(['import.writer']), 'content-type': 'application/json' }, body: JSON.stringify(importRecord) });
      expect(response.status).toBe(501);
      expect(await response.json()).toEqual({ detail: 'Not implemented.' });
    });

    it('when import-service answers the record list in pages, then the gateway reads them in turn up to the limit and answers one array', async () => {
      recorded.records = Array.from({ length: 5 }, (_, index) => ({ id: `01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4f0${index}`, notes: `record ${index}` }));
      recorded.recordPages = [];
      const all = await fetch(url('/imports/records/?limit=5'), { headers: bearer(['import.writer']) });
      expect(all.status).toBe(200);
      expect(all.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await all.json()).toEqual(recorded.records);
      expect(recorded.recordPages).toEqual([
        { limit: 5, before_id: '' },
        { limit: 3, before_id: recorded.records[1].id },
        { limit: 1, before_id: recorded.records[3].id },
      ]);
      const three = await fetch(url('/imports/records/?limit=3'), { headers: bearer(['import.writer']) });
      expect(await three.json()).toEqual(recorded.records.slice(0, 3));
      recorded.records = [];
      expect(await (await fetch(url('/imports/records/'), { headers: bearer(['import.writer']) })).text()).toBe('[]');
    });

    it('when the record list is larger than a gRPC message (records have no size limit), then it is still answered whole', async () => {
      recorded.records = Array.from({ length: 3 }, (_, index) => ({ id: `01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4f1${index}`, notes: String(index).repeat(25 * 1024 * 1024) }));
      try {
        const response = await fetch(url('/imports/records/'), { headers: bearer(['import.writer']) });
        expect(response.status).toBe(200);
        const body = (await response.json()) as Array<{ id: string; notes: string }>;
        expect(body.map((record) => [record.id, record.notes.length, record.notes[0]])).toEqual(recorded.records.map((record, index) => [record.id, 25 * 1024 * 1024, String(index)]));
      } finally {
        recorded.records = [];
      }
    });

    it('when import-service answers a batch\'s results in pages, then the gateway reads them in turn after each page\'s last line and answers one array', async () => {
      const record = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4f20';
      const batch = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4f21';
      recorded.importResults = [1, 2, 4, 5, 7].map((line) => ({ id: `01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4f3${line}`, line }));
      recorded.resultPages = [];
      const response = await fetch(url(`/imports/records/${record}/batches/${batch}/results/?result_status=failed`), { headers: bearer(['import.writer']) });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual(recorded.importResults);
      expect(recorded.resultPages).toEqual([0, 2, 5].map((after_line) => ({ import_record_id: record, import_batch_id: batch, result_status: 'failed', after_line })));
      recorded.importResults = [];
      expect(await (await fetch(url(`/imports/records/${record}/batches/${batch}/results/`), { headers: bearer(['import.writer']) })).text()).toBe('[]');
    });

    it('when a batch summary\'s failure details come in pages, then the gateway reads them in turn after the summary and answers one summary holding them all', async () => {
      const record = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4f20';
      recorded.detailPages = [];
      const response = await fetch(url(`/imports/records/${record}/batches/${PAGED_BATCH}/summary/`), { headers: bearer(['import.writer']) });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const summary = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(summary)).toEqual(['storage_url', 'callback_url', 'collision_strategy', 'id', 'import_batch_id', 'import_batch_status', 'results', 'failure_details']);
      expect(summary).toMatchObject({ id: PAGED_BATCH, import_batch_status: 'failed', results: { failed: 5 } });
      expect(summary.failure_details).toEqual(['Entry 1:\n\nInvalid JSON', 'Entry 2:\n\nInvalid JSON', ...[3, 4, 5].map((line) => `Entry ${line}:\n\n"Invalid" JSON`)]);
      expect(recorded.detailPages).toEqual([2, 4]);
      const small = await fetch(url(`/imports/records/${record}/batches/01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4f23/summary/`), { headers: bearer(['import.writer']) });
      expect(((await small.json()) as { failure_details: string[] }).failure_details).toHaveLength(2);
      expect(recorded.detailPages).toEqual([2, 4]);
    });

    it('when an upstream raises a ServiceError, then its status and detail are answered verbatim', async () => {
      const missing = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4eff';
      const response = await fetch(url(`/references/${missing}/`), { headers: bearer(['reference.reader']) });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ detail: `Reference with id ${missing} does not exist.` });
    });

    it('when something unexpected fails, then 500 with the plain text "Internal Server Error"', async () => {
      const response = await fetch(url('/references/search/?q=climate'), { headers: bearer(['reference.reader']) });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe('Internal Server Error');
    });

    it('when an upstream fails unexpectedly (a gRPC error without a ServiceError), then 500 with the plain text "Internal Server Error" too', async () => {
      const response = await fetch(url(`/references/${BROKEN_REFERENCE}/`), { headers: bearer(['reference.reader']) });
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe('Internal Server Error');
    });

    it('when the healthcheck, ping and docs are asked, then they still answer without a token', async () => {
      expect((await fetch(url('/system/ping/'))).status).toBe(200);
      expect((await fetch(url('/openapi.json'))).status).toBe(200);
      expect((await fetch(url('/system/ping/'), { method: 'POST' })).status).toBe(405);
    });
  });

  describe('reference reads (§6.1, §7)', () => {
    it('when a caller without full_text reads a reference, then its full-text enhancements are removed', async () => {
      const response = await fetch(url(`/references/${KNOWN_REFERENCE}/`), { headers: bearer(['reference.reader']) });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ...reference, enhancements: [abstract] });
    });

    it('when a caller with reference.full_text.reader reads a reference, then the full text is kept', async () => {
      const response = await fetch(url(`/references/${KNOWN_REFERENCE}/`), { headers: bearer(['reference.reader', 'reference.full_text.reader']) });
      expect(await response.json()).toEqual(reference);
    });

    it('when identifiers are looked up as one comma-joined value, then they are split and the results redacted', async () => {
      const response = await fetch(url(`/references/?identifier=${encodeURIComponent(`doi:10.1234/abc,${KNOWN_REFERENCE}`)}`), { headers: bearer(['reference.reader']) });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([{ ...reference, enhancements: [abstract] }]);
      expect(recorded.lookups.at(-1)).toEqual(['doi:10.1234/abc', KNOWN_REFERENCE]);
    });

    it('when dedup-service answers a lookup in pages, then the gateway looks the rest up by id in turn, skips a reference already answered and answers one array', async () => {
      const response = await fetch(url('/references/?identifier=doi:10.1234/paged'), { headers: bearer(['reference.reader']) });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(((await response.json()) as Array<{ id: string }>).map((item) => item.id)).toEqual(PAGED_REFERENCES);
      expect(recorded.lookups.slice(-3)).toEqual([['doi:10.1234/paged'], PAGED_REFERENCES.slice(1), PAGED_REFERENCES.slice(2)]);
    });

    it('when more than 100 identifiers or a malformed one are looked up, then 422 and 400', async () => {
      const many = Array.from({ length: 101 }, (_, index) => `pm_id:${index + 1}`).join(',');
      const tooMany = await fetch(url(`/references/?identifier=${many}`), { headers: bearer(['reference.reader']) });
      expect(tooMany.status).toBe(422);
      expect(await tooMany.json()).toMatchObject({ detail: [{ type: 'too_long', loc: ['query', 'identifier'] }] });
      const malformed = await fetch(url('/references/?identifier=isbn:123'), { headers: bearer(['reference.reader']) });
      expect(malformed.status).toBe(400);
      expect(await malformed.json()).toEqual({ detail: 'Invalid identifier lookup string: isbn:123. Unknown identifier type: isbn.' });
      expect((await fetch(url('/references/'), { headers: bearer(['reference.reader']) })).status).toBe(422);
    });

    it('when re-deduplication is invoked by a deduplicator, then 202 with the body null', async () => {
      const response = await fetch(url('/references/duplicate-decisions/invoke/'), {
        method: 'POST',
        headers: { ...bearer(['reference.reader', 'reference.deduplicator']), 'content-type': 'application/json' },
        body: JSON.stringify({ reference_ids: [KNOWN_REFERENCE] }),
      });
      expect(response.status).toBe(202);
      expect(await response.text()).toBe('null');
      expect(recorded.invoked.at(-1)).toEqual([KNOWN_REFERENCE]);
    });
  });

  describe('hybrid routes (§4.4, §4.5)', () => {
    const signed = (body: string, secret = ROBOT_SECRET) => robotAuthHeaders({ clientId: ROBOT_ID, secret, body });

    it('when a robot polls with a signature and an empty JSON body, then the poll runs as that robot and no work is 204', async () => {
      const response = await fetch(url(`/robot-enhancement-batches/?robot_id=${ROBOT_ID}&limit=5`), { method: 'POST', headers: { ...signed(''), 'content-type': 'application/json' } });
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');
      expect(recorded.polls.at(-1)).toEqual({ caller: { subject: ROBOT_ID, roles: [], entitlements: [], robot_id: ROBOT_ID }, robot_id: ROBOT_ID, limit: 5, lease: 'PT10M' });
    });

    it('when a robot posts results, then robot-broker checks the exact raw bytes and the status follows the error field', async () => {
      const raw = `{"request_id":  "${BATCH_ID}" ,"error":null}`;
      const response = await fetch(url(`/robot-enhancement-batches/${BATCH_ID}/results/`), { method: 'POST', headers: { ...signed(raw), 'content-type': 'application/json' }, body: raw });
      expect(response.status).toBe(202);
      expect(await response.json()).toMatchObject({ id: BATCH_ID, robot_id: ROBOT_ID, error: null });
      expect(recorded.signatures.at(-1)?.body.toString()).toBe(raw);
      const failed = JSON.stringify({ request_id: BATCH_ID, error: { message: 'robot crashed' } });
      const withError = await fetch(url(`/robot-enhancement-batches/${BATCH_ID}/results/`), { method: 'POST', headers: { ...signed(failed), 'content-type': 'application/json' }, body: failed });
      expect(withError.status).toBe(200);
    });

    it('when the signature is wrong or the headers incomplete, then 401 with the robot detail', async () => {
      const raw = JSON.stringify({ request_id: BATCH_ID, error: null });
      const wrong = await fetch(url(`/robot-enhancement-batches/${BATCH_ID}/results/`), { method: 'POST', headers: { ...signed(raw, 'not-the-secret'), 'content-type': 'application/json' }, body: raw });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ detail: 'Signature is invalid.' });
      const bare = await fetch(url(`/robot-enhancement-batches/${BATCH_ID}/`));
      expect(bare.status).toBe(401);
      expect(await bare.json()).toEqual({ detail: 'Authorization header missing.' });
    });

    it('when a hybrid route gets a bearer token, then it needs enhancement_request.writer', async () => {
      const response = await fetch(url(`/robot-enhancement-batches/${BATCH_ID}/`), { headers: bearer(['reference.reader']) });
      expect(response.status).toBe(403);
    });

    it('when a lease is renewed, then the new expiry comes back as bare text', async () => {
      const response = await fetch(url(`/robot-enhancement-batches/${BATCH_ID}/renew-lease/?lease=PT5M`), { method: 'PATCH', headers: { ...signed(''), 'content-type': 'application/json' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      expect(await response.text()).toBe('2026-01-31T12:10:00.123456+00:00');
    });
  });
});
