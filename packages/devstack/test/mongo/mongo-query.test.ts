import { type Binary, Decimal128, Long, ObjectId, UUID } from 'mongodb';
import { closeFixture, openFixture, type MongoFixture, type Loose } from './mongo.fixture';

let fixture: MongoFixture;

beforeEach(async () => {
  fixture = await openFixture();
});

afterEach(async () => {
  await closeFixture(fixture);
});

async function seed() {
  const collection = fixture.db.collection<Loose>('items');
  await collection.insertMany([
    { _id: 1, name: 'apple', qty: 5, tags: ['red', 'fruit'], price: { amount: 1.5, currency: 'EUR' }, sizes: [{ s: 'M', n: 2 }, { s: 'L', n: 0 }] },
    { _id: 2, name: 'banana', qty: 20, tags: ['yellow', 'fruit'], price: { amount: 0.5, currency: 'EUR' }, sizes: [{ s: 'S', n: 5 }] },
    { _id: 3, name: 'carrot', qty: 0, tags: ['orange', 'vegetable'], price: { amount: 0.2, currency: 'GBP' } },
    { _id: 4, name: 'Durian', qty: null, tags: [] },
    { _id: 5, name: 'eggplant', tags: ['purple', 'vegetable'], sizes: [] },
  ]);
  return collection;
}

async function ids(cursorIds: Promise<{ _id: unknown }[]>) {
  return (await cursorIds).map((document) => document._id);
}

describe('query operators', () => {
  test('when comparison operators filter, then type bracketing and null semantics match MongoDB', async () => {
    const items = await seed();
    expect(await ids(items.find({ qty: { $gt: 4 } }).toArray())).toEqual([1, 2]);
    expect(await ids(items.find({ qty: { $gte: 0, $lt: 6 } }).toArray())).toEqual([1, 3]);
    expect(await ids(items.find({ qty: { $lte: 5 } }).toArray())).toEqual([1, 3]);
    expect(await ids(items.find({ qty: null }).toArray())).toEqual([4, 5]);
    expect(await ids(items.find({ qty: { $ne: null } }).toArray())).toEqual([1, 2, 3]);
    expect(await ids(items.find({ qty: { $ne: 5 } }).toArray())).toEqual([2, 3, 4, 5]);
    expect(await ids(items.find({ name: { $gt: 'b' } }).toArray())).toEqual([2, 3, 5]);
  });

  test('when $in, $nin, $exists, $type and $size are used, then arrays and missing fields behave like MongoDB', async () => {
    const items = await seed();
    expect(await ids(items.find({ tags: { $in: ['red', 'orange'] } }).toArray())).toEqual([1, 3]);
    expect(await ids(items.find({ tags: { $nin: ['fruit'] } }).toArray())).toEqual([3, 4, 5]);
    expect(await ids(items.find({ qty: { $exists: false } }).toArray())).toEqual([5]);
    expect(await ids(items.find({ qty: { $exists: true } }).toArray())).toEqual([1, 2, 3, 4]);
    expect(await ids(items.find({ qty: { $type: 'null' } }).toArray())).toEqual([4]);
    expect(await ids(items.find({ 'price.amount': { $type: 'double' } }).toArray())).toEqual([1, 2, 3]);
    expect(await ids(items.find({ tags: { $size: 0 } }).toArray())).toEqual([4]);
    expect(await ids(items.find({ tags: { $all: ['fruit', 'red'] } }).toArray())).toEqual([1]);
  });

  test('when dotted paths reach into sub-documents and arrays, then every element is considered', async () => {
    const items = await seed();
    expect(await ids(items.find({ 'price.currency': 'EUR' }).toArray())).toEqual([1, 2]);
    expect(await ids(items.find({ tags: 'fruit' }).toArray())).toEqual([1, 2]);
    expect(await ids(items.find({ 'sizes.s': 'L' }).toArray())).toEqual([1]);
    expect(await ids(items.find({ 'sizes.0.s': 'S' }).toArray())).toEqual([2]);
    expect(await ids(items.find({ 'tags.1': 'vegetable' }).toArray())).toEqual([3, 5]);
    expect(await ids(items.find({ tags: ['red', 'fruit'] }).toArray())).toEqual([1]);
    expect(await ids(items.find({ price: { amount: 0.2, currency: 'GBP' } }).toArray())).toEqual([3]);
  });

  test('when $elemMatch is used, then one element must satisfy every condition', async () => {
    const items = await seed();
    expect(await ids(items.find({ sizes: { $elemMatch: { s: 'M', n: { $gt: 1 } } } }).toArray())).toEqual([1]);
    expect(await ids(items.find({ sizes: { $elemMatch: { s: 'L', n: { $gt: 1 } } } }).toArray())).toEqual([]);
    expect(await ids(items.find({ 'sizes.s': 'L', 'sizes.n': { $gt: 1 } }).toArray())).toEqual([1]);
  });

  test('when $regex, $not, $and, $or, $nor and $expr are used, then they combine like MongoDB', async () => {
    const items = await seed();
    expect(await ids(items.find({ name: { $regex: '^d', $options: 'i' } }).toArray())).toEqual([4]);
    expect(await ids(items.find({ name: /an/ }).toArray())).toEqual([2, 4, 5]);
    expect(await ids(items.find({ name: { $not: /an/ } }).toArray())).toEqual([1, 3]);
    expect(await ids(items.find({ $or: [{ qty: 0 }, { name: 'apple' }] }).toArray())).toEqual([1, 3]);
    expect(await ids(items.find({ $and: [{ tags: 'fruit' }, { qty: { $gt: 10 } }] }).toArray())).toEqual([2]);
    expect(await ids(items.find({ $nor: [{ tags: 'fruit' }, { qty: null }] }).toArray())).toEqual([3]);
    expect(await ids(items.find({ $expr: { $gt: ['$qty', 4] } }).toArray())).toEqual([1, 2]);
    expect(await ids(items.find({ qty: { $mod: [5, 0] } }).toArray())).toEqual([1, 2, 3]);
  });

  test('when an unknown operator is used, then the server answers BadValue like mongod', async () => {
    const items = await seed();
    await expect(items.find({ qty: { $foo: 1 } }).toArray()).rejects.toMatchObject({ code: 2, codeName: 'BadValue', errmsg: 'unknown operator: $foo' });
    await expect(items.find({ $bar: 1 }).toArray()).rejects.toMatchObject({ code: 2, errmsg: expect.stringContaining('unknown top level operator: $bar') });
    await expect(items.find({ $or: [] }).toArray()).rejects.toMatchObject({ code: 2 });
  });
});

