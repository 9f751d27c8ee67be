import crypto from 'node:crypto';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { callUnary, createGrpcClient } from '@destiny/platform';
import { startSystemUnderTest, type Provisioned, type SystemUnderTest } from './support/system-under-test';

// Issues #7 and #8: a robot's abstract on a duplicate is searchable through its canonical (the
// duplicate is not in the index), automations fire on the duplicate only (§13.2), and the request
// completes only once the canonical's entry holding the abstract is indexed.

const RECEIVED_ABSTRACT = { nested: { path: 'changeset.enhancements', query: { term: { 'changeset.enhancements.content.enhancement_type': 'abstract' } } } };

describe('an enhancement added to a duplicate end to end', () => {
  let system: SystemUnderTest;
  const url = (route: string) => system.url(route);
  const bearer = (method: string, body?: unknown) => system.bearer(method, body);
  const signed = (robot: Provisioned, method: string, body = '') => system.signed(robot, method, body);
  const pause = () => new Promise((resolve) => setTimeout(resolve, 50));

  beforeAll(async () => {
    system = await startSystemUnderTest({
      label: 'duplicate-enhancement',
      services: ['dedup-service', 'robot-broker', 'search-request-service', 'percolator'],
      env: { percolator: { PERCOLATION_BATCH_WAIT_MS: '10' }, 'search-request-service': { INDEXING_BATCH_WAIT_MS: '10' } },
    });
  });

  afterAll(async () => {
    await system?.stop();
  });

  async function decisionOf(referenceId: string): Promise<{ duplicate_determination: string; canonical_reference_id: string | null } | null> {
    const client = createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, system.address('dedup-service'));
    try {
      const response = (await callUnary(client, client.GetReference.bind(client) as never, { id: referenceId } as never)) as { json: string };
      return (JSON.parse(response.json) as { duplicate_decision?: { duplicate_determination: string; canonical_reference_id: string | null } | null }).duplicate_decision ?? null;
    } finally {
      client.close();
    }
  }

  async function decided(referenceId: string) {
    for (let attempt = 0; attempt < 600 && (await decisionOf(referenceId)) === null; attempt += 1) await pause();
    return decisionOf(referenceId);
  }

  const searchIds = async (q: string) => {
    const response = await fetch(url(`/references/search/?q=${encodeURIComponent(q)}`), bearer('GET'));
    expect(response.status).toBe(200);
    return ((await response.json()) as { references: Array<{ id: string }> }).references.map((reference) => reference.id);
  };

  /** One leased batch of the robot, or null when it has none. */
  async function poll(robot: Provisioned): Promise<{ id: string; reference_storage_url: string; result_storage_url: string } | null> {
    const polled = await fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}&limit=100&lease=PT10M`), signed(robot, 'POST'));
    if (polled.status === 204) return null;
    expect(polled.status).toBe(200);
    return (await polled.json()) as { id: string; reference_storage_url: string; result_storage_url: string };
  }

  const referencesOf = async (batch: { reference_storage_url: string }) =>
    (await (await fetch(batch.reference_storage_url)).text())
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { id: string }).id);

  it('when a robot adds an abstract to a duplicate, then the request completes only with the canonical searchable by it, and automations fire on the duplicate, not the canonical', async () => {
    const writer = await system.register('duplicate-abstract-writer');
    const watcher = await system.register('duplicate-abstract-watcher');
    const automation = await fetch(url('/enhancement-requests/automations/'), bearer('POST', { robot_id: watcher.id, query: RECEIVED_ABSTRACT }));
    expect(automation.status).toBe(201);

    const stamp = Date.now();
    const record = (doi: string) => ({ identifiers: [{ identifier: doi, identifier_type: 'doi' }], enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'bibliographic', title: `Moorland ${crypto.randomUUID()}` } }] });
    const [canonical] = await system.ingest([record(`10.4444/Dup.Enhance-${stamp}`)]);
    expect(await decided(canonical)).toEqual({ duplicate_determination: 'canonical', canonical_reference_id: null });
    // Only the DOI's case differs: the trusted-identifier shortcut decides `duplicate`.
    const [duplicate] = await system.ingest([record(`10.4444/dup.enhance-${stamp}`)]);
    expect(await decided(duplicate)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: canonical });

    const created = await fetch(url('/enhancement-requests/'), bearer('POST', { robot_id: writer.id, reference_ids: [duplicate], source: 'e2e' }));
    expect(created.status).toBe(202);
    const request = (await created.json()) as { id: string };
    let batch = await poll(writer);
    for (let attempt = 0; attempt < 600 && batch === null; attempt += 1) batch = await poll(writer);
    if (!batch) throw new Error('the writer robot got no batch');
    expect(await referencesOf(batch)).toEqual([duplicate]);
    const word = `heathwort${stamp}`;
    const result = JSON.stringify({ reference_id: duplicate, source: 'duplicate-abstract-writer', visibility: 'public', robot_version: '1.0.0', content: { enhancement_type: 'abstract', process: 'other', abstract: `Grazing on ${word} slopes.` } });
    expect((await fetch(batch.result_storage_url, { method: 'PUT', body: `${result}\n` })).status).toBe(200);
    const submitted = await fetch(url(`/robot-enhancement-batches/${batch.id}/results/`), signed(writer, 'POST', JSON.stringify({ request_id: batch.id, error: null })));
    expect(submitted.status).toBe(202);

    const status = async () => ((await (await fetch(url(`/enhancement-requests/${request.id}/`), bearer('GET'))).json()) as { request_status: string }).request_status;
    let current = await status();
    for (let attempt = 0; attempt < 600 && current !== 'completed'; attempt += 1) {
      await pause();
      current = await status();
    }
    expect(current).toBe('completed');
    // Completed means searchable: the canonical's entry now holds its duplicate's abstract.
    expect(await searchIds(word)).toEqual([canonical]);

    const fired: string[] = [];
    for (let attempt = 0; attempt < 600 && fired.length === 0; attempt += 1) {
      const leased = await poll(watcher);
      if (leased) fired.push(...(await referencesOf(leased)));
      else await pause();
    }
    expect(fired).toEqual([duplicate]);
    expect(await poll(watcher)).toBeNull();
  });
});
