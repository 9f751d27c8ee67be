import { closeFixture, openFixture, type MongoFixture, type Loose } from './mongo.fixture';

let fixture: MongoFixture;

beforeEach(async () => {
  fixture = await openFixture();
  await fixture.db.collection<Loose>('orders').insertMany([
    { _id: 1, customer: 'ann', total: 10, items: ['a', 'b'], status: 'paid' },
    { _id: 2, customer: 'bob', total: 25, items: ['a'], status: 'paid' },
    { _id: 3, customer: 'ann', total: 5, items: [], status: 'open' },
    { _id: 4, customer: 'cy', total: 40, items: ['c', 'a'], status: 'paid' },
  ]);
  await fixture.db.collection<Loose>('customers').insertMany([
    { _id: 'ann', city: 'Oslo' },
    { _id: 'bob', city: 'Rome' },
  ]);
});

afterEach(async () => {
  await closeFixture(fixture);
});

describe('aggregate', () => {
  test('when $match, $group with accumulators and $sort run, then grouped totals come back', async () => {
    const result = await fixture.db
      .collection<Loose>('orders')
      .aggregate([
        { $match: { status: 'paid' } },
        { $group: { _id: '$customer', sum: { $sum: '$total' }, count: { $sum: 1 }, avg: { $avg: '$total' }, max: { $max: '$total' }, min: { $min: '$total' }, first: { $first: '$_id' }, all: { $push: '$_id' }, set: { $addToSet: '$status' } } },
        { $sort: { sum: -1 } },
      ])
      .toArray();
    expect(result).toEqual([
      { _id: 'cy', sum: 40, count: 1, avg: 40, max: 40, min: 40, first: 4, all: [4], set: ['paid'] },
      { _id: 'bob', sum: 25, count: 1, avg: 25, max: 25, min: 25, first: 2, all: [2], set: ['paid'] },
      { _id: 'ann', sum: 10, count: 1, avg: 10, max: 10, min: 10, first: 1, all: [1], set: ['paid'] },
    ]);
  });

  test('when $unwind, $project, $addFields, $set, $skip, $limit and $count run, then documents are reshaped', async () => {
    const orders = fixture.db.collection<Loose>('orders');
    const unwound = await orders.aggregate([{ $unwind: '$items' }, { $project: { _id: 0, item: '$items', order: '$_id' } }, { $sort: { item: 1, order: 1 } }, { $skip: 1 }, { $limit: 3 }]).toArray();
    expect(unwound).toEqual([{ item: 'a', order: 2 }, { item: 'a', order: 4 }, { item: 'b', order: 1 }]);
    const added = await orders.aggregate([{ $match: { _id: 2 } }, { $addFields: { double: { $multiply: ['$total', 2] } } }, { $set: { flag: true } }, { $project: { double: 1, flag: 1 } }]).toArray();
    expect(added).toEqual([{ _id: 2, double: 50, flag: true }]);
    expect(await orders.aggregate([{ $match: { total: { $gt: 8 } } }, { $count: 'n' }]).toArray()).toEqual([{ n: 3 }]);
    expect(await orders.aggregate([{ $match: { total: { $gt: 800 } } }, { $count: 'n' }]).toArray()).toEqual([]);
  });

  test('when $replaceRoot and $lookup run, then documents from another collection are joined', async () => {
    const joined = await fixture.db
      .collection<Loose>('orders')
      .aggregate([{ $match: { _id: { $in: [1, 2] } } }, { $lookup: { from: 'customers', localField: 'customer', foreignField: '_id', as: 'who' } }, { $replaceRoot: { newRoot: { order: '$_id', city: { $arrayElemAt: ['$who.city', 0] } } } }, { $sort: { order: 1 } }])
      .toArray();
    expect(joined).toEqual([{ order: 1, city: 'Oslo' }, { order: 2, city: 'Rome' }]);
  });

  test('when countDocuments is used, then the driver aggregate ($match, $group) returns the count', async () => {
    expect(await fixture.db.collection<Loose>('orders').countDocuments({ customer: 'ann' })).toBe(2);
    expect(await fixture.db.collection<Loose>('missing').countDocuments({})).toBe(0);
  });

  test('when later stages read only some fields of an indexed match, then counts, groups, projections, distinct and $$ROOT answer as with whole documents', async () => {
    const orders = fixture.db.collection<Loose>('orders');
    await orders.createIndex({ status: 1 });
    await orders.insertOne({ _id: 5, customer: 'dee', total: 7, items: ['d'], status: 'paid', note: { text: 'gift', lines: [1, 2] } });
    expect(await orders.countDocuments({ status: 'paid' })).toBe(4);
    expect(await orders.countDocuments({ status: 'paid', total: { $gt: 9 } })).toBe(3);
    expect(await orders.countDocuments({ status: 'paid' }, { skip: 1, limit: 2 })).toBe(2);
    expect((await fixture.db.command({ count: 'orders', query: { status: 'open' } })).n).toBe(1);
    expect(await orders.aggregate([{ $match: { status: 'paid' } }, { $group: { _id: '$customer', total: { $sum: '$total' } } }, { $sort: { _id: 1 } }]).toArray()).toEqual([
      { _id: 'ann', total: 10 },
      { _id: 'bob', total: 25 },
      { _id: 'cy', total: 40 },
      { _id: 'dee', total: 7 },
    ]);
    expect(await orders.aggregate([{ $match: { status: 'paid' } }, { $unwind: '$items' }, { $sortByCount: '$items' }, { $sort: { count: -1, _id: 1 } }]).toArray()).toEqual([
      { _id: 'a', count: 3 },
      { _id: 'b', count: 1 },
      { _id: 'c', count: 1 },
      { _id: 'd', count: 1 },
    ]);
    expect(await orders.aggregate([{ $match: { _id: 5 } }, { $project: { 'note.text': 1, customer: 1 } }]).toArray()).toEqual([{ _id: 5, customer: 'dee', note: { text: 'gift' } }]);
    expect(await orders.aggregate([{ $match: { _id: 5 } }, { $group: { _id: null, all: { $push: '$$ROOT' } } }]).toArray()).toEqual([
      { _id: null, all: [{ _id: 5, customer: 'dee', total: 7, items: ['d'], status: 'paid', note: { text: 'gift', lines: [1, 2] } }] },
    ]);
    expect(await orders.aggregate([{ $match: { _id: { $gt: 3 } } }, { $project: { customer: 0 } }, { $sort: { _id: 1 } }]).toArray()).toEqual([
      { _id: 4, total: 40, items: ['c', 'a'], status: 'paid' },
      { _id: 5, total: 7, items: ['d'], status: 'paid', note: { text: 'gift', lines: [1, 2] } },
    ]);
    expect((await orders.distinct('note.text', { status: 'paid' })).sort()).toEqual(['gift']);
    expect((await orders.distinct('customer', { status: 'paid' })).sort()).toEqual(['ann', 'bob', 'cy', 'dee']);
  });

  test('when an aggregate result spans batches, then the cursor pages with getMore', async () => {
    const many = fixture.db.collection<Loose>('many');
    await many.insertMany(Array.from({ length: 250 }, (_unused, index) => ({ v: index })));
    const result = await many.aggregate([{ $sort: { v: -1 } }], { batchSize: 50 }).toArray();
    expect(result).toHaveLength(250);
    expect(result[0].v).toBe(249);
  });

  test('when an unknown stage or expression is used, then MongoDB errors are returned', async () => {
    const orders = fixture.db.collection<Loose>('orders');
    await expect(orders.aggregate([{ $frob: {} }]).toArray()).rejects.toMatchObject({ code: 40324, errmsg: "Unrecognized pipeline stage name: '$frob'" });
    await expect(orders.aggregate([{ $group: { _id: null, x: { $frob: 1 } } }]).toArray()).rejects.toMatchObject({ code: 168 });
    await expect(orders.aggregate([{ $match: { a: { $frob: 1 } } }]).toArray()).rejects.toMatchObject({ code: 2, errmsg: 'unknown operator: $frob' });
  });
});
