import { uuidv7 } from '@destiny/contracts';
import { OUTBOX_PENDING_FIELD, pushToOutbox } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import { COLLECTIONS } from '../src/data-access/collections';
import { ConcurrentChangeError, createReferenceRepository } from '../src/data-access/reference.repository';
import { createWriterLease, WriterLeaseLostError, type WriterLease } from '../src/data-access/writer-lease.repository';
import type { ReferenceDocument } from '../src/domain/reference.model';
import { startInfrastructure } from './dedup-helpers';

describe('the dedup-service writer lease on MongoDB', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let client: MongoClient;
  let db: Db;
  const leases: WriterLease[] = [];
  const lease = (ttlMs: number, owner: string) => {
    const created = createWriterLease(db, { ttlMs, owner, pollMs: 10 });
    leases.push(created);
    return created;
  };

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-lease');
    client = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = client.db('destiny_dedup_lease');
  });

  afterEach(async () => {
    await Promise.all(leases.splice(0).map((item) => item.stop()));
    await db.collection(COLLECTIONS.leases).deleteMany({});
  });

  afterAll(async () => {
    await client?.close();
    await infrastructure?.stop();
  });

  it('when two replicas ask for exclusive work at once, then their work never overlaps and each gets a larger token', async () => {
    const first = lease(5000, 'replica-a');
    const second = lease(5000, 'replica-b');
    const log: string[] = [];
    const tokens: number[] = [];
    const work = (who: WriterLease, name: string) => async () => {
      log.push(`${name}:start`);
      tokens.push(who.token());
      await new Promise((resolve) => setTimeout(resolve, 30));
      log.push(`${name}:end`);
    };
    await Promise.all([0, 1, 2].flatMap((n) => [first.exclusive(work(first, `a${n}`)), second.exclusive(work(second, `b${n}`))]));
    for (let index = 0; index < log.length; index += 2) expect(log[index].replace(':start', ':end')).toBe(log[index + 1]);
    expect(tokens).toEqual([...tokens].sort((a, b) => a - b));
    expect(() => first.token()).toThrow(WriterLeaseLostError);
  });

  it('when work is queued in both lanes, then the lanes run side by side under one token, and each lane runs its own work one at a time in order', async () => {
    const only = lease(5000, 'replica-lanes');
    const log: string[] = [];
    const tokens = new Set<number>();
    const work = (name: string, ms: number) => async () => {
      log.push(`${name}:start`);
      tokens.add(only.token());
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`${name}:end`);
    };
    await Promise.all([
      only.exclusive(work('r1', 60), 'references'),
      only.exclusive(work('d1', 20), 'decisions'),
      only.exclusive(work('r2', 10), 'references'),
      only.exclusive(work('d2', 20), 'decisions'),
    ]);
    const at = (entry: string) => log.indexOf(entry);
    // The decisions lane did not wait for the references lane...
    expect(at('d1:start')).toBeLessThan(at('r1:end'));
    expect(at('d2:end')).toBeLessThan(at('r1:end'));
    // ...but within a lane the work ran in order, one at a time.
    expect(at('r1:end')).toBeLessThan(at('r2:start'));
    expect(at('d1:end')).toBeLessThan(at('d2:start'));
    expect(tokens.size).toBe(1);
  });

  it('when two replicas each have work in both lanes, then no work of one overlaps any work of the other', async () => {
    const first = lease(5000, 'replica-a');
    const second = lease(5000, 'replica-b');
    let running: string | null = null;
    let runningCount = 0;
    const overlaps: string[] = [];
    const work = (replica: string) => async () => {
      if (running !== null && running !== replica) overlaps.push(`${replica} while ${running}`);
      running = replica;
      runningCount += 1;
      await new Promise((resolve) => setTimeout(resolve, 15));
      runningCount -= 1;
      if (runningCount === 0) running = null;
    };
    await Promise.all(
      [0, 1, 2].flatMap(() => [
        first.exclusive(work('a'), 'references'),
        first.exclusive(work('a'), 'decisions'),
        second.exclusive(work('b'), 'references'),
        second.exclusive(work('b'), 'decisions'),
      ]),
    );
    expect(overlaps).toEqual([]);
  });

  it('when the lease is due to be handed over while the other lane still works, then new work waits for that work, which ends under the token it began with', async () => {
    const holder = createWriterLease(db, { ttlMs: 5000, owner: 'long-holder', pollMs: 10, maxHoldMs: 40 });
    leases.push(holder);
    const spans: Array<{ name: string; startToken: number; endToken: number; start: number; end: number }> = [];
    const work = (name: string, ms: number) => async () => {
      const start = performance.now();
      const startToken = holder.token();
      await new Promise((resolve) => setTimeout(resolve, ms));
      spans.push({ name, startToken, endToken: holder.token(), start, end: performance.now() });
    };
    const long = holder.exclusive(work('long', 200), 'references');
    const short = [1, 2, 3, 4, 5, 6].map((n) => holder.exclusive(work(`short${n}`, 20), 'decisions'));
    await Promise.all([long, ...short]);
    for (const span of spans) expect(span.endToken).toBe(span.startToken);
    const longSpan = spans.find((span) => span.name === 'long')!;
    // Some short work began under a later token (the hand-over), and only after the long work ended.
    const later = spans.filter((span) => span.startToken > longSpan.startToken);
    expect(later.length).toBeGreaterThan(0);
    for (const span of later) expect(span.start).toBeGreaterThanOrEqual(longSpan.end);
  });

  it('when the holder crashed without releasing, then another replica takes the lease once it has expired', async () => {
    await db.collection(COLLECTIONS.leases).insertOne({ _id: 'dedup-service.writer' as never, owner: 'crashed', token: 7, expires_at: new Date(Date.now() + 400) });
    const survivor = lease(5000, 'survivor');
    const started = Date.now();
    const token = await survivor.exclusive(async () => survivor.token());
    expect(token).toBe(8);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('when a holder lost its lease without noticing, then its reference write is fenced off by the newer holder\'s token', async () => {
    const stale = lease(5000, 'stale');
    const fresh = lease(5000, 'fresh');
    const staleReferences = createReferenceRepository(db, stale);
    const freshReferences = createReferenceRepository(db, fresh);
    const id = uuidv7();
    await db.collection<ReferenceDocument>(COLLECTIONS.references).insertOne({ _id: id, visibility: 'public', identifiers: [], enhancements: [], active_decision: null, version: 1, import_result_id: null, import_decision_id: null, created_at: new Date() } as unknown as ReferenceDocument);
    let releaseStale: () => void = () => undefined;
    const staleWork = stale.exclusive(async () => {
      // Paused past its expiry: the lease document is taken over meanwhile.
      await new Promise<void>((resolve) => {
        releaseStale = resolve;
      });
      await staleReferences.update(id, 1, { visibility: 'restricted' });
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await db.collection(COLLECTIONS.leases).updateOne({ _id: 'dedup-service.writer' as never }, { $set: { expires_at: new Date(0) } });
    await fresh.exclusive(() => freshReferences.update(id, 1, { visibility: 'hidden' }));
    releaseStale();
    await expect(staleWork).rejects.toBeInstanceOf(ConcurrentChangeError);
    expect(await db.collection(COLLECTIONS.references).findOne({ _id: id as never })).toMatchObject({ visibility: 'hidden', version: 1 });
  });

  it('when only this replica took the lease again, then its tenure stays; when another held it in between, then the tenure changes', async () => {
    const first = lease(5000, 'replica-a');
    const second = lease(5000, 'replica-b');
    const tenure = await first.exclusive(async () => first.tenure());
    expect(await first.exclusive(async () => first.tenure())).toBe(tenure);
    await second.exclusive(async () => second.tenure());
    expect(await first.exclusive(async () => first.tenure())).not.toBe(tenure);
    expect(() => first.tenure()).toThrow(WriterLeaseLostError);
  });

  describe('references inserted under the lease', () => {
    const fresh = (): ReferenceDocument => {
      const id = uuidv7();
      return {
        _id: id,
        visibility: 'public',
        identifiers: [{ identifier_type: 'doi', identifier: `10.1234/${id}` }, { identifier_type: 'pm_id', identifier: 123 }],
        enhancements: [{ id: uuidv7(), reference_id: id, source: 'importer', visibility: 'public', robot_version: null, derived_from: null, content: { enhancement_type: 'bibliographic', title: 'A title', publication_year: 2020, authorship: [{ display_name: 'A. Author', position: 'first' }] }, created_at: '2026-01-01T00:00:00.000Z', superseded_by: null, fingerprint: 'f' }],
        active_decision: null,
        version: 0,
        import_result_id: uuidv7(),
        merged_import_results: [],
        import_decision_id: uuidv7(),
        created_at: new Date('2026-01-01T00:00:00.000Z'),
      };
    };

    it('when read under the lease right after the insert, then they are exactly what the store holds', async () => {
      const holder = lease(5000, 'holder');
      const references = createReferenceRepository(db, holder);
      const documents = [fresh(), fresh()];
      const [held, stored] = await holder.exclusive(async () => {
        await references.insertNew(documents);
        return [await references.getManyHeld(documents.map((document) => document._id)), await references.getMany(documents.map((document) => document._id))];
      });
      expect(held).toStrictEqual(stored);
      expect(held.map((document) => document._id)).toEqual(documents.map((document) => document._id));
    });

    it('when one was written since, or another replica held the lease in between, then it is read from the store', async () => {
      const holder = lease(5000, 'holder');
      const other = lease(5000, 'other');
      const references = createReferenceRepository(db, holder);
      const [updated, untouched] = [fresh(), fresh()];
      await holder.exclusive(async () => {
        await references.insertNew([updated, untouched]);
        await references.update(updated._id, 0, { visibility: 'restricted' });
        const [row] = await references.getManyHeld([updated._id]);
        expect(row).toMatchObject({ visibility: 'restricted' });
      });
      await other.exclusive(() => createReferenceRepository(db, other).update(untouched._id, 0, { visibility: 'hidden' }));
      const [row] = await holder.exclusive(() => references.getManyHeld([untouched._id]));
      expect(row).toMatchObject({ visibility: 'hidden' });
    });

    const outboxEventFor = (document: ReferenceDocument) => ({ event_id: uuidv7(), exchange: 'events', routing_key: 'reference.changed', payload: { reference_id: document._id }, created_at: new Date() });

    const enhancedWrite = (document: ReferenceDocument, abstract: string) => {
      const added = { ...document.enhancements[0], id: uuidv7(), content: { enhancement_type: 'abstract', process: 'other', abstract }, fingerprint: abstract };
      const after = { ...document, enhancements: [...document.enhancements, added], version: document.version + 1 };
      const event = outboxEventFor(document);
      return { id: document._id, expectedVersion: document.version, set: { version: after.version }, events: [event], push: { enhancements: { $each: [added] } }, marker: added.id, after };
    };

    it('when enhanced in a bulk write and read under the lease again, then they are exactly what the store holds, outbox aside', async () => {
      const holder = lease(5000, 'holder');
      const references = createReferenceRepository(db, holder);
      const documents = [fresh(), fresh()];
      const [held, stored] = await holder.exclusive(async () => {
        await references.insertNew(documents);
        const first = documents.map((document) => enhancedWrite(document, 'first'));
        expect(await references.updateVersionedMany(first)).toEqual([]);
        // The second round starts from the kept documents, as a following chunk would.
        const kept = await references.getManyHeld(documents.map((document) => document._id));
        expect(await references.updateVersionedMany(kept.map((document) => enhancedWrite(document, 'second')))).toEqual([]);
        return [await references.getManyHeld(documents.map((document) => document._id)), await references.getMany(documents.map((document) => document._id))];
      });
      expect(held).toStrictEqual(stored);
      expect(held.map((document) => [document.version, document.enhancements.length])).toEqual([
        [2, 3],
        [2, 3],
      ]);
    });

    const decidedWrite = (document: ReferenceDocument) => {
      const active_decision = { decision_id: uuidv7(), duplicate_determination: 'canonical' as const, canonical_reference_id: null, decision_authority: 'system' };
      const event = outboxEventFor(document);
      const version = document.version + 1;
      return {
        filter: { _id: document._id, version: document.version },
        update: { $set: { active_decision, version, [OUTBOX_PENDING_FIELD]: true }, $push: pushToOutbox([event]).$push },
        after: { ...document, active_decision, version } as ReferenceDocument,
      };
    };

    it('when decided in a bulk update and read under the lease again, then they are exactly what the store holds, outbox aside', async () => {
      const holder = lease(5000, 'holder');
      const references = createReferenceRepository(db, holder);
      const documents = [fresh(), fresh()];
      const [held, stored] = await holder.exclusive(async () => {
        await references.insertNew(documents);
        expect(await references.updateMany(documents.map(decidedWrite))).toBe(2);
        return [await references.getManyHeld(documents.map((document) => document._id)), await references.getMany(documents.map((document) => document._id))];
      });
      expect(held).toStrictEqual(stored);
      expect(held.map((document) => [document.version, document.active_decision?.duplicate_determination])).toEqual([
        [1, 'canonical'],
        [1, 'canonical'],
      ]);
    });

    it('when the other lane writes a reference while a bulk decision update is in flight, then that reference is not kept and is read from the store', async () => {
      const holder = lease(5000, 'holder');
      const references = createReferenceRepository(db, holder);
      const [raced, quiet] = [fresh(), fresh()];
      await holder.exclusive(() => references.insertNew([raced, quiet]));
      // The decision's bulk update is sent; before its answer is handled, the other lane writes.
      const decided = holder.exclusive(() => references.updateMany([raced, quiet].map(decidedWrite)), 'decisions');
      const enhanced = holder.exclusive(() => references.update(raced._id, 1, { visibility: 'restricted', version: 2 }), 'references');
      expect(await decided).toBe(2);
      await enhanced;
      const rows = new Map((await holder.exclusive(() => references.getManyHeld([raced._id, quiet._id]))).map((row) => [row._id, row]));
      expect([rows.get(raced._id)?.version, rows.get(raced._id)?.visibility, rows.get(quiet._id)?.version]).toEqual([2, 'restricted', 1]);
    });

    it('when a bulk write of enhancements met a change by another writer, then none of its documents is kept and they are read from the store', async () => {
      const holder = lease(5000, 'holder');
      const references = createReferenceRepository(db, holder);
      const [changed, unchanged] = [fresh(), fresh()];
      await holder.exclusive(async () => {
        await references.insertNew([changed, unchanged]);
        await db.collection<ReferenceDocument>(COLLECTIONS.references).updateOne({ _id: changed._id }, { $set: { version: 7 } });
        expect(await references.updateVersionedMany([enhancedWrite(changed, 'lost'), enhancedWrite(unchanged, 'kept')])).toEqual([changed._id]);
        await db.collection<ReferenceDocument>(COLLECTIONS.references).updateOne({ _id: unchanged._id }, { $set: { visibility: 'hidden' } });
        const rows = new Map((await references.getManyHeld([changed._id, unchanged._id])).map((row) => [row._id, row]));
        expect([changed._id, unchanged._id].map((id) => [id, rows.get(id)?.version, rows.get(id)?.visibility])).toEqual([
          [changed._id, 7, 'public'],
          [unchanged._id, 1, 'hidden'],
        ]);
      });
    });
  });
});
