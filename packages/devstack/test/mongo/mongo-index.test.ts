import { MongoBulkWriteError, MongoServerError } from 'mongodb';
import { closeFixture, openFixture, type MongoFixture, type Loose } from './mongo.fixture';

let fixture: MongoFixture;

beforeEach(async () => {
  fixture = await openFixture();
});

afterEach(async () => {
  await closeFixture(fixture);
});

describe('unique indexes', () => {
  test('when a duplicate _id is inserted, then E11000 names the _id_ index with keyPattern and keyValue', async () => {
    const collection = fixture.db.collection<Loose>('users');
    await collection.insertOne({ _id: 'u1' } as never);
    const error = (await collection.insertOne({ _id: 'u1' } as never).catch((caught: unknown) => caught)) as MongoServerError;
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error.code).toBe(11000);
    expect(error.errmsg).toBe('E11000 duplicate key error collection: test.users index: _id_ dup key: { _id: "u1" }');
    expect(error.keyPattern).toEqual({ _id: 1 });
    expect(error.keyValue).toEqual({ _id: 'u1' });
  });

  test('when a unique single-field index is violated, then the write fails and the index name and key are reported', async () => {
    const collection = fixture.db.collection<Loose>('users');
    await collection.createIndex({ email: 1 }, { unique: true });
    await collection.insertOne({ email: 'a@x.org' });
    const error = (await collection.insertOne({ email: 'a@x.org' }).catch((caught: unknown) => caught)) as MongoServerError;
    expect(error).toMatchObject({
      code: 11000,
      errmsg: 'E11000 duplicate key error collection: test.users index: email_1 dup key: { email: "a@x.org" }',
      keyPattern: { email: 1 },
      keyValue: { email: 'a@x.org' },
    });
    await collection.insertOne({ email: 'b@x.org' });
    await expect(collection.updateOne({ email: 'b@x.org' }, { $set: { email: 'a@x.org' } })).rejects.toMatchObject({ code: 11000 });
    expect(await collection.countDocuments({ email: 'b@x.org' })).toBe(1);
    await collection.insertOne({ name: 'no email' });
    await expect(collection.insertOne({ name: 'no email either' })).rejects.toMatchObject({ code: 11000, keyValue: { email: null } });
  });

  test('when insertMany hits duplicates, then ordered stops at the first and unordered continues', async () => {
    const collection = fixture.db.collection<Loose>('users');
    await collection.createIndex({ email: 1 }, { unique: true });
    const ordered = (await collection.insertMany([{ email: 'a' }, { email: 'a' }, { email: 'b' }]).catch((caught: unknown) => caught)) as MongoBulkWriteError;
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect(ordered.insertedCount).toBe(1);
    expect(ordered.writeErrors).toMatchObject([{ index: 1, code: 11000 }]);
    const unordered = (await collection.insertMany([{ email: 'c' }, { email: 'a' }, { email: 'd' }], { ordered: false }).catch((caught: unknown) => caught)) as MongoBulkWriteError;
    expect(unordered.insertedCount).toBe(2);
    expect(await collection.countDocuments()).toBe(3);
  });

  test('when a compound unique index is used, then only the full key combination must be unique', async () => {
    const collection = fixture.db.collection<Loose>('pairs');
    await collection.createIndex({ a: 1, b: 1 }, { unique: true, name: 'pair' });
    await collection.insertMany([{ a: 1, b: 1 }, { a: 1, b: 2 }]);
    const error = (await collection.insertOne({ a: 1, b: 2 }).catch((caught: unknown) => caught)) as MongoServerError;
    expect(error).toMatchObject({ code: 11000, errmsg: 'E11000 duplicate key error collection: test.pairs index: pair dup key: { a: 1, b: 2 }', keyPattern: { a: 1, b: 1 }, keyValue: { a: 1, b: 2 } });
  });

  test('when a partial unique index is used, then only documents matching its filter are constrained', async () => {
    const collection = fixture.db.collection<Loose>('partial');
    await collection.createIndex({ doi: 1 }, { unique: true, partialFilterExpression: { doi: { $type: 'string' } } });
    await collection.insertMany([{ title: 'no doi' }, { title: 'also none' }, { doi: '10.1/x' }]);
    await expect(collection.insertOne({ doi: '10.1/x' })).rejects.toMatchObject({ code: 11000 });
  });

  test('when a sparse unique index is used, then documents without the field do not collide', async () => {
    const collection = fixture.db.collection<Loose>('sparse');
    await collection.createIndex({ code: 1 }, { unique: true, sparse: true });
    await collection.insertMany([{ n: 1 }, { n: 2 }, { code: 'x' }]);
    await expect(collection.insertOne({ code: 'x' })).rejects.toMatchObject({ code: 11000 });
  });

  test('when a unique index is created over existing duplicates, then creation fails', async () => {
    const collection = fixture.db.collection<Loose>('existing');
    await collection.insertMany([{ k: 1 }, { k: 1 }]);
    await expect(collection.createIndex({ k: 1 }, { unique: true })).rejects.toMatchObject({ code: 11000 });
    expect((await collection.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);
  });
});

