// The read and write paths that avoid decoding whole documents must answer exactly as decoding would.
import { Double, Long } from 'mongodb';
import { closeFixture, openFixture, type MongoFixture, type Loose } from './mongo.fixture';

let fixture: MongoFixture;

beforeEach(async () => {
  fixture = await openFixture();
});

afterEach(async () => {
  await closeFixture(fixture);
});

const statistics = (name: string) => fixture.server.scanStatistics('test', name) as { documentsExamined: number; lastPlan: string };

describe('choosing between an equality index and a sorted walk', () => {
  test('when a few documents match an indexed dotted field and the query sorts by _id with a limit, then the equality index is used and only its candidates examined', async () => {
    const references = fixture.db.collection<Loose>('references');
    await references.createIndex({ 'active_decision.canonical_reference_id': 1 });
    const documents = Array.from({ length: 500 }, (_unused, index) => ({
      _id: `r${String(index).padStart(4, '0')}`,
      active_decision: { canonical_reference_id: index % 100 === 7 ? 'c1' : `c-other-${index}`, duplicate_determination: index % 200 === 7 ? 'canonical' : 'duplicate' },
    }));
    await references.insertMany(documents);
    const before = statistics('references').documentsExamined;
    const found = await references
      .find({ 'active_decision.canonical_reference_id': { $in: ['c1', 'c-none'] }, 'active_decision.duplicate_determination': 'duplicate' })
      .sort({ _id: -1 })
      .limit(2)
      .toArray();
    expect(found.map((document) => document._id)).toEqual(['r0307', 'r0107']);
    expect(statistics('references').lastPlan).toBe('IXSCAN active_decision.canonical_reference_id_1');
    // The sorted walk is given up after as many documents as the index has candidates (5), which are then examined.
    expect(statistics('references').documentsExamined - before).toBeLessThanOrEqual(2 * 5 + 1);
  });

  test('when most documents match the equality and the query sorts by _id with a limit, then the _id order is walked and stops early', async () => {
    const jobs = fixture.db.collection<Loose>('jobs');
    await jobs.createIndex({ status: 1 });
    await jobs.insertMany(Array.from({ length: 300 }, (_unused, index) => ({ _id: index, status: index === 0 ? 'done' : 'pending' })));
    const before = statistics('jobs').documentsExamined;
    const first = await jobs.find({ status: 'pending' }).sort({ _id: 1 }).limit(1).toArray();
    expect(first).toEqual([{ _id: 1, status: 'pending' }]);
    expect(statistics('jobs').lastPlan).toBe('IXSCAN _id_');
    expect(statistics('jobs').documentsExamined - before).toBe(2);
  });
});

describe('walking a range of the sort field', () => {
  test('when random range conditions on an indexed sort field are queried with a limit and projection, then the answers equal the same queries without the index', async () => {
    const indexed = fixture.db.collection<Loose>('queue_indexed');
    const plain = fixture.db.collection<Loose>('queue_plain');
    await indexed.createIndex({ queue_order: 1 });
    const values = ['robot-a|1', 'robot-a|2', 'robot-a|10', 'robot-b|1', 'robot-b|3', 'robot-a', 'robot-b', 'robot-a}', '', 5, 12, null];
    const documents = Array.from({ length: 120 }, (_unused, index) => {
      const value = values[(index * 7) % values.length];
      return { _id: `p${String(index).padStart(3, '0')}`, reference_id: `r${index % 17}`, status: 'pending', ...(index % 13 === 0 ? {} : { queue_order: value }) };
    });
    await indexed.insertMany(documents);
    await plain.insertMany(documents);
    const bounds: unknown[] = ['robot-a|', 'robot-a}', 'robot-b|', 'robot-a|2', '', 'robot-b', 5, null];
    let state = 3;
    const next = (): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    for (let round = 0; round < 150; round += 1) {
      const condition: Loose = {};
      for (const operator of ['$gt', '$gte', '$lt', '$lte']) if (next() < 0.45) condition[operator] = bounds[Math.floor(next() * bounds.length)];
      if (Object.keys(condition).length === 0) condition.$gte = 'robot-a|';
      const filter = next() < 0.2 ? { queue_order: condition, reference_id: { $ne: 'r3' } } : { queue_order: condition };
      const direction = next() < 0.5 ? 1 : -1;
      const limit = 1 + Math.floor(next() * 30);
      const walked = await indexed.find(filter, { projection: { _id: 1, reference_id: 1 } }).sort({ queue_order: direction }).limit(limit).toArray();
      expect(statistics('queue_indexed').lastPlan).toBe('IXSCAN queue_order_1');
      // Equal keys come in insertion (_id) order in a forward walk and in reverse in a backward one, as the second sort key on _id gives here.
      const sorted = await plain.find(filter, { projection: { _id: 1, reference_id: 1 } }).sort({ queue_order: direction, _id: direction }).limit(limit).toArray();
      expect({ round, filter, direction, walked }).toEqual({ round, filter, direction, walked: sorted });
    }
  });
});

