import { Long, MongoBulkWriteError, ObjectId, Timestamp } from 'mongodb';
import { closeFixture, openFixture, type MongoFixture, type Loose } from './mongo.fixture';

let fixture: MongoFixture;

beforeEach(async () => {
  fixture = await openFixture();
});

afterEach(async () => {
  await closeFixture(fixture);
});

describe('update operators', () => {
  test('when $set, $unset, $inc, $mul, $min, $max and $rename apply, then fields change like MongoDB', async () => {
    const collection = fixture.db.collection<Loose>('docs');
    await collection.insertOne({ _id: 1, a: 1, b: { c: 2 }, gone: true, low: 5, high: 5, old: 'x', count: Long.fromNumber(10) });
    const result = await collection.updateOne(
      { _id: 1 },
      {
        $set: { 'b.d': 3, 'new.deep.field': 'y' },
        $unset: { gone: '' },
        $inc: { a: 2, fresh: 1, count: 5 },
        $mul: { 'b.c': 3 },
        $min: { low: 2 },
        $max: { high: 9 },
        $rename: { old: 'renamed' },
      },
    );
    expect(result).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    const stored = await collection.findOne({ _id: 1 }, { promoteLongs: false });
    expect(stored).toEqual({ _id: 1, a: 3, b: { c: 6, d: 3 }, low: 2, high: 9, count: Long.fromNumber(15), new: { deep: { field: 'y' } }, fresh: 1, renamed: 'x' });
  });

  test('when an update changes nothing, then modifiedCount is 0', async () => {
    const collection = fixture.db.collection<Loose>('docs');
    await collection.insertOne({ _id: 1, a: 1 });
    expect(await collection.updateOne({ _id: 1 }, { $set: { a: 1 } })).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    expect(await collection.updateOne({ _id: 2 }, { $set: { a: 1 } })).toMatchObject({ matchedCount: 0, modifiedCount: 0 });
  });

  test('when $currentDate is used, then a date or timestamp is written', async () => {
    const collection = fixture.db.collection<Loose>('docs');
    await collection.insertOne({ _id: 1 });
    // The driver's update typings reject operators on undeclared fields, hence the casts.
    await fixture.db.collection('docs').updateOne({ _id: 1 as never }, { $currentDate: { at: true, ts: { $type: 'timestamp' } } } as never);
    const stored = await collection.findOne({ _id: 1 });
    expect(stored?.at).toBeInstanceOf(Date);
    expect(stored?.ts).toBeInstanceOf(Timestamp);
  });

  test('when array operators apply, then $push with modifiers, $addToSet, $pull, $pullAll and $pop behave like MongoDB', async () => {
    const collection = fixture.db.collection<Loose>('arrays');
    await collection.insertOne({ _id: 1, list: [3, 1], set: ['a'], scores: [5, 8, 2, 9], objects: [{ k: 1 }, { k: 2 }], stack: [1, 2, 3] });
    const untyped = fixture.db.collection('arrays');
    await untyped.updateOne(
      { _id: 1 as never },
      {
        $push: { list: { $each: [7, 0], $position: 1, $slice: 4 } },
        $addToSet: { set: { $each: ['a', 'b', 'b'] } },
        $pull: { scores: { $gte: 8 }, objects: { k: 2 } },
        $pop: { stack: -1 },
      } as never,
    );
    await untyped.updateOne({ _id: 1 as never }, { $push: { fresh: 'x' }, $pullAll: { list: [7] } } as never);
    const stored = await collection.findOne({ _id: 1 });
    expect(stored).toEqual({ _id: 1, list: [3, 0, 1], set: ['a', 'b'], scores: [5, 2], objects: [{ k: 1 }], stack: [2, 3], fresh: ['x'] });
  });

  test('when positional $, $[] and $[identifier] with arrayFilters are used, then the right elements change', async () => {
    const collection = fixture.db.collection<Loose>('positional');
    await collection.insertOne({ _id: 1, grades: [80, 95, 70], items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 5 }, { sku: 'c', qty: 9 }] });
    await collection.updateOne({ _id: 1, 'items.sku': 'b' }, { $set: { 'items.$.qty': 50 } });
    await collection.updateOne({ _id: 1 }, { $inc: { 'grades.$[]': 1 } });
    await collection.updateOne({ _id: 1 }, { $set: { 'items.$[big].flag': true } }, { arrayFilters: [{ 'big.qty': { $gt: 8 } }] });
    const stored = await collection.findOne({ _id: 1 });
    expect(stored).toEqual({
      _id: 1,
      grades: [81, 96, 71],
      items: [{ sku: 'a', qty: 1 }, { sku: 'b', qty: 50, flag: true }, { sku: 'c', qty: 9, flag: true }],
    });
  });

  test('when updateMany matches several documents, then all are updated', async () => {
    const collection = fixture.db.collection<Loose>('many');
    await collection.insertMany([{ g: 1 }, { g: 1 }, { g: 2 }]);
    expect(await collection.updateMany({ g: 1 }, { $set: { seen: true } })).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    expect(await collection.countDocuments({ seen: true })).toBe(2);
  });

  test('when a replacement document is given, then the document is replaced and keeps its _id', async () => {
    const collection = fixture.db.collection<Loose>('replace');
    await collection.insertOne({ _id: 1, a: 1, b: 2 });
    await collection.replaceOne({ _id: 1 }, { c: 3 });
    expect(await collection.findOne({ _id: 1 })).toEqual({ _id: 1, c: 3 });
  });

  test('when a pipeline update is given, then its stages compute the new document', async () => {
    const collection = fixture.db.collection<Loose>('pipeline');
    await collection.insertOne({ _id: 1, a: 2, b: 3 });
    await collection.updateOne({ _id: 1 }, [{ $set: { sum: { $add: ['$a', '$b'] } } }, { $unset: 'b' }]);
    expect(await collection.findOne({ _id: 1 })).toEqual({ _id: 1, a: 2, sum: 5 });
  });
});