describe('index use', () => {
  async function seed() {
    const collection = fixture.db.collection<Loose>('refs');
    await collection.createIndex({ doi: 1 }, { unique: true });
    await collection.createIndex({ year: 1 });
    await collection.insertMany(Array.from({ length: 2000 }, (_unused, index) => ({ doi: `10.1/${index}`, year: 1900 + (index % 100), tags: [`t${index % 10}`] })));
    return collection;
  }

  test('when equality, $in and range filters hit indexed fields, then only matching documents are examined', async () => {
    const collection = await seed();
    const statistics = fixture.server.scanStatistics('test', 'refs');
    const examined = async (run: () => Promise<unknown>) => {
      const before = statistics?.documentsExamined ?? 0;
      await run();
      return (statistics?.documentsExamined ?? 0) - before;
    };
    expect(await examined(() => collection.findOne({ doi: '10.1/1234' }))).toBe(1);
    expect(await examined(() => collection.find({ doi: { $in: ['10.1/1', '10.1/2', 'nope'] } }).toArray())).toBe(2);
    expect(await examined(() => collection.find({ year: { $gte: 1990, $lt: 1992 } }).toArray())).toBe(40);
    expect(await examined(() => collection.find({ year: 1950, doi: { $exists: true } }).toArray())).toBe(20);
    expect(await examined(() => collection.find({ tags: 't1' }).toArray())).toBe(2000);
    expect(statistics?.lastPlan).toBe('COLLSCAN');
  });

  test('when a limited query or a claim sorts on an indexed field, then the index order is walked instead of sorting everything', async () => {
    const collection = await seed();
    const statistics = fixture.server.scanStatistics('test', 'refs');
    const before = statistics?.documentsExamined ?? 0;
    const newest = await collection.find({}).sort({ year: -1 }).limit(3).toArray();
    expect(newest.map((document) => document.year)).toEqual([1999, 1999, 1999]);
    expect(newest.map((document) => document.doi)).toEqual(['10.1/1999', '10.1/1899', '10.1/1799']);
    expect((statistics?.documentsExamined ?? 0) - before).toBe(3);

    const claimed = await collection.findOneAndUpdate({ claimed: { $exists: false } }, { $set: { claimed: true } }, { sort: { year: 1 }, returnDocument: 'after' });
    expect(claimed).toMatchObject({ doi: '10.1/0', year: 1900, claimed: true });
    const next = await collection.findOneAndUpdate({ claimed: { $exists: false } }, { $set: { claimed: true } }, { sort: { year: 1 } });
    expect(next).toMatchObject({ doi: '10.1/100', year: 1900 });
    const afterClaims = statistics?.documentsExamined ?? 0;
    await collection.findOneAndUpdate({ claimed: { $exists: false } }, { $set: { claimed: true } }, { sort: { year: 1 } });
    expect((statistics?.documentsExamined ?? 0) - afterClaims).toBeLessThanOrEqual(21);
  });

  test('when pages are read by _id range and sort, then each page examines only its own documents', async () => {
    const collection = fixture.db.collection<Loose>('pages');
    await collection.insertMany(Array.from({ length: 1000 }, (_unused, index) => ({ _id: 1000 - index, v: index })));
    const statistics = fixture.server.scanStatistics('test', 'pages');
    const seen: unknown[] = [];
    let last = 0;
    for (;;) {
      const before = statistics?.documentsExamined ?? 0;
      const page = await collection.find({ _id: { $gt: last } }).sort({ _id: 1 }).limit(100).toArray();
      if (page.length === 0) break;
      expect((statistics?.documentsExamined ?? 0) - before).toBe(page.length);
      seen.push(...page.map((document) => document._id));
      last = page[page.length - 1]._id as number;
      if (last === 500) await collection.insertMany([{ _id: 1500 }, { _id: 0.5 }]);
    }
    expect(seen).toEqual([...Array.from({ length: 1000 }, (_unused, index) => index + 1), 1500]);
    expect((await collection.find({ _id: { $lte: 1 } }).sort({ _id: -1 }).toArray()).map((document) => document._id)).toEqual([1, 0.5]);
  });

  test('when indexed values change between range queries, then the ordered index follows every change', async () => {
    const collection = await seed();
    expect(await collection.countDocuments({ year: { $gte: 1998 } })).toBe(40);
    await collection.insertMany([{ doi: 'new-1', year: 2050 }, { doi: 'new-2', year: 1998 }]);
    await collection.deleteMany({ year: 1999 });
    await collection.updateOne({ doi: '10.1/98' }, { $set: { year: 1500 } });
    expect(await collection.countDocuments({ year: { $gte: 1998 } })).toBe(21);
    expect((await collection.find({ year: { $lt: 1901 } }).sort({ year: 1 }).limit(2).toArray()).map((document) => document.doi)).toEqual(['10.1/98', '10.1/0']);
  });

  test('when explain is asked, then the winning plan and documents examined are reported', async () => {
    const collection = await seed();
    const explained = await collection.find({ doi: '10.1/5' }).explain('executionStats');
    expect(explained.queryPlanner.winningPlan).toMatchObject({ stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'doi_1' } });
    expect(explained.executionStats).toMatchObject({ nReturned: 1, totalDocsExamined: 1 });
    const scan = await collection.find({ tags: 't3' }).explain('executionStats');
    expect(scan.queryPlanner.winningPlan.stage).toBe('COLLSCAN');
    expect(scan.executionStats.totalDocsExamined).toBe(2000);
  });

  test('when a sparse index meets conditions that no document without the field can match, then it serves them, sorted walks included', async () => {
    const collection = fixture.db.collection<Loose>('queue');
    await collection.createIndex({ slot: 1 }, { sparse: true, name: 'slot_sparse' });
    // Even-numbered rows hold a slot; odd ones lack the field, and every tenth holds an explicit null.
    await collection.insertMany(Array.from({ length: 1000 }, (_unused, index) => (index % 2 === 0 ? { n: index, slot: `s|${String(index).padStart(4, '0')}` } : index % 10 === 1 ? { n: index, slot: null } : { n: index })));
    const statistics = fixture.server.scanStatistics('test', 'queue');
    const examined = async (run: () => Promise<Loose[]>) => {
      const before = statistics?.documentsExamined ?? 0;
      const found = await run();
      return { found, examined: (statistics?.documentsExamined ?? 0) - before, plan: statistics?.lastPlan };
    };
    const equality = await examined(() => collection.find({ slot: 's|0040' }).toArray());
    expect(equality).toMatchObject({ examined: 1, plan: 'IXSCAN slot_sparse' });
    expect(equality.found.map((document) => document.n)).toEqual([40]);
    const head = await examined(() => collection.find({ slot: { $gte: 's|', $lt: 's}' } }).sort({ slot: 1 }).limit(3).toArray());
    expect(head).toMatchObject({ examined: 3, plan: 'IXSCAN slot_sparse' });
    expect(head.found.map((document) => document.n)).toEqual([0, 2, 4]);
    const range = await examined(() => collection.find({ slot: { $gt: 's|0990' } }).toArray());
    expect(range.found.map((document) => document.n)).toEqual([992, 994, 996, 998]);
    expect(range.plan).toBe('IXSCAN slot_sparse');
    // Null and missing match these, and a sparse index lacks the missing ones: the collection is scanned.
    const missing = await examined(() => collection.find({ slot: null }).toArray());
    expect(missing.found).toHaveLength(500);
    expect(missing.plan).toBe('COLLSCAN');
    const unbounded = await examined(() => collection.find({}).sort({ slot: 1 }).limit(2).toArray());
    expect(unbounded.found.map((document) => document.slot ?? null)).toEqual([null, null]);
    expect(unbounded.plan).not.toBe('IXSCAN slot_sparse');
    const explained = await collection.find({ slot: 's|0002' }).explain('executionStats');
    expect(explained.queryPlanner.winningPlan).toMatchObject({ stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'slot_sparse' } });
  });

  describe('with a compound index', () => {
    async function seedResults() {
      const collection = fixture.db.collection<Loose>('results');
      await collection.createIndex({ batch: 1, status: 1 }, { name: 'batch_status' });
      // Batch b1: 990 completed, 10 failed; batch b2: 500 completed.
      await collection.insertMany(Array.from({ length: 1500 }, (_unused, index) => ({ line: index, batch: index < 1000 ? 'b1' : 'b2', status: index < 1000 && index % 100 === 7 ? 'failed' : 'completed' })));
      const statistics = fixture.server.scanStatistics('test', 'results');
      const examined = async <T>(run: () => Promise<T>) => {
        const before = statistics?.documentsExamined ?? 0;
        const found = await run();
        return { found, examined: (statistics?.documentsExamined ?? 0) - before, plan: statistics?.lastPlan };
      };
      return { collection, examined };
    }

    test('when a query has an equality on every field, then only the documents holding those keys are examined', async () => {
      const { collection, examined } = await seedResults();
      const failed = await examined(() => collection.find({ batch: 'b1', status: { $in: ['failed', 'partially_failed'] } }).sort({ line: 1 }).toArray());
      expect(failed).toMatchObject({ examined: 10, plan: 'IXSCAN batch_status' });
      expect(failed.found.map((document) => document.line)).toEqual([7, 107, 207, 307, 407, 507, 607, 707, 807, 907]);
      const narrowed = await examined(() => collection.find({ batch: 'b1', status: 'failed', line: { $gt: 500 } }).toArray());
      expect(narrowed.found.map((document) => document.line)).toEqual([507, 607, 707, 807, 907]);
      expect(narrowed.examined).toBe(10);
      // The first field alone still walks its value's documents.
      expect((await examined(() => collection.find({ batch: 'b2' }).toArray())).examined).toBe(500);
    });

    test('when documents are updated, inserted and deleted after a whole-key lookup, then later lookups follow every change', async () => {
      const { collection, examined } = await seedResults();
      expect(await collection.countDocuments({ batch: 'b1', status: 'failed' })).toBe(10);
      await collection.updateMany({ batch: 'b1', line: { $in: [1, 2] } }, { $set: { status: 'failed' } });
      await collection.updateOne({ line: 7 }, { $set: { status: 'completed' } });
      await collection.deleteOne({ line: 107 });
      await collection.insertOne({ line: 5000, batch: 'b1', status: 'failed' });
      const failed = await examined(() => collection.find({ batch: 'b1', status: 'failed' }).toArray());
      expect(failed.found.map((document) => document.line).sort((a, b) => (a as number) - (b as number))).toEqual([1, 2, 207, 307, 407, 507, 607, 707, 807, 907, 5000]);
      expect(failed.examined).toBe(11);
      expect(await collection.countDocuments({ batch: 'b1', status: 'completed' })).toBe(989);
    });

    test('when a count\'s filter is only equalities an index answers, then it is counted from the index without examining a document', async () => {
      const { collection, examined } = await seedResults();
      const counts = await examined(async () => [
        await collection.countDocuments({ batch: 'b1', status: 'completed' }),
        await collection.countDocuments({ batch: 'b1', status: { $in: ['failed', 'completed', 'failed'] } }),
        await collection.countDocuments({ batch: 'b3', status: 'completed' }),
        (await fixture.db.command({ count: 'results', query: { batch: 'b2', status: 'completed' } })).n,
      ]);
      expect(counts).toMatchObject({ found: [990, 1000, 0, 500], examined: 0, plan: 'COUNT_SCAN batch_status' });
      // Another condition has to be checked on each candidate, and skip and limit still apply.
      expect(await examined(() => collection.countDocuments({ batch: 'b1', status: 'failed', line: { $lt: 500 } }))).toMatchObject({ found: 5, examined: 10 });
      expect(await collection.countDocuments({ batch: 'b1', status: 'completed' }, { skip: 985, limit: 3 })).toBe(3);
      expect((await fixture.db.command({ count: 'results', query: { batch: 'b1', status: 'completed' }, skip: 985, limit: 10 })).n).toBe(5);
    });

    test('when a compound index holds arrays, then an equality on every field yields each matching document once', async () => {
      const collection = fixture.db.collection<Loose>('tagged');
      await collection.createIndex({ tags: 1, year: 1 });
      await collection.insertMany([{ n: 1, tags: ['a', 'b'], year: 2000 }, { n: 2, tags: ['b'], year: 2000 }, { n: 3, tags: ['a'], year: 2001 }]);
      expect((await collection.find({ tags: { $in: ['a', 'b'] }, year: 2000 }).toArray()).map((document) => document.n)).toEqual([1, 2]);
      expect(await collection.countDocuments({ tags: { $in: ['a', 'b'] }, year: 2000 })).toBe(2);
      expect(await collection.countDocuments({ tags: 'a', year: { $in: [2000, 2001] } })).toBe(2);
    });
  });

  test('when indexed documents are updated and deleted, then index lookups follow the changes', async () => {
    const collection = await seed();
    await collection.updateOne({ doi: '10.1/7' }, { $set: { doi: '10.1/seven' } });
    expect(await collection.findOne({ doi: '10.1/7' })).toBeNull();
    expect((await collection.findOne({ doi: '10.1/seven' }))?.year).toBe(1907);
    await collection.deleteOne({ doi: '10.1/seven' });
    expect(await collection.findOne({ doi: '10.1/seven' })).toBeNull();
    await collection.insertOne({ doi: '10.1/7', year: 3000 });
    expect(await collection.countDocuments({ year: { $gt: 2000 } })).toBe(1);
  });
});

describe('TTL indexes', () => {
  test('when the TTL monitor runs, then documents whose indexed date is older than expireAfterSeconds are removed', async () => {
    const collection = fixture.db.collection<Loose>('sessions');
    await collection.createIndex({ createdAt: 1 }, { expireAfterSeconds: 3600 });
    const now = new Date('2026-01-01T12:00:00Z');
    await collection.insertMany([
      { _id: 'old', createdAt: new Date('2026-01-01T10:00:00Z') },
      { _id: 'fresh', createdAt: new Date('2026-01-01T11:30:00Z') },
      { _id: 'not-a-date', createdAt: 'yesterday' },
      { _id: 'missing' },
    ]);
    expect(await fixture.server.expireDocuments(now)).toBe(1);
    expect((await collection.find().toArray()).map((document) => document._id)).toEqual(['fresh', 'not-a-date', 'missing']);
  });
});