describe('matching without decoding whole documents', () => {
  test('when an _id or index lookup answers one condition, then the other conditions are still checked', async () => {
    const users = fixture.db.collection<Loose>('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertMany([
      { _id: 'u1', email: 'a@x.org', status: 'active', profile: { age: 30 } },
      { _id: 'u2', email: 'b@x.org', status: 'blocked', profile: { age: 40 } },
    ]);
    expect(await users.find({ _id: { $in: ['u1', 'u2'] }, status: 'blocked' }).toArray()).toEqual([{ _id: 'u2', email: 'b@x.org', status: 'blocked', profile: { age: 40 } }]);
    expect(await users.findOne({ email: 'a@x.org', 'profile.age': { $gt: 35 } })).toBeNull();
    expect(await users.countDocuments({ email: { $in: ['a@x.org', 'b@x.org'] }, $or: [{ status: 'active' }, { 'profile.age': 40 }] })).toBe(2);
    expect(await users.countDocuments({ _id: 'u1', status: 'blocked' })).toBe(0);
    expect(await users.find({ $expr: { $gt: ['$profile.age', 35] } }, { projection: { email: 1 } }).toArray()).toEqual([{ _id: 'u2', email: 'b@x.org' }]);
  });

  test('when results are projected, then top-level and nested projections both return what MongoDB returns', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertMany([
      { _id: 1, a: 1, b: { c: 2, d: 3 }, e: [1, 2, 3], f: 'x' },
      { _id: 2, a: 2, f: 'y' },
    ]);
    const included = await items.find({}, { projection: { f: 1, a: 1 } }).sort({ a: -1 }).toArray();
    expect(included).toEqual([{ _id: 2, f: 'y', a: 2 }, { _id: 1, f: 'x', a: 1 }]);
    expect(Object.keys(included[1])).toEqual(['_id', 'f', 'a']);
    expect(await items.find({ _id: 1 }, { projection: { b: 0, e: 0, _id: 0 } }).toArray()).toEqual([{ a: 1, f: 'x' }]);
    expect(await items.find({ _id: 1 }, { projection: { _id: 0 } }).toArray()).toEqual([{ a: 1, b: { c: 2, d: 3 }, e: [1, 2, 3], f: 'x' }]);
    expect(await items.find({ _id: 1 }, { projection: { 'b.c': 1, e: { $slice: 1 } } }).toArray()).toEqual([{ _id: 1, b: { c: 2 }, e: [1] }]);
  });

  test('when a document changes between batches, then later batches return it as it was when the query ran', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertMany(Array.from({ length: 5 }, (_unused, index) => ({ _id: index, v: 'old' })));
    const cursor = items.find({}, { batchSize: 2 });
    const seen: Loose[] = [];
    for await (const document of cursor) {
      seen.push(document);
      if (seen.length === 1) await items.updateOne({ _id: 4 }, { $set: { v: 'new' } });
    }
    expect(seen).toEqual(Array.from({ length: 5 }, (_unused, index) => ({ _id: index, v: 'old' })));
    expect(await items.findOne({ _id: 4 })).toEqual({ _id: 4, v: 'new' });
  });

  test('when an aggregation result spans batches, then getMore returns the decoded results in order', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertMany(Array.from({ length: 7 }, (_unused, index) => ({ _id: index, group: index % 2 })));
    const results = await items.aggregate([{ $match: { _id: { $gte: 1 } } }, { $project: { double: { $multiply: ['$_id', 2] } } }], { batchSize: 2 }).toArray();
    expect(results).toEqual(Array.from({ length: 6 }, (_unused, index) => ({ _id: index + 1, double: (index + 1) * 2 })));
  });
});

