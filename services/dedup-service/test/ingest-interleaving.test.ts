import { identifierIdentityKey, TOPOLOGY, uuidv7 } from '@destiny/contracts';
import { createInProcessBus, createLogger, type MessageBus } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import { createBlockingKeyRepository } from '../src/data-access/blocking-key.repository';
import { createDecisionRepository } from '../src/data-access/decision.repository';
import { createReferenceRepository } from '../src/data-access/reference.repository';
import * as engine from '../src/domain/deduplication';
import type { ReferenceDocument } from '../src/domain/reference.model';
import { createIngestReferences } from '../src/usecases/ingest-references.usecase';
import { abstractLine, startInfrastructure } from './dedup-helpers';

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

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-ingest-interleaving');
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = mongo.db('destiny_dedup_interleaving');
    bus = createInProcessBus();
    await bus.declareTopology(TOPOLOGY);
    const stored = createReferenceRepository(db);
    const references: typeof stored = Object.assign(Object.create(stored) as typeof stored, {
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
      exclusive: (work) => work(),
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
    // The decision moved the version to 1; the merge's event names the version after it.
    expect(stored.version).toBe(2);
    expect(stored._outbox.map((entry) => entry.payload.version)).toEqual([2]);
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
});
