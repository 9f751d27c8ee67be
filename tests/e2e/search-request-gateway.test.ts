import crypto from 'node:crypto';
import { uuidv7 } from '@destiny/contracts';
import { startSystemUnderTest, type Provisioned, type SystemUnderTest } from './support/system-under-test';

// Search-based enhancement requests (§11) through the gateway: references ingested by
// dedup-service become searchable, a request over them is scanned into pending enhancements at
// robot-broker, and a contract robot polls exactly the matched references.

describe('search-based enhancement requests through the gateway end to end', () => {
  let system: SystemUnderTest;
  const url = (route: string) => system.url(route);
  const bearer = (method: string, body?: unknown) => system.bearer(method, body);
  const signed = (robot: Provisioned, method: string) => system.signed(robot, method);

  const ingest = (titles: string[]): Promise<string[]> =>
    system.ingest(
      titles.map((title, n) => ({
        identifiers: [{ identifier: `10.5555/search-request.${n}.${crypto.randomUUID()}`, identifier_type: 'doi' }],
        enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'bibliographic', title } }],
      })),
    );

  const dryRun = async (robotId: string, searchQuery: string) => fetch(url('/enhancement-requests/search/?dry_run=true'), bearer('POST', { robot_id: robotId, search_query: searchQuery }));

  beforeAll(async () => {
    system = await startSystemUnderTest({
      label: 'search-request-gateway',
      services: ['dedup-service', 'robot-broker', 'search-request-service'],
      env: { 'search-request-service': { INDEXING_BATCH_WAIT_MS: '10', SEARCH_SCAN_PAGE_SIZE: '3' } },
    });
  });

  afterAll(async () => {
    await system?.stop();
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
