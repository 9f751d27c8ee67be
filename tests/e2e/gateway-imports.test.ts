import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Reference, validate } from '@destiny/contracts';
import { requestDevelopmentToken } from '@destiny/devstack/identity';
import { startTestIssuer, type TestIssuer } from '../../services/api-gateway/test/support/test-issuer';
import { startSystemUnderTest, type SystemUnderTest } from './support/system-under-test';

// The gateway in front of the real import-service and dedup-service (MongoDB stand-in, real
// RabbitMQ), with tokens from the identity stand-in's development clients: `admin` holds every
// role, `reader` only reference.reader.

const DOI = `10.5555/gateway-${Date.now()}`;
// The full text is served by the test's own file server: import-service downloads it.
const fullText = (filesUrl: string) => ({ source: 'importer', visibility: 'public', content: { enhancement_type: 'full_text', file_url: `${filesUrl}/paper.pdf` } });
const abstractContent = { enhancement_type: 'abstract', process: 'other', abstract: 'What the paper found.' };
// Keys the contract does not declare, inside an identifier and an enhancement, are ignored (§1.4).
const abstract = { source: 'importer', visibility: 'public', confidence: 0.5, content: { ...abstractContent, extra_key: 1 } };
const batchFile = (filesUrl: string) =>
  [JSON.stringify({ visibility: 'public', identifiers: [{ identifier_type: 'doi', identifier: DOI, extra: true }], enhancements: [abstract, fullText(filesUrl)] }), '', '{"identifiers": "not a list"}'].join('\n');