describe('sort, skip, limit and projection', () => {
  test('when sorting, then arrays use their extreme element and missing sorts first', async () => {
    const items = await seed();
    expect(await ids(items.find().sort({ qty: 1, _id: 1 }).toArray())).toEqual([4, 5, 3, 1, 2]);
    expect(await ids(items.find().sort({ qty: -1 }).toArray())).toEqual([2, 1, 3, 4, 5]);
    expect(await ids(items.find().sort({ tags: 1, _id: 1 }).toArray())).toEqual([4, 1, 2, 3, 5]);
    expect(await ids(items.find().sort({ name: 1 }).skip(1).limit(2).toArray())).toEqual([1, 2]);
  });

  test('when projecting, then inclusion, exclusion, dotted paths, $slice and $elemMatch shape documents', async () => {
    const items = await seed();
    expect(await items.findOne({ _id: 1 }, { projection: { name: 1 } })).toEqual({ _id: 1, name: 'apple' });
    expect(await items.findOne({ _id: 1 }, { projection: { name: 1, _id: 0 } })).toEqual({ name: 'apple' });
    expect(await items.findOne({ _id: 3 }, { projection: { tags: 0, price: 0 } })).toEqual({ _id: 3, name: 'carrot', qty: 0 });
    expect(await items.findOne({ _id: 1 }, { projection: { 'price.currency': 1, 'sizes.s': 1 } })).toEqual({
      _id: 1,
      price: { currency: 'EUR' },
      sizes: [{ s: 'M' }, { s: 'L' }],
    });
    expect(await items.findOne({ _id: 1 }, { projection: { tags: { $slice: 1 }, name: 1 } })).toEqual({ _id: 1, name: 'apple', tags: ['red'] });
    expect(await items.findOne({ _id: 1 }, { projection: { sizes: { $elemMatch: { s: 'L' } } } })).toEqual({ _id: 1, sizes: [{ s: 'L', n: 0 }] });
    expect(await items.findOne({ _id: 1 }, { projection: { label: { $toUpper: '$name' } } })).toEqual({ _id: 1, label: 'APPLE' });
    await expect(items.findOne({ _id: 1 }, { projection: { name: 1, qty: 0 } })).rejects.toMatchObject({ code: 31254 });
    await expect(items.findOne({ 'sizes.s': 'L' }, { projection: { 'sizes.$': 1 } })).rejects.toMatchObject({ code: 2 });
  });
});