describe('upserts', () => {
  test('when an upsert matches nothing, then a document is built from the filter, $set and $setOnInsert', async () => {
    const collection = fixture.db.collection<Loose>('upsert');
    const result = await collection.updateOne({ key: 'k1', 'meta.kind': 'x' }, { $set: { v: 1 }, $setOnInsert: { created: 'now' } }, { upsert: true });
    expect(result.upsertedCount).toBe(1);
    expect(result.upsertedId).toBeInstanceOf(ObjectId);
    const stored = await collection.findOne({ key: 'k1' }, { projection: { _id: 0 } });
    expect(stored).toEqual({ key: 'k1', meta: { kind: 'x' }, v: 1, created: 'now' });

    const second = await collection.updateOne({ key: 'k1' }, { $set: { v: 2 }, $setOnInsert: { created: 'later' } }, { upsert: true });
    expect(second).toMatchObject({ matchedCount: 1, modifiedCount: 1, upsertedCount: 0 });
    expect((await collection.findOne({ key: 'k1' }))?.created).toBe('now');
  });

  test('when an upsert filter fixes _id, then the new document uses it', async () => {
    const collection = fixture.db.collection<Loose>('upsert');
    const result = await collection.replaceOne({ _id: 'fixed' }, { v: 1 }, { upsert: true });
    expect(result.upsertedId).toBe('fixed');
    expect(await collection.findOne({ _id: 'fixed' })).toEqual({ _id: 'fixed', v: 1 });
  });
});

describe('update errors', () => {
  test('when an update would change _id, then MongoDB error 66 ImmutableField is returned', async () => {
    const collection = fixture.db.collection<Loose>('immutable');
    await collection.insertOne({ _id: 1, a: 1 });
    await expect(collection.updateOne({ _id: 1 }, { $set: { _id: 2 } })).rejects.toMatchObject({ code: 66, errmsg: "Performing an update on the path '_id' would modify the immutable field '_id'" });
    await expect(collection.replaceOne({ _id: 1 }, { _id: 3, a: 2 })).rejects.toMatchObject({ code: 66 });
    expect(await collection.findOne({ _id: 1 })).toEqual({ _id: 1, a: 1 });
  });

  test('when an unknown update operator is used, then the server answers FailedToParse', async () => {
    const collection = fixture.db.collection<Loose>('unknown');
    await collection.insertOne({ _id: 1 });
    await expect(collection.updateOne({ _id: 1 }, { $frob: { a: 1 } } as never)).rejects.toMatchObject({
      code: 9,
      errmsg: expect.stringContaining('Unknown modifier: $frob'),
    });
  });

  test('when $inc targets a string or operators conflict, then the update fails without changes', async () => {
    const collection = fixture.db.collection<Loose>('types');
    await collection.insertOne({ _id: 1, s: 'text' });
    await expect(collection.updateOne({ _id: 1 }, { $inc: { s: 1 } })).rejects.toMatchObject({ code: 14 });
    await expect(collection.updateOne({ _id: 1 }, { $set: { a: 1 }, $inc: { a: 1 } })).rejects.toMatchObject({ code: 40 });
    expect(await collection.findOne({ _id: 1 })).toEqual({ _id: 1, s: 'text' });
  });

  test('when a bulk update fails midway unordered, then the other statements still apply and writeErrors name the index', async () => {
    const collection = fixture.db.collection<Loose>('bulk');
    await collection.insertMany([{ _id: 1, n: 1 }, { _id: 2, n: 'x' }, { _id: 3, n: 3 }]);
    const error = (await collection
      .bulkWrite(
        [
          { updateOne: { filter: { _id: 1 }, update: { $inc: { n: 1 } } } },
          { updateOne: { filter: { _id: 2 }, update: { $inc: { n: 1 } } } },
          { updateOne: { filter: { _id: 3 }, update: { $inc: { n: 1 } } } },
        ],
        { ordered: false },
      )
      .catch((caught: unknown) => caught)) as MongoBulkWriteError;
    expect(error).toBeInstanceOf(MongoBulkWriteError);
    expect(error.writeErrors).toMatchObject([{ index: 1, code: 14 }]);
    expect((await collection.find().toArray()).map((document) => document.n)).toEqual([2, 'x', 4]);
  });
});