describe('api-gateway imports and reference reads end to end', () => {
  let system: SystemUnderTest;
  let otherIssuer: TestIssuer;
  let files: http.Server;
  let filesUrl: string;
  let admin: Record<string, string>;
  let reader: Record<string, string>;
  const url = (route: string) => system.url(route);
  const json = (headers: Record<string, string>, method: string, body?: unknown): RequestInit => ({
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

  beforeAll(async () => {
    files = http.createServer((request, response) =>
      request.url === '/paper.pdf' ? response.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.7 a paper') : response.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(batchFile(filesUrl)),
    );
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
    filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    [system, otherIssuer] = await Promise.all([
      startSystemUnderTest({
        label: 'gateway-imports',
        services: ['dedup-service', 'import-service'],
        env: { 'import-service': { OUTBOUND_ALLOWLIST: '127.0.0.0/8', IMPORT_RETRY_BASE_MS: '50' } },
      }),
      startTestIssuer(),
    ]);
    admin = system.admin;
    reader = { authorization: `Bearer ${await requestDevelopmentToken(system.identity.url, 'reader')}` };
  });

  afterAll(async () => {
    await system?.stop();
    await otherIssuer?.stop();
    await new Promise<void>((resolve) => (files ? files.close(() => resolve()) : resolve()));
  });

  it('when the reader client calls import or robot routes, then 403', async () => {
    for (const [method, route] of [['GET', '/imports/records/'], ['POST', '/imports/records/'], ['GET', '/robots/']]) {
      const response = await fetch(url(route), json(reader, method, method === 'POST' ? {} : undefined));
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ detail: 'The token does not contain the required role.' });
    }
  });

  it('when a token comes from another issuer, then 401 Invalid token claims', async () => {
    const foreign = otherIssuer.mint({ roles: ['reference.reader'], claims: { aud: system.identity.audience, resource_access: { [system.identity.audience]: { roles: ['reference.reader'] } } } });
    const response = await fetch(url('/references/?identifier=doi:10.1/x'), { headers: { authorization: `Bearer ${foreign}` } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'Invalid token claims: Invalid issuer' });
  });

  it('when a record and a batch are registered and the batch is processed, then records, batches, summary, results and the references read back', async () => {
    const created = await fetch(url('/imports/records/'), json(admin, 'POST', { processor_name: 'gateway-e2e', processor_version: '1.0', expected_reference_count: 1, source_name: 'test', searched_at: '2026-01-31T12:00:00' }));
    expect(created.status).toBe(201);
    const record = (await created.json()) as { id: string; status: string; batches: null; searched_at: string };
    expect(record).toMatchObject({ status: 'created', batches: null, searched_at: '2026-01-31T12:00:00Z' });

    const fetched = await fetch(url(`/imports/records/${record.id}/`), { headers: admin });
    expect(await fetched.json()).toEqual(record);
    const listed = (await (await fetch(url('/imports/records/?limit=1000'), { headers: admin })).json()) as Array<{ id: string }>;
    expect(listed.map((item) => item.id)).toContain(record.id);

    const registered = await fetch(url(`/imports/records/${record.id}/batches/`), json(admin, 'POST', { storage_url: `${filesUrl}/batch.jsonl`, collision_strategy: 'fail' }));
    expect(registered.status).toBe(202);
    const batch = (await registered.json()) as { id: string; status: string; import_record_id: string };
    expect(batch).toMatchObject({ status: 'created', import_record_id: record.id });

    let status = batch.status;
    for (let attempt = 0; attempt < 400 && !['completed', 'failed', 'partially_failed'].includes(status); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = ((await (await fetch(url(`/imports/records/${record.id}/batches/${batch.id}/`), { headers: admin })).json()) as { status: string }).status;
    }
    expect(status).toBe('partially_failed');
    const batches = (await (await fetch(url(`/imports/records/${record.id}/batches/`), { headers: admin })).json()) as Array<{ id: string }>;
    expect(batches.map((item) => item.id)).toEqual([batch.id]);

    const summary = await (await fetch(url(`/imports/records/${record.id}/batches/${batch.id}/summary/`), { headers: admin })).json();
    expect(summary).toMatchObject({ id: batch.id, import_batch_id: batch.id, import_batch_status: 'partially_failed', results: { completed: 1, failed: 1 } });

    const completed = (await (await fetch(url(`/imports/records/${record.id}/batches/${batch.id}/results/?result_status=completed`), { headers: admin })).json()) as Array<{ reference_id: string }>;
    expect(completed).toHaveLength(1);
    const referenceId = completed[0].reference_id;
    const badFilter = await fetch(url(`/imports/records/${record.id}/batches/${batch.id}/results/?result_status=done`), { headers: admin });
    expect(badFilter.status).toBe(422);

    // admin holds reference.full_text.reader: the full text is visible; the reader's view drops it.
    const asAdmin = (await (await fetch(url(`/references/${referenceId}/`), { headers: admin })).json()) as { enhancements: Array<{ content: { enhancement_type: string } }> };
    expect(asAdmin.enhancements.map((item) => item.content.enhancement_type).sort()).toEqual(['abstract', 'full_text']);
    const asReader = await fetch(url(`/references/${referenceId}/`), { headers: reader });
    expect(asReader.status).toBe(200);
    const readerView = (await asReader.json()) as { id: string; identifiers: unknown[]; enhancements: Array<{ content: { enhancement_type: string } }> };
    expect(readerView).toMatchObject({ id: referenceId, identifiers: [{ identifier_type: 'doi', identifier: DOI }] });
    expect(readerView.enhancements.map((item) => item.content.enhancement_type)).toEqual(['abstract']);
    expect(JSON.stringify(readerView.identifiers)).toBe(`[{"identifier":"${DOI}","identifier_type":"doi"}]`);
    expect(readerView.enhancements[0].content).toEqual(abstractContent);
    expect(readerView.enhancements[0]).not.toHaveProperty('confidence');

    const lookedUp = await fetch(url(`/references/?identifier=${encodeURIComponent(`doi:${DOI},${referenceId}`)}`), { headers: reader });
    expect(lookedUp.status).toBe(200);
    const found = (await lookedUp.json()) as Array<{ id: string; enhancements: Array<{ content: { enhancement_type: string } }> }>;
    expect(found.map((item) => item.id)).toEqual([referenceId]);
    expect(found[0].enhancements.map((item) => item.content.enhancement_type)).toEqual(['abstract']);
    expect(JSON.stringify(found[0])).not.toMatch(/"extra"|extra_key|confidence/);

    const candidates = await fetch(url('/references/deduplication/candidates/'), json(admin, 'POST', { reference_ids: [referenceId] }));
    expect(candidates.status).toBe(200);
    expect(await candidates.json()).toEqual([expect.objectContaining({ reference_id: referenceId })]);
    const unknownKey = await fetch(url('/references/deduplication/candidates/'), json(admin, 'POST', { reference_ids: [referenceId], extra: true }));
    expect(unknownKey.status).toBe(422);

    const decided = await fetch(url('/references/duplicate-decisions/'), json(admin, 'POST', [{ reference_id: referenceId, duplicate_determination: 'canonical' }]));
    expect(decided.status).toBe(201);
    expect(await decided.json()).toEqual([expect.objectContaining({ reference_id: referenceId, canonical_reference_id: null })]);
    // The reference body carries the active decision as the OpenAPI document's Reference declares it.
    let canonical: Record<string, unknown> = {};
    for (let attempt = 0; attempt < 100; attempt += 1) {
      canonical = (await (await fetch(url(`/references/${referenceId}/`), { headers: reader })).json()) as Record<string, unknown>;
      if ((canonical.duplicate_decision as { duplicate_determination?: string } | null)?.duplicate_determination === 'canonical') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(canonical.duplicate_decision).toEqual({ duplicate_determination: 'canonical', canonical_reference_id: null });
    expect(Object.keys(canonical)).toEqual(Object.keys(Reference.properties));
    expect(validate(Reference, canonical, 'body').ok).toBe(true);

    const invoked = await fetch(url('/references/duplicate-decisions/invoke/'), json(admin, 'POST', { reference_ids: [referenceId] }));
    expect(invoked.status).toBe(202);
    expect(await invoked.text()).toBe('null');

    const finalised = await fetch(url(`/imports/records/${record.id}/finalise/`), json(admin, 'PATCH'));
    expect(finalised.status).toBe(204);
    expect(await finalised.text()).toBe('');
    expect((await fetch(url(`/imports/records/${record.id}/finalise/`), json(admin, 'POST'))).status).toBe(204);
    expect(await (await fetch(url(`/imports/records/${record.id}/`), { headers: admin })).json()).toMatchObject({ id: record.id, status: 'completed' });
  });

  it('when searched_at carries microseconds and an offset, then the record keeps the microseconds in UTC', async () => {
    const created = await fetch(url('/imports/records/'), json(admin, 'POST', { processor_name: 'p', processor_version: '1', expected_reference_count: -1, source_name: 's', searched_at: '2026-01-31T14:00:00.123456+02:00' }));
    expect(created.status).toBe(201);
    const record = (await created.json()) as { id: string; searched_at: string };
    expect(record.searched_at).toBe('2026-01-31T12:00:00.123456Z');
    const fetched = (await (await fetch(url(`/imports/records/${record.id}/`), { headers: admin })).json()) as { searched_at: string };
    expect(fetched.searched_at).toBe('2026-01-31T12:00:00.123456Z');
  });

  it('when searched_at lies before year 1 or after 9999 in UTC, then 422 and no record is stored', async () => {
    const before = ((await (await fetch(url('/imports/records/'), { headers: admin })).json()) as unknown[]).length;
    for (const searchedAt of ['0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-01:00']) {
      const created = await fetch(url('/imports/records/'), json(admin, 'POST', { processor_name: 'p', processor_version: '1', expected_reference_count: -1, source_name: 's', searched_at: searchedAt }));
      expect(created.status).toBe(422);
      const body = (await created.json()) as { detail: Array<{ loc: unknown[] }> };
      expect(body.detail[0].loc).toEqual(['body', 'searched_at']);
    }
    expect(((await (await fetch(url('/imports/records/'), { headers: admin })).json()) as unknown[]).length).toBe(before);
  });

  it('when ids in the path do not exist, then 404 with the contract detail from the service', async () => {
    const missing = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4eff';
    const record = await fetch(url(`/imports/records/${missing}/`), { headers: admin });
    expect(record.status).toBe(404);
    expect(await record.json()).toEqual({ detail: `ImportRecord with id ${missing} does not exist.` });
    const batches = await fetch(url(`/imports/records/${missing}/batches/`), { headers: admin });
    expect(batches.status).toBe(404);
    const reference = await fetch(url(`/references/${missing}/`), { headers: reader });
    expect(reference.status).toBe(404);
    expect(await reference.json()).toEqual({ detail: `Reference with id ${missing} does not exist.` });
  });

  it('when a lookup names an unknown identifier type, then 400; unknown identifiers are simply absent', async () => {
    const bad = await fetch(url('/references/?identifier=isbn:123'), { headers: reader });
    expect(bad.status).toBe(400);
    const none = await fetch(url('/references/?identifier=doi:10.9999/nothing-here'), { headers: reader });
    expect(none.status).toBe(200);
    expect(await none.json()).toEqual([]);
  });

  it('when a batch is registered with an invalid body, then 422 before any upstream call', async () => {
    const created = (await (await fetch(url('/imports/records/'), json(admin, 'POST', { processor_name: 'p', processor_version: '1', expected_reference_count: -1, source_name: 's' }))).json()) as { id: string };
    const response = await fetch(url(`/imports/records/${created.id}/batches/`), json(admin, 'POST', { storage_url: 'ftp://example.org/x', collision_strategy: 'sometimes' }));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { detail: Array<{ loc: unknown[] }> };
    expect(body.detail.map((issue) => issue.loc)).toEqual(expect.arrayContaining([['body', 'storage_url'], ['body', 'collision_strategy']]));
  });
});
