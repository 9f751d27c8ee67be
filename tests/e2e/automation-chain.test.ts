import crypto from 'node:crypto';
import { uuidv7 } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { callUnary, createGrpcClient } from '@destiny/platform';
import { startSystemUnderTest, type Provisioned, type SystemUnderTest } from './support/system-under-test';

// Automations end to end: automations registered through the gateway, references stored in
// dedup-service, their first duplicate decisions percolated by the percolator, pending
// enhancements leased to contract robots (HMAC) by robot-broker, and one robot's results
// triggering another robot's automation, never its own.

const MISSING_ABSTRACT = {
  bool: {
    must: [{ nested: { path: 'changeset.identifiers', query: { term: { 'changeset.identifiers.identifier_type': 'doi' } } } }],
    must_not: [{ nested: { path: 'reference.enhancements', query: { term: { 'reference.enhancements.content.enhancement_type': 'abstract' } } } }],
  },
};
const DUPLICATE_ARRIVED = { term: { 'changeset.duplicate_determination': 'duplicate' } };
const RECEIVED_ABSTRACT = { nested: { path: 'changeset.enhancements', query: { term: { 'changeset.enhancements.content.enhancement_type': 'abstract' } } } };

describe('automations through the gateway end to end', () => {
  let system: SystemUnderTest;
  const url = (route: string) => system.url(route);
  const bearer = (method: string, body?: unknown) => system.bearer(method, body);
  const signed = (robot: Provisioned, method: string, body = '') => system.signed(robot, method, body);
  const register = (name: string) => system.register(name, 'automation robot');

  const ingest = (count: number, label: string, doiOf = (n: number) => `10.4444/${label}.${n}.${Date.now()}`): Promise<string[]> =>
    system.ingest(
      Array.from({ length: count }, (_, n) => ({
        identifiers: [{ identifier: doiOf(n), identifier_type: 'doi' }],
        enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'bibliographic', title: `${label} reference ${n} ${crypto.randomUUID()}` } }],
      })),
    );

  async function decisionOf(referenceId: string): Promise<{ duplicate_determination: string; canonical_reference_id: string | null } | null> {
    const client = createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, system.address('dedup-service'));
    try {
      const response = (await callUnary(client, client.GetReference.bind(client) as never, { id: referenceId } as never)) as { json: string };
      return (JSON.parse(response.json) as { duplicate_decision?: { duplicate_determination: string; canonical_reference_id: string | null } | null }).duplicate_decision ?? null;
    } finally {
      client.close();
    }
  }

  async function automate(robot: Provisioned, query: unknown): Promise<{ id: string; robot_id: string; query: unknown }> {
    const response = await fetch(url('/enhancement-requests/automations/'), bearer('POST', { robot_id: robot.id, query }));
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; robot_id: string; query: unknown };
  }

  /** Polls as the robot until a batch holds every expected reference (or gives up after ~30 s). */
  async function pollUntil(robot: Provisioned, expected: string[]): Promise<{ batches: Array<{ id: string; result_storage_url: string }>; references: string[] }> {
    const batches: Array<{ id: string; result_storage_url: string }> = [];
    const references = new Set<string>();
    for (let attempt = 0; attempt < 600 && !expected.every((id) => references.has(id)); attempt += 1) {
      const polled = await fetch(url(`/robot-enhancement-batches/?robot_id=${robot.id}&limit=100&lease=PT10M`), signed(robot, 'POST'));
      if (polled.status === 204) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      expect(polled.status).toBe(200);
      const batch = (await polled.json()) as { id: string; reference_storage_url: string; result_storage_url: string };
      batches.push(batch);
      const lines = (await (await fetch(batch.reference_storage_url)).text()).split('\n').filter((line) => line !== '');
      for (const line of lines) references.add((JSON.parse(line) as { id: string }).id);
    }
    return { batches, references: [...references].sort() };
  }

  beforeAll(async () => {
    system = await startSystemUnderTest({
      label: 'automation-chain',
      services: ['dedup-service', 'robot-broker', 'percolator'],
      env: { percolator: { PERCOLATION_BATCH_WAIT_MS: '10' } },
    });
  });

  afterAll(async () => {
    await system?.stop();
  });

  it('when automations are registered, listed and replaced through the gateway, then 201/200/201 and the contract errors 400/422/409/404', async () => {
    const robot = await register('registry-automation-bot');
    const created = await automate(robot, { term: { 'changeset.visibility': 'restricted' } });
    expect(created).toEqual({ robot_id: robot.id, query: { term: { 'changeset.visibility': 'restricted' } }, id: expect.any(String) });
    const listed = await fetch(url('/enhancement-requests/automations/'), bearer('GET'));
    expect(listed.status).toBe(200);
    expect(await listed.json()).toContainEqual(created);
    const replaced = await fetch(url(`/enhancement-requests/automations/${created.id}/`), bearer('PUT', { robot_id: robot.id, query: { term: { 'changeset.visibility': 'hidden' } } }));
    expect(replaced.status).toBe(201);
    expect(await replaced.json()).toEqual({ ...created, query: { term: { 'changeset.visibility': 'hidden' } } });

    const wrapped = await fetch(url('/enhancement-requests/automations/'), bearer('POST', { robot_id: robot.id, query: { query: { match_all: {} } } }));
    expect(wrapped.status).toBe(400);
    expect(((await wrapped.json()) as { detail: string }).detail).toMatch(/^Malformed Elasticsearch document: .* Error: /);
    const unmapped = await fetch(url('/enhancement-requests/automations/'), bearer('POST', { robot_id: robot.id, query: { term: { 'changeset.enhancements.content.abstract': 'x' } } }));
    expect(unmapped.status).toBe(400);
    expect(((await unmapped.json()) as { detail: string }).detail).toContain('No field mapping can be found for the field with name [changeset.enhancements.content.abstract]');
    const ghost = uuidv7();
    const unknownRobot = await fetch(url('/enhancement-requests/automations/'), bearer('POST', { robot_id: ghost, query: { match_all: {} } }));
    expect(unknownRobot.status).toBe(422);
    expect(await unknownRobot.json()).toEqual({ detail: `Robot with id ${ghost} does not exist.` });
    const twice = await fetch(url('/enhancement-requests/automations/'), bearer('POST', { robot_id: robot.id, query: { term: { 'changeset.visibility': 'hidden' } } }));
    expect(twice.status).toBe(409);
    const missing = uuidv7();
    const unknownAutomation = await fetch(url(`/enhancement-requests/automations/${missing}/`), bearer('PUT', { robot_id: robot.id, query: { match_all: {} } }));
    expect(unknownAutomation.status).toBe(404);
    expect(await unknownAutomation.json()).toEqual({ detail: `RobotAutomation with id ${missing} does not exist.` });
  });

  it('when imported references lack an abstract, then robot A is asked for them, and A\'s abstracts trigger robot B but never A itself', async () => {
    const robotA = await register('abstract-finder');
    const robotB = await register('abstract-classifier');
    await automate(robotA, MISSING_ABSTRACT);
    // A would also react to abstracts; the cycle check keeps its own from triggering it.
    await automate(robotA, RECEIVED_ABSTRACT);
    await automate(robotB, RECEIVED_ABSTRACT);

    const refs = await ingest(3, 'automation-chain');
    const forA = await pollUntil(robotA, refs);
    expect(forA.references).toEqual([...refs].sort());

    for (const batch of forA.batches) {
      const results = refs.map((id) => `${JSON.stringify({ reference_id: id, source: 'abstract-finder', visibility: 'public', robot_version: '1.0.0', content: { enhancement_type: 'abstract', process: 'other', abstract: `About ${id}` } })}\n`).join('');
      expect((await fetch(batch.result_storage_url, { method: 'PUT', body: results })).status).toBe(200);
      const submitted = await fetch(url(`/robot-enhancement-batches/${batch.id}/results/`), signed(robotA, 'POST', JSON.stringify({ request_id: batch.id, error: null })));
      expect(submitted.status).toBe(202);
    }

    const forB = await pollUntil(robotB, refs);
    expect(forB.references).toEqual([...refs].sort());
    const againForA = await fetch(url(`/robot-enhancement-batches/?robot_id=${robotA.id}&limit=100`), signed(robotA, 'POST'));
    expect(againForA.status).toBe(204);
  });

  it('when a reference becomes a duplicate of a canonical, then automations on the duplicate changeset fire for the canonical, not the duplicate', async () => {
    const robotD = await register('duplicate-watcher');
    await automate(robotD, DUPLICATE_ARRIVED);
    const stamp = Date.now();
    const [canonical] = await ingest(1, 'dup-canonical', () => `10.4444/Dup.Case-${stamp}`);
    for (let attempt = 0; attempt < 600 && (await decisionOf(canonical)) === null; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await decisionOf(canonical)).toEqual({ duplicate_determination: 'canonical', canonical_reference_id: null });
    // Only the DOI's case differs: the trusted-identifier shortcut decides `duplicate`.
    const [duplicate] = await ingest(1, 'dup-member', () => `10.4444/dup.case-${stamp}`);
    const forD = await pollUntil(robotD, [canonical]);
    expect(forD.references).toEqual([canonical]);
    expect(await decisionOf(duplicate)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: canonical });
    const again = await fetch(url(`/robot-enhancement-batches/?robot_id=${robotD.id}&limit=100`), signed(robotD, 'POST'));
    expect(again.status).toBe(204);
  });
});