describe('findAndModify and delete', () => {
  test('when findOneAndUpdate, findOneAndReplace and findOneAndDelete run, then before/after images and sort apply', async () => {
    const collection = fixture.db.collection<Loose>('fam');
    await collection.insertMany([{ _id: 1, p: 3, s: 'a' }, { _id: 2, p: 9, s: 'a' }, { _id: 3, p: 5, s: 'b' }]);
    const before = await collection.findOneAndUpdate({ s: 'a' }, { $set: { taken: true } }, { sort: { p: -1 } });
    expect(before).toEqual({ _id: 2, p: 9, s: 'a' });
    const after = await collection.findOneAndUpdate({ s: 'a', taken: { $exists: false } }, { $set: { taken: true } }, { returnDocument: 'after', projection: { taken: 1 } });
    expect(after).toEqual({ _id: 1, taken: true });
    const replaced = await collection.findOneAndReplace({ _id: 3 }, { s: 'c' }, { returnDocument: 'after' });
    expect(replaced).toEqual({ _id: 3, s: 'c' });
    const upserted = await collection.findOneAndUpdate({ _id: 4 }, { $set: { s: 'd' } }, { upsert: true, returnDocument: 'after', includeResultMetadata: true });
    expect(upserted.value).toEqual({ _id: 4, s: 'd' });
    expect(upserted.lastErrorObject).toMatchObject({ n: 1, updatedExisting: false, upserted: 4 });
    const none = await collection.findOneAndUpdate({ _id: 99 }, { $set: { s: 'z' } });
    expect(none).toBeNull();
    const deleted = await collection.findOneAndDelete({ s: 'c' });
    expect(deleted).toEqual({ _id: 3, s: 'c' });
    expect(await collection.countDocuments()).toBe(3);
  });

  test('when deleteOne and deleteMany run, then limit 1 and limit 0 remove one or all matches', async () => {
    const collection = fixture.db.collection<Loose>('del');
    await collection.insertMany([{ g: 1 }, { g: 1 }, { g: 1 }, { g: 2 }]);
    expect((await collection.deleteOne({ g: 1 })).deletedCount).toBe(1);
    expect((await collection.deleteMany({ g: 1 })).deletedCount).toBe(2);
    expect((await collection.deleteMany({ g: 9 })).deletedCount).toBe(0);
    expect(await collection.countDocuments()).toBe(1);
  });

  test('when count and distinct run, then they use the filter, skip and limit', async () => {
    const collection = fixture.db.collection<Loose>('cd');
    await collection.insertMany([{ c: 'x', t: [1, 2] }, { c: 'y', t: [2, 3] }, { c: 'x' }, { c: 'z' }]);
    expect(await collection.distinct('c')).toEqual(['x', 'y', 'z']);
    expect(await collection.distinct('t')).toEqual([1, 2, 3]);
    expect(await collection.distinct('c', { t: 2 })).toEqual(['x', 'y']);
    expect(await collection.countDocuments({ c: 'x' })).toBe(2);
    expect(await collection.countDocuments({}, { skip: 1, limit: 2 })).toBe(2);
    expect((await fixture.db.command({ count: 'cd', query: { c: { $ne: 'x' } } })).n).toBe(2);
    expect(await collection.estimatedDocumentCount()).toBe(4);
  });
});
