import { uuidv7 } from '@destiny/contracts';
import { call, failure, ingestReferences, publishAutomationMatched, startRobotBrokerHarness, waitFor, type RobotBrokerHarness } from './robot-helpers';

// After a poll that got a full batch, robot-broker claims and writes the robot's next batch at
// once, so the robot's next poll only takes it. These tests check that a prepared batch is
// invisible until handed out, goes to exactly one poll, and gives its rows back when nobody takes it.

interface Batch {
  id: string;
  reference_storage_url: string;
}

interface Row {
  _id: string;
  reference_id: string;
  status: string;
  retry_of: string | null;
}

interface BatchDocument {
  _id: string;
  status: string;
  lease_expiry: Date | null;
  prepared?: { limit: number; full_text: boolean };
}

const USER = { subject: 'user', roles: ['enhancement_request.writer'], entitlements: [] as string[], robot_id: '' };

describe('robot-broker batches prepared ahead of a poll', () => {
  let harness: RobotBrokerHarness;

  beforeAll(async () => {
    harness = await startRobotBrokerHarness('robot-prepare-ahead');
  });

  afterAll(async () => {
    await harness?.stop();
  });

  const lineIds = async (batch: Batch) => (await (await fetch(batch.reference_storage_url)).text()).split('\n').filter((line) => line !== '').map((line) => (JSON.parse(line) as { id: string }).id);
  const rowsOf = (batchId: string) => harness.db.collection('pending_enhancements').find({ robot_enhancement_batch_id: batchId }).toArray() as unknown as Promise<Row[]>;
  const batchesOf = (robotId: string) => harness.db.collection('robot_enhancement_batches').find({ robot_id: robotId }).toArray() as unknown as Promise<BatchDocument[]>;
  /** The robot's batch prepared ahead (for polls of `limit`), once its preparation has ended. */
  const preparedOf = (robotId: string, limit?: number): Promise<BatchDocument> =>
    waitFor(async () => (await batchesOf(robotId)).find((batch) => batch.status === 'prepared' && (limit === undefined || batch.prepared?.limit === limit)), 'the batch prepared ahead');
  const sorted = (values: string[]) => [...values].sort();
  /** A robot with `count` requested references whose first poll of 2 has had the next 2 prepared. */
  const robotWithPrepared = async (label: string, count: number) => {
    const refs = await ingestReferences(harness.references, count, label);
    const robot = await harness.newRobot(`${label}-bot`);
    await harness.request(robot.id, refs);
    await harness.poll(robot.id, 2);
    return { robot, prepared: await preparedOf(robot.id, 2) };
  };

  it('when a poll gets a full batch, then the next is prepared unseen and the next poll takes it with its lease starting then', async () => {
    const refs = await ingestReferences(harness.references, 6, 'ahead-next');
    const robot = await harness.newRobot('ahead-next-bot');
    const created = await harness.request(robot.id, refs);
    const first = (await harness.poll(robot.id, 3))!;
    const prepared = await preparedOf(robot.id);
    expect(prepared).toMatchObject({ prepared: { limit: 3, full_text: false } });
    const preparedRows = await rowsOf(prepared._id);
    expect(preparedRows).toHaveLength(3);
    expect(sorted([...(await lineIds(first)), ...preparedRows.map((row) => row.reference_id)])).toEqual(sorted(refs));

    // Until a poll takes it, the batch does not exist for clients and its rows count as pending.
    expect(await harness.json('GetRequestStatusCounts', { id: created.id })).toEqual({ processing: 3, pending: 3 });
    expect((await failure(call(harness.client, 'GetRobotEnhancementBatch', { id: prepared._id }))).status).toBe(404);
    expect(await failure(call(harness.client, 'RenewRobotEnhancementBatchLease', { robot_enhancement_batch_id: prepared._id, lease: 'PT1M' }))).toEqual({
      status: 422,
      detail: `RobotEnhancementBatch with id [${prepared._id}] does not exist.`,
    });
    const early = await failure(call(harness.client, 'SubmitRobotEnhancementBatchResult', { caller: USER, id: prepared._id, json: JSON.stringify({ request_id: prepared._id, error: null }) }));
    expect(early.status).toBe(404);

    const before = Date.now();
    const second = (await harness.poll(robot.id, 3, { lease: 'PT1M' }))!;
    const after = Date.now();
    expect(second.id).toBe(prepared._id);
    expect(sorted(await lineIds(second))).toEqual(sorted(preparedRows.map((row) => row.reference_id)));
    const taken = (await batchesOf(robot.id)).find((batch) => batch._id === second.id)!;
    expect(taken.status).toBe('processing');
    expect(taken.prepared).toBeUndefined();
    expect(taken.lease_expiry!.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    expect(taken.lease_expiry!.getTime()).toBeLessThanOrEqual(after + 60_000);
    expect(await harness.json('GetRequestStatusCounts', { id: created.id })).toEqual({ processing: 6 });

    // Nothing is left to prepare, so the poll after (which waits for that preparation) finds nothing.
    expect(await harness.poll(robot.id, 3)).toBeNull();
    expect((await batchesOf(robot.id)).map((batch) => batch.status).sort()).toEqual(['processing', 'processing']);
  });

  it('when two polls race for one prepared batch, then exactly one takes it, the other still gets work (prepared for it if need be) and they share none', async () => {
    const { robot, prepared } = await robotWithPrepared('ahead-race', 6);
    const [one, two] = await Promise.all([harness.poll(robot.id, 2), harness.poll(robot.id, 2)]);
    expect([one!.id, two!.id].filter((id) => id === prepared._id)).toHaveLength(1);
    const [oneRows, twoRows] = await Promise.all([rowsOf(one!.id), rowsOf(two!.id)]);
    expect(oneRows).toHaveLength(2);
    expect(twoRows).toHaveLength(2);
    expect(new Set([...oneRows, ...twoRows].map((row) => row.reference_id)).size).toBe(4);
  });

  it('when the next poll asks for another limit or another entitlement, then it claims its own and the prepared batch waits for its poll', async () => {
    const { robot, prepared } = await robotWithPrepared('ahead-kind', 10);
    const smaller = (await harness.poll(robot.id, 1))!;
    expect(smaller.id).not.toBe(prepared._id);
    expect(await rowsOf(smaller.id)).toHaveLength(1);
    await preparedOf(robot.id, 1);
    const fullText = (await harness.poll(robot.id, 2, { entitlements: ['full_text'] }))!;
    expect(fullText.id).not.toBe(prepared._id);
    expect(await rowsOf(fullText.id)).toHaveLength(2);
    expect((await harness.poll(robot.id, 2))!.id).toBe(prepared._id);
  });

  it('when a poll of another kind finds nothing else pending, then the batch prepared for the old kind is given back to it instead of a 204', async () => {
    const { robot, prepared } = await robotWithPrepared('ahead-switch', 4);
    const preparedRows = await rowsOf(prepared._id);
    // Say the robot restarted with batches of 5: only the prepared rows are left.
    const switched = (await harness.poll(robot.id, 5))!;
    expect(switched).not.toBeNull();
    expect(sorted((await rowsOf(switched.id)).map((row) => row._id))).toEqual(sorted(preparedRows.map((row) => row._id)));
    expect((await batchesOf(robot.id)).some((batch) => batch._id === prepared._id)).toBe(false);
  });

  it('when no poll takes a prepared batch before its deadline, then its rows go back to their places in the queue, without replacements', async () => {
    const { robot, prepared } = await robotWithPrepared('ahead-release', 5);
    const preparedRows = await rowsOf(prepared._id);
    await harness.db.collection('robot_enhancement_batches').updateOne({ _id: prepared._id as never }, { $set: { lease_expiry: new Date(Date.now() - 1000) } });
    // The periodic sweep (every 200 ms here) gives the rows back; a poll in the middle of that
    // would still find them held, so the poll comes once the batch is gone.
    await waitFor(async () => !(await batchesOf(robot.id)).some((batch) => batch._id === prepared._id), 'the prepared batch released');
    const next = (await harness.poll(robot.id, 2))!;
    expect(next.id).not.toBe(prepared._id);
    const rows = await rowsOf(next.id);
    expect(sorted(rows.map((row) => row._id))).toEqual(sorted(preparedRows.map((row) => row._id)));
    expect(rows.map((row) => row.retry_of)).toEqual([null, null]);
    expect(await harness.db.collection('pending_enhancements').countDocuments({ robot_id: robot.id })).toBe(5);
    expect((await batchesOf(robot.id)).some((batch) => batch._id === prepared._id)).toBe(false);
  });

  it('when a preparation died half way, then the periodic sweep gives its rows back after the deadline', async () => {
    const refs = await ingestReferences(harness.references, 2, 'ahead-crash');
    const robot = await harness.newRobot('ahead-crash-bot');
    await harness.request(robot.id, refs);
    const dead = uuidv7();
    await harness.db.collection('robot_enhancement_batches').insertOne({
      _id: dead,
      robot_id: robot.id,
      status: 'preparing',
      lease_expiry: new Date(Date.now() - 1000),
      prepared: { limit: 2, full_text: false },
      reference_ids: refs,
    } as never);
    await harness.db.collection('pending_enhancements').updateMany({ robot_id: robot.id }, { $set: { status: 'processing', robot_enhancement_batch_id: dead, queue_order: null } });
    // The sweep gives the rows back, then deletes the batch: wait for both.
    await waitFor(
      async () => (await harness.db.collection('pending_enhancements').countDocuments({ robot_id: robot.id, status: 'pending' })) === 2 && (await batchesOf(robot.id)).length === 0,
      'the rows given back and the batch gone',
    );
    const next = (await harness.poll(robot.id, 10))!;
    expect(sorted(await lineIds(next))).toEqual(sorted(refs));
  });

  it('when a poll cannot write its reference file (dedup-service down), then it fails and its claimed rows are back in the queue with no batch left', async () => {
    const failing = await startRobotBrokerHarness('robot-claim-release');
    try {
      const refs = await ingestReferences(failing.references, 2, 'claim-release');
      const robot = await failing.newRobot('claim-release-bot');
      await failing.request(robot.id, refs);
      await failing.stopReferenceStore();
      expect((await failure(failing.poll(robot.id, 2))).status).toBeGreaterThanOrEqual(500);
      const rows = await failing.db.collection('pending_enhancements').find({ robot_id: robot.id }).toArray();
      expect(rows.map((row) => ({ status: row.status, batch: row.robot_enhancement_batch_id, queued: typeof row.queue_order === 'string' }))).toEqual([
        { status: 'pending', batch: null, queued: true },
        { status: 'pending', batch: null, queued: true },
      ]);
      expect(await failing.db.collection('robot_enhancement_batches').countDocuments({ robot_id: robot.id })).toBe(0);
    } finally {
      await failing.stop();
    }
  });

  describe('when work arrives for a robot that polls', () => {
    const robotsCollection = () => harness.db.collection('robots');
    /** Long enough for an arrival check that would prepare to have done so (they take milliseconds here), including one run again after the 1 s spacing. */
    const settle = () => new Promise((resolve) => setTimeout(resolve, 1500));
    const preparedCount = async (robotId: string) => (await batchesOf(robotId)).filter((batch) => ['preparing', 'prepared'].includes(batch.status)).length;

    it('when a robot whose last poll found nothing gets a full batch of work, then that batch is prepared for a poll like its last and its next poll takes it', async () => {
      const robot = await harness.newRobot('arrival-idle-bot');
      expect(await harness.poll(robot.id, 3)).toBeNull();
      await waitFor(async () => (await robotsCollection().findOne({ _id: robot.id as never }))?.last_poll?.limit === 3, 'the recorded poll');
      expect((await robotsCollection().findOne({ _id: robot.id as never }))!.last_poll).toMatchObject({ limit: 3, full_text: false });
      expect(await harness.json('GetRobot', { id: robot.id })).not.toHaveProperty('last_poll');

      const refs = await ingestReferences(harness.references, 4, 'arrival-idle');
      const created = await harness.request(robot.id, refs);
      const prepared = await preparedOf(robot.id, 3);
      expect(await rowsOf(prepared._id)).toHaveLength(3);
      expect(await harness.json('GetRequestStatusCounts', { id: created.id })).toEqual({ pending: 4 });
      const first = (await harness.poll(robot.id, 3))!;
      expect(first.id).toBe(prepared._id);
      expect(await lineIds(first)).toHaveLength(3);
      // The one left is not a full batch: the poll after claims it itself.
      const last = (await harness.poll(robot.id, 3))!;
      expect(sorted([...(await lineIds(first)), ...(await lineIds(last))])).toEqual(sorted(refs));
    });

    it('when the robot polled last at another instance, then the kind of poll recorded on the robot is prepared for, unless it was recorded longer ago than the prepare-ahead time', async () => {
      const [elsewhere, stale, never] = await Promise.all([harness.newRobot('arrival-elsewhere-bot'), harness.newRobot('arrival-stale-bot'), harness.newRobot('arrival-never-bot')]);
      await robotsCollection().updateOne({ _id: elsewhere.id as never }, { $set: { last_poll: { limit: 2, full_text: true, at: new Date() } } });
      await robotsCollection().updateOne({ _id: stale.id as never }, { $set: { last_poll: { limit: 2, full_text: false, at: new Date(Date.now() - 301_000) } } });
      const refs = await ingestReferences(harness.references, 2, 'arrival-elsewhere');
      await Promise.all([harness.request(elsewhere.id, refs), harness.request(stale.id, refs), harness.request(never.id, refs)]);

      const prepared = await preparedOf(elsewhere.id, 2);
      expect(prepared.prepared).toEqual({ limit: 2, full_text: true });
      await settle();
      expect(await batchesOf(stale.id)).toEqual([]);
      expect(await batchesOf(never.id)).toEqual([]);
      expect((await harness.poll(elsewhere.id, 2, { entitlements: ['full_text'] }))!.id).toBe(prepared._id);
    });

    it('when this instance saw the robot poll longer ago than the prepare-ahead time and another instance since, then the kind recorded there is prepared for', async () => {
      const quick = await startRobotBrokerHarness('robot-prepare-ahead-quick', { env: { ROBOT_PREPARE_AHEAD_SECONDS: '3' } });
      try {
        const robot = await quick.newRobot('arrival-moved-bot');
        expect(await quick.poll(robot.id, 3)).toBeNull();
        await new Promise((resolve) => setTimeout(resolve, 3100));
        await quick.db.collection('robots').updateOne({ _id: robot.id as never }, { $set: { last_poll: { limit: 2, full_text: false, at: new Date() } } });
        await quick.request(robot.id, await ingestReferences(quick.references, 2, 'arrival-moved'));
        const prepared = await waitFor(async () => (await quick.db.collection('robot_enhancement_batches').findOne({ robot_id: robot.id, status: 'prepared' })) as BatchDocument | null, 'the batch prepared for the other instance\'s kind of poll');
        expect(prepared.prepared).toEqual({ limit: 2, full_text: false });
      } finally {
        await quick.stop();
      }
    });

    it('when an automation match arrives over RabbitMQ for a robot that polls one at a time, then its batch is prepared for that poll', async () => {
      const robot = await harness.newRobot('arrival-automation-bot');
      expect(await harness.poll(robot.id, 1)).toBeNull();
      const [ref] = await ingestReferences(harness.references, 1, 'arrival-automation');
      const event = { event_id: uuidv7(), automation_id: uuidv7(), robot_id: robot.id, reference_id: ref, source: `RobotEnhancementBatch:${uuidv7()}`, occurred_at: new Date().toISOString() };
      await publishAutomationMatched(harness.namespace, [event]);
      const prepared = await preparedOf(robot.id, 1);
      expect(await lineIds((await harness.poll(robot.id, 1))!)).toEqual([ref]);
      expect((await batchesOf(robot.id)).map((batch) => batch._id)).toEqual([prepared._id]);
    });

    it('when work keeps arriving while a batch is prepared or waits for the poll, then only one batch is prepared and no row is held twice', async () => {
      const robot = await harness.newRobot('arrival-pieces-bot');
      expect(await harness.poll(robot.id, 2)).toBeNull();
      const refs = await ingestReferences(harness.references, 8, 'arrival-pieces');
      const items = (ids: string[]) => ({ items: ids.map((reference_id) => ({ reference_id, robot_id: robot.id, enhancement_request_id: '', source: 'automation:arrival' })) });
      // In pieces, as automation matches arrive; the pieces race the preparation the first started.
      await call(harness.client, 'CreatePendingEnhancementItems', items(refs.slice(0, 2)));
      await Promise.all([2, 4, 6].map((start) => call(harness.client, 'CreatePendingEnhancementItems', items(refs.slice(start, start + 2)))));
      await preparedOf(robot.id, 2);
      await settle();
      expect(await preparedCount(robot.id)).toBe(1);

      const served: string[] = [];
      for (let batch = await harness.poll(robot.id, 2); batch; batch = await harness.poll(robot.id, 2)) served.push(...(await lineIds(batch)));
      expect(sorted(served)).toEqual(sorted(refs));
    });
  });
});