describe('updates that rewrite only the fields they touch', () => {
  test('when an update touches some fields, then the others keep their stored types and the new ones are appended', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertOne({ _id: 1, ratio: new Double(5), list: [1], gone: true, nested: { x: 1 } });
    const result = await fixture.db.collection('items').updateOne({ _id: 1 as never }, { $set: { 'nested.y': 2, added: 'a' }, $push: { list: 2 }, $unset: { gone: '' }, $rename: { ratio: 'renamed' } } as never);
    expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    const stored = await items.findOne({ _id: 1 });
    expect(stored).toEqual({ _id: 1, list: [1, 2], nested: { x: 1, y: 2 }, added: 'a', renamed: 5 });
    expect(Object.keys(stored as Loose)).toEqual(['_id', 'list', 'nested', 'added', 'renamed']);
    await items.updateOne({ _id: 1 }, { $set: { other: 1 } });
    await items.updateOne({ _id: 1 }, { $rename: { other: 'kept' } });
    await items.updateOne({ _id: 1 }, { $set: { note: 'n' } });
    const raw = await items.findOne({ _id: 1 }, { promoteValues: false });
    expect(raw?.renamed).toEqual(new Double(5));
  });

  test('when $push and $pull splice top-level arrays next to $set and $max, then the document is what MongoDB stores and other fields keep their types', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertOne({ _id: 1, ratio: new Double(5), version: 1, enhancements: [{ id: 'a' }], outbox: [], pending: false });
    const pushed = await items.updateOne(
      { _id: 1, version: 1 },
      { $set: { version: 2 }, $push: { enhancements: { $each: [{ id: 'b' }, { id: 'c' }] }, outbox: { $each: [{ event_id: 'e1' }, { event_id: 'e2' }, { event_id: 'e3' }] } }, $max: { pending: true } } as never,
    );
    expect(pushed).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    const pulled = await items.updateOne({ _id: 1 }, { $pull: { outbox: { event_id: { $in: ['e1', 'e3'] } } } } as never);
    expect(pulled).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await items.updateOne({ _id: 1 }, { $pull: { outbox: { event_id: 'gone' } }, $push: { enhancements: { $each: [] } } } as never)).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    const stored = await items.findOne({ _id: 1 }, { promoteValues: false });
    expect(stored?.ratio).toEqual(new Double(5));
    expect(await items.findOne({ _id: 1 })).toEqual({ _id: 1, ratio: 5, version: 2, enhancements: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], outbox: [{ event_id: 'e2' }], pending: true });
    expect(await items.find({ 'outbox.0.event_id': 'e2', 'enhancements.2.id': 'c' }).toArray()).toHaveLength(1);
  });

  test('when pushed elements arrive in a bulk write’s document sequence or in the command body, then the stored array holds them with their types', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertOne({ _id: 1, list: [{ id: 'a' }] });
    await items.bulkWrite([
      { updateOne: { filter: { _id: 1 }, update: { $push: { list: { $each: [{ id: 'b', weight: 1.5, count: Long.fromNumber(5) }, 'text'] } } } as never } },
      { updateOne: { filter: { _id: 1 }, update: { $push: { list: new Double(2) } } as never } },
    ]);
    await items.updateOne({ _id: 1 }, { $push: { list: { $each: [[1, { nested: new Date(0) }]] } } } as never);
    const stored = await items.findOne({ _id: 1 }, { promoteLongs: false });
    expect(stored).toEqual({ _id: 1, list: [{ id: 'a' }, { id: 'b', weight: 1.5, count: Long.fromNumber(5) }, 'text', 2, [1, { nested: new Date(0) }]] });
  });

  test('when $push targets a missing field or a non-array, then the array is created or MongoDB’s error is returned without changes', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertMany([
      { _id: 1, version: 1 },
      { _id: 2, version: 1, list: 'text' },
    ]);
    await items.updateOne({ _id: 1 }, { $push: { list: { $each: [{ x: 1 }] } }, $set: { version: 2 } } as never);
    expect(await items.findOne({ _id: 1 })).toEqual({ _id: 1, version: 2, list: [{ x: 1 }] });
    await expect(items.updateOne({ _id: 2 }, { $set: { version: 2 }, $push: { list: 1 } } as never)).rejects.toMatchObject({ code: 2, message: "The field 'list' must be an array but is of type string in document {_id: 2}" });
    expect(await items.findOne({ _id: 2 })).toEqual({ _id: 2, version: 1, list: 'text' });
  });

  test('when $push changes documents under an index on other fields and updateMany sets fields on many, then the indexes follow', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.createIndex({ status: 1 });
    await items.insertMany(Array.from({ length: 20 }, (_, index) => ({ _id: index, status: 'pending', list: [index] })));
    await items.updateMany({ status: 'pending', _id: { $lt: 10 } }, { $set: { status: 'claimed' }, $push: { list: -1 } } as never);
    expect(await items.countDocuments({ status: 'claimed' })).toBe(10);
    expect(await items.countDocuments({ status: 'pending' })).toBe(10);
    expect(await items.findOne({ _id: 3 })).toEqual({ _id: 3, status: 'claimed', list: [3, -1] });
  });

  test('when an outbox is cleared only if no entry was added since it was read, then positional $exists decides from the stored array', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertMany([
      { _id: 1, outbox: [{ event_id: 'a' }], pending: true },
      { _id: 2, outbox: [{ event_id: 'a' }, { event_id: 'b' }], pending: true },
      { _id: 3, outbox: [{ 1: 'a field named like a position' }], pending: true },
    ]);
    const clear = { $set: { outbox: [], pending: false } };
    expect(await items.updateOne({ _id: 1, 'outbox.1': { $exists: false } }, clear)).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await items.updateOne({ _id: 2, 'outbox.1': { $exists: false } }, clear)).toMatchObject({ matchedCount: 0 });
    expect(await items.updateOne({ _id: 3, 'outbox.1': { $exists: false } }, clear)).toMatchObject({ matchedCount: 0 });
    expect(await items.updateOne({ _id: 1, 'outbox.0': { $exists: false } }, clear)).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    expect(await items.find({ 'outbox.1': { $exists: true } }, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 2, outbox: [{ event_id: 'a' }, { event_id: 'b' }], pending: true },
      { _id: 3, outbox: [{ 1: 'a field named like a position' }], pending: true },
    ]);
    expect(await items.findOne({ _id: 1 })).toEqual({ _id: 1, outbox: [], pending: false });
  });

  test('when an update sets values already stored, then nothing is modified', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertOne({ _id: 1, a: 1, b: { c: [1, 2] }, list: [1] });
    expect(await fixture.db.collection('items').updateOne({ _id: 1 as never }, { $set: { a: 1, 'b.c': [1, 2] }, $pull: { list: 5 } } as never)).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
  });

  test('when an update changes an indexed field or a field of a partial index filter, then the indexes follow', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.createIndex({ 'owner.id': 1 });
    await items.createIndex({ code: 1 }, { unique: true, partialFilterExpression: { active: true } });
    await items.insertMany([
      { _id: 1, owner: { id: 'o1' }, code: 'c', active: true, payload: 'p' },
      { _id: 2, owner: { id: 'o2' }, code: 'c', active: false, payload: 'q' },
    ]);
    await items.updateOne({ _id: 1 }, { $set: { 'owner.id': 'o3', payload: 'changed' } });
    expect(await items.find({ 'owner.id': 'o1' }).toArray()).toEqual([]);
    expect(await items.find({ 'owner.id': 'o3' }).toArray()).toEqual([{ _id: 1, owner: { id: 'o3' }, code: 'c', active: true, payload: 'changed' }]);
    await expect(items.updateOne({ _id: 2 }, { $set: { active: true } })).rejects.toMatchObject({ code: 11000 });
    await items.updateOne({ _id: 1 }, { $set: { active: false } });
    await items.updateOne({ _id: 2 }, { $set: { active: true } });
    expect(await items.countDocuments({ active: true, code: 'c' })).toBe(1);
  });

  test('when findOneAndUpdate changes a document, then it returns whole documents before or after the change', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertOne({ _id: 1, status: 'pending', body: { text: 't' } });
    expect(await items.findOneAndUpdate({ status: 'pending' }, { $set: { status: 'claimed' } })).toEqual({ _id: 1, status: 'pending', body: { text: 't' } });
    expect(await items.findOneAndUpdate({ _id: 1 }, { $set: { by: 'me' } }, { returnDocument: 'after' })).toEqual({ _id: 1, status: 'claimed', body: { text: 't' }, by: 'me' });
  });
});