describe('cursors', () => {
  test('when 1,050 documents are read with batchSize 100, then getMore pages through all of them in order', async () => {
    const collection = fixture.db.collection<Loose>('many');
    await collection.insertMany(Array.from({ length: 1050 }, (_unused, index) => ({ _id: index, v: index })));
    const seen: number[] = [];
    const cursor = collection.find({}, { batchSize: 100 }).sort({ _id: 1 });
    for await (const document of cursor) seen.push(document._id as unknown as number);
    expect(seen).toEqual(Array.from({ length: 1050 }, (_unused, index) => index));

    const raw = await fixture.db.command({ find: 'many', batchSize: 100 });
    expect(raw.cursor.firstBatch).toHaveLength(100);
    expect(raw.cursor.id).toBeInstanceOf(Long);
    const more = await fixture.db.command({ getMore: raw.cursor.id, collection: 'many', batchSize: 100 });
    expect(more.cursor.nextBatch).toHaveLength(100);
    expect(more.cursor.nextBatch[0]._id).toBe(100);
  });

  test('when a cursor is killed, then getMore reports CursorNotFound', async () => {
    const collection = fixture.db.collection<Loose>('many');
    await collection.insertMany(Array.from({ length: 300 }, (_unused, index) => ({ _id: index })));
    const raw = await fixture.db.command({ find: 'many', batchSize: 10 });
    const killed = await fixture.db.command({ killCursors: 'many', cursors: [raw.cursor.id] });
    expect(killed.cursorsKilled).toHaveLength(1);
    await expect(fixture.db.command({ getMore: raw.cursor.id, collection: 'many' })).rejects.toMatchObject({ code: 43, codeName: 'CursorNotFound' });
  });

  test('when findOne or limit with singleBatch is used, then no cursor stays open', async () => {
    const collection = fixture.db.collection<Loose>('many');
    await collection.insertMany(Array.from({ length: 300 }, (_unused, index) => ({ _id: index })));
    const raw = await fixture.db.command({ find: 'many', limit: 5, singleBatch: true });
    expect(Number(raw.cursor.id)).toBe(0);
    expect(raw.cursor.firstBatch).toHaveLength(5);
  });
});

describe('BSON types', () => {
  test('when Int64, Decimal128, ObjectId, Date and UUID values are stored, then they round-trip and compare in MongoDB order', async () => {
    const collection = fixture.db.collection<Loose>('types');
    const objectId = new ObjectId();
    const uuid = new UUID();
    const when = new Date('2024-05-01T10:00:00Z');
    await collection.insertOne({ _id: 'x', long: Long.fromString('9007199254740993'), small: Long.fromNumber(7), decimal: Decimal128.fromString('1.10'), oid: objectId, when, uuid });
    const stored = await fixture.client.db('test').collection<Loose>('types').findOne({ _id: 'x' }, { promoteLongs: false });
    expect(stored?.long).toEqual(Long.fromString('9007199254740993'));
    expect((stored?.decimal as Decimal128).toString()).toBe('1.10');
    expect((stored?.oid as ObjectId).equals(objectId)).toBe(true);
    expect(stored?.when).toEqual(when);
    expect((stored?.uuid as Binary).sub_type).toBe(4);
    expect(((stored?.uuid as Binary).toUUID()).equals(uuid)).toBe(true);

    expect(await collection.countDocuments({ small: 7 })).toBe(1);
    expect(await collection.countDocuments({ long: { $gt: Long.fromString('9007199254740992') } })).toBe(1);
    expect(await collection.countDocuments({ long: { $gt: 9007199254740994 } })).toBe(0);
    expect(await collection.countDocuments({ oid: objectId })).toBe(1);
    expect(await collection.countDocuments({ uuid })).toBe(1);
    expect(await collection.countDocuments({ uuid: new UUID() })).toBe(0);
    expect(await collection.countDocuments({ when: { $gte: new Date('2024-01-01') } })).toBe(1);
    expect(await collection.countDocuments({ decimal: { $gt: 1.09, $lt: 1.11 } })).toBe(1);
  });

  test('when values of different types are sorted, then the BSON type order applies', async () => {
    const collection = fixture.db.collection<Loose>('mixed');
    await collection.insertMany([
      { _id: 1, v: true },
      { _id: 2, v: 'text' },
      { _id: 3, v: 10 },
      { _id: 4, v: null },
      { _id: 5, v: new ObjectId('000000000000000000000001') },
      { _id: 6, v: new Date(0) },
      { _id: 7, v: { a: 1 } },
    ]);
    expect(await ids(collection.find().sort({ v: 1 }).toArray())).toEqual([4, 3, 2, 7, 5, 1, 6]);
  });

  test('when _id is missing, then an ObjectId is generated', async () => {
    const collection = fixture.db.collection<Loose>('generated');
    await collection.insertOne({ a: 1 }, { forceServerObjectId: true });
    const stored = await collection.findOne({ a: 1 });
    expect(stored?._id).toBeInstanceOf(ObjectId);
  });
});
