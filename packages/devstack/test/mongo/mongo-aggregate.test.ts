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
