import { identifierIdentityKey, QUEUES, TOPOLOGY, uuidv7, type DeduplicationJob } from '@destiny/contracts';
import { createInProcessBus, createLogger, type MessageBus } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import { createBlockingKeyRepository } from '../src/data-access/blocking-key.repository';
import { createDecisionRepository } from '../src/data-access/decision.repository';
import { createReferenceRepository } from '../src/data-access/reference.repository';
import * as engine from '../src/domain/deduplication';
import type { ReferenceDocument } from '../src/domain/reference.model';
import { createIngestReferences } from '../src/usecases/ingest-references.usecase';
import { startPendingDecisionSweeper } from '../src/usecases/requeue-pending-decisions.usecase';
import { abstractLine, startInfrastructure, waitFor } from './dedup-helpers';

// The decision lane runs beside ingestion, so a reference an ingest chunk read may be written by
// the other lane before the chunk writes its merge. The interleaving is forced here: the chunk's
// first merge write is preceded by a write to the same reference through the real store.

describe('IngestReferences when the other lane writes a reference between the chunk\'s read and its merge', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let mongo: MongoClient;
  let db: Db;
  let bus: MessageBus;
  /** Runs once, just before the next merge write. */
  let beforeNextMerge: ((referenceId: string) => Promise<void>) | null = null;
  let ingest: ReturnType<typeof createIngestReferences>;
  /** Fails the next insert of references, after the chunk's claims and pending decisions are written. */
  let failNextInsert = false;
  /** Runs once, just before the next insert of references, while the chunk holds the lane. */
  let beforeNextInsert: (() => Promise<void>) | null = null;
  /** The lane ingestion writes in (dedup-service's writer lease), here one chunk at a time in this process. */
  let laneTail: Promise<unknown> = Promise.resolve();
  const inLane = <T>(work: () => Promise<T>): Promise<T> => {
    const run = laneTail.then(work);
    laneTail = run.catch(() => undefined);
    return run;
  };

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-ingest-interleaving');
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = mongo.db('destiny_dedup_interleaving');
    bus = createInProcessBus();
    await bus.declareTopology(TOPOLOGY);
    const stored = createReferenceRepository(db);
    const references: typeof stored = Object.assign(Object.create(stored) as typeof stored, {
      async insertNew(...args: Parameters<typeof stored.insertNew>) {
        if (failNextInsert) {
          failNextInsert = false;
          throw new Error('the database went away');
        }
        const hook = beforeNextInsert;
        beforeNextInsert = null;
        if (hook) await hook();
        return stored.insertNew(...args);
      },
      async update(...args: Parameters<typeof stored.update>) {
        const hook = beforeNextMerge;
        beforeNextMerge = null;
        if (hook) await hook(args[0]);
        return stored.update(...args);
      },
    });
    ingest = createIngestReferences({
      db,
      references,
      decisions: createDecisionRepository(db),
      blocking: createBlockingKeyRepository(db),
      engine,
      trustedTypes: new Set(['doi']),
      bus,
      logger: createLogger({ service: 'test', level: 'silent' }),
      exclusive: inLane,
      onEvents: () => undefined,
    });
  });

  afterAll(async () => {
    await bus?.close();
    await mongo?.close();
    await infrastructure?.stop();
  });

  const line = abstractLine;
  const send = (strategy: string, lines: Array<ReturnType<typeof abstractLine>>) => ingest({ import_batch_id: uuidv7(), collision_strategy: strategy, lines });
  const read = async (id: string) => (await db.collection<ReferenceDocument>('references').findOne({ _id: id })) as ReferenceDocument & { _outbox: Array<{ payload: { version: number } }> };
  const claimOf = async (identifier: { identifier_type: string; identifier: string | number }) => (await db.collection('identifiers').findOne({ _id: identifierIdentityKey(identifier as never) as never }))?.reference_id;

  it('when a decision lands in between, then the merge is written on the decided version instead of failing the chunk', async () => {
    const doi = { identifier_type: 'doi', identifier: '10.4242/interleaved.decided' };
    const pmid = { identifier_type: 'pm_id', identifier: 4242001 };
    const [created] = await send('fail', [line([doi], 'first')]);
    const decided = { decision_id: uuidv7(), duplicate_determination: 'canonical', canonical_reference_id: null };
    beforeNextMerge = async (id) => {
      await db.collection<ReferenceDocument>('references').updateOne({ _id: id }, { $set: { active_decision: decided as never }, $inc: { version: 1 } });
    };

    const [merged] = await send('append', [line([doi, pmid], 'second')]);

    expect(merged).toEqual({ line_number: 1, status: 'completed', reference_id: created.reference_id, failure_details: '' });
    const stored = await read(created.reference_id);
    expect(stored.active_decision).toEqual(decided);
    expect(stored.identifiers).toEqual([doi, pmid]);
    expect(stored.enhancements.map((enhancement) => enhancement.content.abstract)).toEqual(['first', 'second']);
    // Stored at version 1 (its imported event), the decision moved it to 2; the merge's event names the version after it.
    expect(stored.version).toBe(3);
    expect(stored._outbox.map((entry) => entry.payload.version)).toEqual([1, 3]);
    expect(await claimOf(pmid)).toBe(created.reference_id);
  });

  it('when the content itself changed in between, then the chunk fails as a conflict, and sent again it merges once on the new content', async () => {
    const doi = { identifier_type: 'doi', identifier: '10.4242/interleaved.content' };
    const pmid = { identifier_type: 'pm_id', identifier: 4242002 };
    const [created] = await send('fail', [line([doi], 'first')]);
    const openAlex = { identifier_type: 'open_alex', identifier: 'W4242002' };
    beforeNextMerge = async (id) => {
      await db.collection<ReferenceDocument>('references').updateOne({ _id: id }, { $push: { identifiers: openAlex as never }, $inc: { version: 1 } });
    };
    const merge = line([doi, pmid], 'second');

    // A 409, which import-service answers by marking the lines `retrying` and sending them again.
    await expect(send('append', [merge])).rejects.toMatchObject({ httpStatus: 409 });
    // The identifier was claimed before the merge was written: no other line could store it meanwhile.
    expect(await claimOf(pmid)).toBe(created.reference_id);
    const [again] = await send('append', [merge]);

    expect(again).toMatchObject({ status: 'completed', reference_id: created.reference_id });
    const stored = await read(created.reference_id);
    expect(stored.identifiers).toEqual([doi, openAlex, pmid]);
    expect(stored.enhancements.map((enhancement) => enhancement.content.abstract)).toEqual(['first', 'second']);
  });

  it('when a claim names a reference that was never stored, then the next line with that identifier takes the claim over, and the stopped line sent again collides with it', async () => {
    const doi = { identifier_type: 'doi', identifier: '10.4242/interleaved.orphan' };
    // What an attempt that stopped after writing its claims, before inserting its reference, leaves.
    const stoppedReferenceId = uuidv7();
    await db.collection('identifiers').insertOne({ _id: identifierIdentityKey(doi as never) as never, reference_id: stoppedReferenceId });
    const stopped = line([doi], 'stopped attempt');

    const [other] = await send('fail', [line([doi], 'another batch')]);
    const [again] = await send('fail', [stopped]);

    expect(other).toMatchObject({ status: 'completed', failure_details: '' });
    expect(await claimOf(doi)).toBe(other.reference_id);
    expect(again).toEqual({ line_number: 1, status: 'failed', reference_id: '', failure_details: `Entry 1:\n\nIdentifier(s) are already mapped on an existing reference:\nidentifier_type=doi, identifier=${doi.identifier}` });
    expect(await db.collection('references').countDocuments({ 'identifiers.identifier': doi.identifier })).toBe(1);
  });

  it('when an attempt stops after storing its references and is never sent again, then each stored reference has a pending decision that the sweeper queues', async () => {
    const existing = { identifier_type: 'doi', identifier: '10.4242/interleaved.abandoned-merge' };
    const doi = { identifier_type: 'doi', identifier: '10.4242/interleaved.abandoned' };
    await send('fail', [line([existing], 'first')]);
    // The chunk's merge meets changed content (a 409), after the chunk's new reference was stored;
    // import-service gives up on such a chunk after its retries.
    beforeNextMerge = async (id) => {
      await db.collection<ReferenceDocument>('references').updateOne({ _id: id }, { $push: { identifiers: { identifier_type: 'open_alex', identifier: 'W4242003' } as never }, $inc: { version: 1 } });
    };
    await expect(send('append', [line([doi], 'abandoned attempt'), line([existing, { identifier_type: 'pm_id', identifier: 4242003 }], 'merge')])).rejects.toMatchObject({ httpStatus: 409 });
    const stored = await db.collection<ReferenceDocument>('references').findOne({ 'identifiers.identifier': doi.identifier });
    expect(stored).not.toBeNull();
    const decision = await db.collection('duplicate_decisions').findOne({ reference_id: stored?._id });
    expect(decision).toMatchObject({ _id: stored?.import_decision_id, duplicate_determination: 'pending', decision_trigger: 'import' });

    const queued = await sweepUntil(async (jobs) => jobs.some((job) => job.decision_ids.includes(stored?.import_decision_id as string)));

    expect(queued.flatMap((job) => job.reference_ids)).toContain(stored?._id);
    expect(await db.collection('duplicate_decisions').countDocuments({ _id: stored?.import_decision_id as never, duplicate_determination: 'pending' })).toBe(1);
  });

  it('when an attempt stops before storing its references, then sent again it stores each once, and the sweeper deletes the stopped attempt\'s pending decisions instead of queueing them forever', async () => {
    const doi = { identifier_type: 'doi', identifier: '10.4242/interleaved.never-stored' };
    const stopped = line([doi], 'stopped before the references');
    failNextInsert = true;
    await expect(send('fail', [stopped])).rejects.toThrow('the database went away');
    const orphans = await db.collection('duplicate_decisions').find({ duplicate_determination: 'pending', reference_id: { $nin: await db.collection('references').distinct('_id') } }).toArray();
    expect(orphans).toHaveLength(1);

    const [again] = await send('fail', [stopped]);

    expect(again).toMatchObject({ status: 'completed', failure_details: '' });
    expect(again.reference_id).not.toBe(orphans[0].reference_id);
    expect(await db.collection('references').countDocuments({ 'identifiers.identifier': doi.identifier })).toBe(1);
    const stoppedDecision = orphans[0]._id;
    const retriedDecision = (await db.collection<ReferenceDocument>('references').findOne({ _id: again.reference_id }))?.import_decision_id as string;
    const queued = await sweepUntil(async (jobs) => jobs.some((job) => job.decision_ids.includes(retriedDecision)) && (await db.collection('duplicate_decisions').countDocuments({ _id: stoppedDecision })) === 0);
    expect(queued.flatMap((job) => job.decision_ids)).not.toContain(stoppedDecision);
    expect(await db.collection('duplicate_decisions').countDocuments({ reference_id: again.reference_id, duplicate_determination: 'pending' })).toBe(1);
  });

  it('when the sweeper meets a pending decision whose chunk has not stored its reference yet, then it waits for the chunk and queues the decision instead of deleting it', async () => {
    const doi = { identifier_type: 'doi', identifier: '10.4242/interleaved.slow-chunk' };
    let release: () => void = () => undefined;
    const paused = new Promise<void>((reached) => {
      beforeNextInsert = () => {
        reached();
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      };
    });
    const sending = send('fail', [line([doi], 'stored after a pause')]);
    await paused;
    const decisions = db.collection<{ _id: string; reference_id: string }>('duplicate_decisions');
    const pending = (await decisions.find({ duplicate_determination: 'pending' }).sort({ _id: -1 }).limit(1).toArray())[0];
    expect(await db.collection('references').countDocuments({ _id: pending.reference_id as never })).toBe(0);

    // With no grace period the sweeper looks at once; it must wait for the chunk rather than take the decision for an orphan.
    const queued = await sweepUntil(async (jobs) => {
      if (jobs.length === 0) await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      return jobs.some((job) => job.decision_ids.includes(pending._id));
    });
    const [created] = await sending;

    expect(created.reference_id).toBe(pending.reference_id);
    expect(queued.flatMap((job) => job.decision_ids)).toContain(pending._id);
    expect(await decisions.countDocuments({ _id: pending._id })).toBe(1);
  });

  /** Runs the pending-decision sweeper with no grace period until `done`; the jobs it queued. */
  async function sweepUntil(done: (jobs: DeduplicationJob[]) => Promise<boolean>): Promise<DeduplicationJob[]> {
    const jobs: DeduplicationJob[] = [];
    const consumer = await bus.consume(QUEUES.dedupServiceDeduplication, async (message) => {
      jobs.push(message as DeduplicationJob);
      return { outcome: 'ack' };
    });
    const sweeper = startPendingDecisionSweeper({ decisions: createDecisionRepository(db), references: createReferenceRepository(db), bus, logger: createLogger({ service: 'test', level: 'silent' }), staleMs: 0, intervalMs: 10, exclusive: inLane });
    try {
      await waitFor(() => done(jobs), 'the sweep', 10_000);
    } finally {
      await sweeper.stop();
      await consumer.stop();
    }
    return jobs;
  }
});