describe('bulk updates whose $each elements arrive undecoded', () => {
  // A bulk write sends its statements as a document sequence, where `$each` elements stay bytes
  // until an update needs their values: each case below needs them and must store what decoding would.
  test('when $push needs the values ($sort, a dotted path, an indexed field, non-round-tripping numbers), then the stored arrays are what MongoDB stores', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.createIndex({ 'indexed.id': 1 });
    await items.insertOne({ _id: 1, sorted: [{ s: 2 }], nested: { list: [] }, indexed: [], doubles: [] });
    await items.bulkWrite([
      { updateOne: { filter: { _id: 1 }, update: { $push: { sorted: { $each: [{ s: 3 }, { s: 1 }], $sort: { s: 1 } } } } as never } },
      { updateOne: { filter: { _id: 1 }, update: { $push: { 'nested.list': { $each: [{ n: 'a' }] } } } as never } },
      { updateOne: { filter: { _id: 1 }, update: { $push: { indexed: { $each: [{ id: 'i1' }, { id: 'i2' }] } } } as never } },
      { updateOne: { filter: { _id: 1 }, update: { $push: { doubles: { $each: [{ whole: new Double(2) }] } } } as never } },
    ]);
    expect(await items.findOne({ _id: 1 })).toEqual({ _id: 1, sorted: [{ s: 1 }, { s: 2 }, { s: 3 }], nested: { list: [{ n: 'a' }] }, indexed: [{ id: 'i1' }, { id: 'i2' }], doubles: [{ whole: 2 }] });
    expect(await items.find({ 'indexed.id': 'i2' }).toArray()).toHaveLength(1);
    expect(statistics('items').lastPlan).toBe('IXSCAN indexed.id_1');
  });

  test('when $addToSet takes $each documents, an upsert pushes them, or a push meets a non-array, then the results are MongoDB’s', async () => {
    const items = fixture.db.collection<Loose>('items');
    await items.insertMany([
      { _id: 1, tags: [{ tag: 'a' }] },
      { _id: 2, list: 'text' },
    ]);
    await items.bulkWrite([
      { updateOne: { filter: { _id: 1 }, update: { $addToSet: { tags: { $each: [{ tag: 'a' }, { tag: 'b' }, { tag: 'b' }] } } } as never } },
      { updateOne: { filter: { _id: 3 }, update: { $push: { list: { $each: [{ x: 1 }, { x: 2 }] } }, $set: { created: true } } as never, upsert: true } },
    ]);
    expect(await items.findOne({ _id: 1 })).toEqual({ _id: 1, tags: [{ tag: 'a' }, { tag: 'b' }] });
    expect(await items.findOne({ _id: 3 })).toEqual({ _id: 3, list: [{ x: 1 }, { x: 2 }], created: true });
    await expect(items.bulkWrite([{ updateOne: { filter: { _id: 2 }, update: { $push: { list: { $each: [{ x: 1 }] } } } as never } }])).rejects.toMatchObject({ code: 2 });
    expect(await items.findOne({ _id: 2 })).toEqual({ _id: 2, list: 'text' });
  });
});

