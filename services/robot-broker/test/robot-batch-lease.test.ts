import { uuidv7 } from '@destiny/contracts';
import type { Db } from 'mongodb';
import { createPendingEnhancementRepository } from '../src/data-access/pending-enhancement.repository';
import { abstractLine, failure, ingestReferences, startRobotBrokerHarness, waitFor, type DedupClient, type RobotBrokerHarness } from './robot-helpers';

// The lease lives on the batch document: claiming, renewing, submitting and expiring write the
// batch once instead of every pending enhancement, and a row still marked `processing` is in its
// batch's state. These tests check that what requesters and robots see is what per-row writes gave.

interface Batch {
  id: string;
  reference_storage_url: string;
  result_storage_url: string;
}

interface Row {
  _id: string;
  reference_id: string;
  status: string;
  retry_of: string | null;
}

const USER = { subject: 'user', roles: ['enhancement_request.writer'], entitlements: [], robot_id: '' };

describe('robot-broker batch leases', () => {
  let harness: RobotBrokerHarness;
  let references: DedupClient;
  let db: Db;
  let legacy: { robotId: string; batchId: string; rowIds: string[] };
  // Imports wait here after recording their results, before their rows leave `processing`.
  let held: Promise<void> = Promise.resolve();
  let release: () => void = () => undefined;
  const hold = () => {
    held = new Promise((resolve) => (release = resolve));
  };

  /** A batch leased by a version that kept the lease on each row, whose lease has passed. */
  async function seedLegacyLease(db: Db, references: DedupClient): Promise<void> {
    const refs = await ingestReferences(references, 2, 'legacy-lease');
    legacy = { robotId: uuidv7(), batchId: uuidv7(), rowIds: refs.map(() => uuidv7()) };
    const passed = new Date(Date.now() - 60_000);
    await db.collection('pending_enhancements').insertMany(
      refs.map((reference_id, index) => ({
        _id: legacy.rowIds[index],
        reference_id,
        robot_id: legacy.robotId,
        enhancement_request_id: null,
        robot_enhancement_batch_id: legacy.batchId,
        status: 'processing',
        source: 'legacy',
        expires_at: passed,
        retry_of: null,
        retry_depth: 0,
        created_at: passed,
        dedup_key: legacy.rowIds[index],
        queue_order: null,
        lease_expiry: passed,
      })) as never[],
    );
    await db.collection('robot_enhancement_batches').insertOne({
      _id: legacy.batchId,
      robot_id: legacy.robotId,
      status: 'processing',
      error: null,
      reference_ids: refs,
      reference_key: `robot-batches/${legacy.batchId}/references.jsonl`,
      result_key: `robot-batches/${legacy.batchId}/results.jsonl`,
      validation_key: null,
      created_at: passed,
      import: { next_line: 0, attempts: {}, entries: [], in_flight: null },
    } as never);
  }

  beforeAll(async () => {
    harness = await startRobotBrokerHarness('robot-batch-lease', { overrides: { afterImportChunk: () => held }, beforeBrokerStarts: seedLegacyLease });
    ({ references, db } = harness);
  });

  afterAll(async () => {
    release();
    await harness?.stop();
  });

  const json = <T>(method: string, request: unknown) => harness.json<T>(method, request);
  const newRobot = (name: string) => harness.newRobot(name);
  const request = (robotId: string, referenceIds: string[]) => harness.request(robotId, referenceIds);
  const requestStatus = (id: string) => harness.requestStatus(id);
  const poll = (robotId: string, lease = 'PT10M'): Promise<Batch | null> => harness.poll(robotId, 10, { lease });
  const upload = async (batch: Batch, referenceIds: string[]) => {
    const response = await fetch(batch.result_storage_url, { method: 'PUT', body: referenceIds.map((id) => `${abstractLine(id)}\n`).join('') });
    expect(response.status).toBe(200);
  };
  const submit = (batchId: string) => json<{ id: string }>('SubmitRobotEnhancementBatchResult', { caller: USER, id: batchId, json: JSON.stringify({ request_id: batchId, error: null }) });
  const rowsOf = (batchId: string) => db.collection('pending_enhancements').find({ robot_enhancement_batch_id: batchId }).toArray() as unknown as Promise<Row[]>;
  const batchDocument = (batchId: string) => db.collection('robot_enhancement_batches').findOne({ _id: batchId as never }) as Promise<{ status: string; lease_expiry: Date | null; reference_ids: string[]; pending_ids: string[]; import: { next_line: number } } | null>;

  it('when results are accepted, then the rows count as importing (request status and counts) with no write per row until the import settles them', async () => {
    const refs = await ingestReferences(references, 3, 'lease-import');
    const robot = await newRobot('lease-import-bot');
    const created = await request(robot.id, refs);
    const batch = (await poll(robot.id))!;
    const document = (await batchDocument(batch.id))!;
    const rows = await rowsOf(batch.id);
    expect(document.pending_ids).toEqual(document.reference_ids.map((referenceId) => rows.find((row) => row.reference_id === referenceId)?._id));
    await upload(batch, refs);
    hold();
    await submit(batch.id);
    await waitFor(async () => (await batchDocument(batch.id))?.import.next_line === 3, 'the recorded results');
    expect((await rowsOf(batch.id)).map((row) => row.status)).toEqual(['processing', 'processing', 'processing']);
    expect(await json('GetRequestStatusCounts', { id: created.id })).toEqual({ importing: 3 });
    expect(await requestStatus(created.id)).toBe('importing');
    expect(await failure(submit(batch.id))).toEqual({ status: 422, detail: "Cannot process results: Cannot transition from status 'importing' to 'importing'" });
    release();
    await waitFor(async () => (await requestStatus(created.id)) === 'indexing', 'the settled import');
    expect((await rowsOf(batch.id)).map((row) => row.status)).toEqual(['indexing', 'indexing', 'indexing']);
    expect(await json('GetRequestStatusCounts', { id: created.id })).toEqual({ indexing: 3 });
  });

  it('when a lease is renewed, then results submitted after the first expiry are accepted', async () => {
    const refs = await ingestReferences(references, 2, 'lease-renew');
    const robot = await newRobot('lease-renew-bot');
    await request(robot.id, refs);
    const batch = (await poll(robot.id, 'PT1S'))!;
    await json<string>('RenewRobotEnhancementBatchLease', { robot_enhancement_batch_id: batch.id, lease: 'PT1M' });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await upload(batch, refs);
    expect(await submit(batch.id)).toMatchObject({ id: batch.id });
    expect((await batchDocument(batch.id))?.status).toMatch(/^(importing|imported)$/);
  });

  it('when a renewal asks for a lease ending after the year 9999 (or one no date holds), then it is refused with 422 on the lease and the batch keeps its lease', async () => {
    const refs = await ingestReferences(references, 1, 'lease-too-long-renew');
    const robot = await newRobot('lease-too-long-renew-bot');
    await request(robot.id, refs);
    const batch = (await poll(robot.id))!;
    const before = (await batchDocument(batch.id))!;
    for (const lease of ['P300000Y', 'P99999999999Y', `P${'9'.repeat(400)}Y`, 'P8000Y']) {
      expect(await failure(json('RenewRobotEnhancementBatchLease', { robot_enhancement_batch_id: batch.id, lease }))).toEqual({
        status: 422,
        detail: [{ type: 'value_error', loc: ['query', 'lease'], msg: 'Value error, lease is too long: it would expire after the year 9999.', input: lease }],
      });
    }
    expect(await batchDocument(batch.id)).toMatchObject({ status: 'processing', lease_expiry: before.lease_expiry });
    // A long lease that still ends by the end of year 9999 is granted and answered as a date.
    const renewed = await json<string>('RenewRobotEnhancementBatchLease', { robot_enhancement_batch_id: batch.id, lease: 'P7000Y' });
    expect(renewed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}\+00:00$/);
    expect((await batchDocument(batch.id))?.lease_expiry?.toISOString()).toBe(`${renewed.slice(0, 23)}Z`);
    await upload(batch, refs);
    expect(await submit(batch.id)).toMatchObject({ id: batch.id });
  });

  it('when a poll asks for a lease ending after the year 9999, then it is refused with 422 on the lease and no batch is claimed', async () => {
    const refs = await ingestReferences(references, 2, 'lease-too-long-poll');
    const robot = await newRobot('lease-too-long-poll-bot');
    await request(robot.id, refs);
    for (const lease of ['P99999999999Y', 'P300000Y']) {
      expect(await failure(poll(robot.id, lease))).toEqual({
        status: 422,
        detail: [{ type: 'value_error', loc: ['query', 'lease'], msg: 'Value error, lease is too long: it would expire after the year 9999.', input: lease }],
      });
    }
    expect(await db.collection('robot_enhancement_batches').countDocuments({ robot_id: robot.id })).toBe(0);
    expect(await db.collection('pending_enhancements').countDocuments({ robot_id: robot.id, status: 'pending' })).toBe(2);
    const batch = (await poll(robot.id))!;
    expect((await rowsOf(batch.id)).map((row) => row.reference_id).sort()).toEqual([...refs].sort());
  });

  it('when a poll dies after claiming its rows, then they expire with its batch lease and the next poll gets their replacements', async () => {
    const refs = await ingestReferences(references, 2, 'lease-crash');
    const robot = await newRobot('lease-crash-bot');
    await request(robot.id, refs);
    const dead = uuidv7();
    await db.collection('robot_enhancement_batches').insertOne({ _id: dead, robot_id: robot.id, status: 'processing', lease_expiry: new Date(Date.now() - 1000), reference_ids: refs } as never);
    await db.collection('pending_enhancements').updateMany({ robot_id: robot.id }, { $set: { status: 'processing', robot_enhancement_batch_id: dead, queue_order: null } });
    const next = (await poll(robot.id))!;
    const originals = await rowsOf(dead);
    expect(originals.map((row) => row.status)).toEqual(['expired', 'expired']);
    expect((await rowsOf(next.id)).map((row) => row.retry_of).sort()).toEqual(originals.map((row) => row._id).sort());
    expect(await batchDocument(dead)).toMatchObject({ status: 'expired', lease_expiry: null });
  });

  it('when the periodic sweep expires a passed lease while a poll runs, then the poll still gets the replacements', async () => {
    // A second repository plays the sweep of another replica (or this one's timer) racing the poll.
    const sweep = createPendingEnhancementRepository(db);
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const refs = await ingestReferences(references, 2, `lease-race-${attempt}`);
      const robot = await newRobot(`lease-race-bot-${attempt}`);
      await request(robot.id, refs);
      const dead = uuidv7();
      await db.collection('robot_enhancement_batches').insertOne({ _id: dead, robot_id: robot.id, status: 'processing', lease_expiry: new Date(Date.now() - 1000), reference_ids: refs } as never);
      await db.collection('pending_enhancements').updateMany({ robot_id: robot.id }, { $set: { status: 'processing', robot_enhancement_batch_id: dead, queue_order: null } });
      // Staggering the sweep's start walks it across every step of the poll's own sweep.
      const [, next] = await Promise.all([new Promise((resolve) => setTimeout(resolve, attempt % 4)).then(() => sweep.expireDue(new Date())), poll(robot.id)]);
      expect(next).not.toBeNull();
      expect((await rowsOf(next!.id)).map((row) => row.reference_id).sort()).toEqual([...refs].sort());
    }
  });

  it('when a batch leased by an older version (lease on its rows) has passed, then after a start its rows expire and are offered again', async () => {
    await waitFor(async () => (await rowsOf(legacy.batchId)).every((row) => row.status === 'expired'), 'the legacy rows expired');
    const next = (await poll(legacy.robotId))!;
    expect((await rowsOf(next.id)).map((row) => row.retry_of).sort()).toEqual([...legacy.rowIds].sort());
  });
});
