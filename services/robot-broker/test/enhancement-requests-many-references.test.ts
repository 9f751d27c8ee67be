import type { Db } from 'mongodb';
import { uuidv7 } from '@destiny/contracts';
import { failure, ingestReferences, startIndexAnnouncer, startRobotBrokerHarness, waitFor, type RobotBrokerHarness } from './robot-helpers';

// §10.1 over many references: every id must exist, and the request is accepted (or refused) as a
// whole. References the search index has announced are known to exist; only the others are looked
// up in dedup-service, a few chunks at a time.

describe('robot-broker enhancement requests over many references', () => {
  let harness: RobotBrokerHarness;
  let announcer: Awaited<ReturnType<typeof startIndexAnnouncer>>;
  let db: Db;

  beforeAll(async () => {
    harness = await startRobotBrokerHarness('many-references');
    announcer = await startIndexAnnouncer(harness.namespace);
    db = harness.db;
  });

  afterAll(async () => {
    await announcer?.close();
    await harness?.stop();
  });

  const rowsOf = (robotId: string) => db.collection<{ reference_id: string; status: string; enhancement_request_id: string }>('pending_enhancements').find({ robot_id: robotId }).toArray();
  const requestsOf = (robotId: string) => db.collection('enhancement_requests').countDocuments({ robot_id: robotId });

  it('when a request names 2,500 references the search index has not announced, then dedup-service confirms them and each gets one pending enhancement', async () => {
    announcer.hold();
    const refs = await ingestReferences(harness.references, 2500, 'many-unannounced');
    const robot = await harness.newRobot('many-unannounced-bot');
    const created = await harness.request(robot.id, refs);
    expect(await harness.requestStatus(created.id)).toBe('received');
    const rows = await rowsOf(robot.id);
    expect(rows).toHaveLength(2500);
    expect(new Set(rows.map((row) => row.reference_id))).toEqual(new Set(refs));
    expect(rows.every((row) => row.status === 'pending' && row.enhancement_request_id === created.id)).toBe(true);
    expect(await harness.json('GetRequestStatusCounts', { id: created.id })).toEqual({ pending: 2500 });
    await announcer.release();
  });

  it('when some of many references do not exist, then 422 names exactly those, in the order given, and nothing is stored', async () => {
    const refs = await ingestReferences(harness.references, 1500, 'many-missing');
    const robot = await harness.newRobot('many-missing-bot');
    const [first, second] = [uuidv7(), uuidv7()];
    const ids = [...refs.slice(0, 700), first, ...refs.slice(700), second];
    expect(await failure(harness.request(robot.id, ids))).toEqual({ status: 422, detail: `Reference with id [${first}, ${second}] does not exist.` });
    expect(await requestsOf(robot.id)).toBe(0);
    expect(await rowsOf(robot.id)).toHaveLength(0);
  });

  // Stops dedup-service: the last test of this file.
  // 1,200 references ingested, relayed and announced: about 40 s on a loaded 2-core host, so the default 60 s is too close.
  it('when every reference was announced by the search index, then the request is accepted without dedup-service; one it never announced is still looked up there', async () => {
    const refs = await ingestReferences(harness.references, 1200, 'many-announced');
    const versions = db.collection('indexed_reference_versions');
    await waitFor(async () => (await versions.countDocuments({ _id: { $in: refs as never[] } })) === refs.length, 'the announced references');
    announcer.hold();
    const [unannounced] = await ingestReferences(harness.references, 1, 'many-announced-late');
    await harness.stopReferenceStore();
    const robot = await harness.newRobot('many-announced-bot');
    const created = await harness.request(robot.id, refs);
    expect(await harness.json('GetRequestStatusCounts', { id: created.id })).toEqual({ pending: 1200 });
    // Not announced (yet): dedup-service must answer for it, and it cannot.
    const refused = await failure(harness.request(robot.id, [...refs, unannounced]));
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(await requestsOf(robot.id)).toBe(1);
    expect(await rowsOf(robot.id)).toHaveLength(1200);
  }, 180_000);
});