describe('inserts stored as the bytes the client sent', () => {
  test('when documents are inserted as a document sequence or inside the command, then they are stored, typed and indexed alike', async () => {
    const documents = () => [
      { _id: 'a', n: new Double(1), when: new Date(5), list: [1, 'x', { y: null }], email: 'a@x.org' },
      { _id: 2, nested: { deep: [true] }, email: 'b@x.org' },
      { email: 'c@x.org', text: 'no _id: the server adds one' },
    ];
    for (const name of ['sequence', 'embedded']) await fixture.db.collection(name).createIndex({ email: 1 }, { unique: true });
    await fixture.db.collection<Loose>('sequence').insertMany(documents(), { forceServerObjectId: true });
    await fixture.db.command({ insert: 'embedded', documents: documents() });
    const stored = async (name: string) => (await fixture.db.collection<Loose>(name).find({}, { promoteValues: false }).toArray()).map(({ _id, ...rest }) => (typeof _id === 'object' && 'toHexString' in _id ? rest : { _id, ...rest }));
    expect(await stored('sequence')).toEqual(await stored('embedded'));
    for (const name of ['sequence', 'embedded']) {
      expect(await fixture.db.collection<Loose>(name).findOne({ email: 'c@x.org' })).toMatchObject({ text: 'no _id: the server adds one' });
      await expect(fixture.db.collection<Loose>(name).insertOne({ email: 'b@x.org' })).rejects.toMatchObject({ code: 11000 });
    }
  });

  test('when a large batch is followed by more messages on the same connection, then its stored documents keep their bytes', async () => {
    const items = fixture.db.collection<Loose>('items');
    const batch = Array.from({ length: 3000 }, (_unused, index) => ({ _id: index, payload: `${index}:${'p'.repeat(300)}` }));
    await items.insertMany(batch);
    await items.insertMany(Array.from({ length: 3000 }, (_unused, index) => ({ _id: 10_000 + index, payload: 'q'.repeat(300) })));
    await items.updateMany({ _id: { $lt: 100 } }, { $set: { touched: true } });
    await items.insertOne({ _id: 'small', payload: 's' });
    const stored = await items.find({ _id: { $lt: 3000 } }).sort({ _id: 1 }).toArray();
    expect(stored.map(({ _id, payload }) => ({ _id, payload }))).toEqual(batch);
  });
});
