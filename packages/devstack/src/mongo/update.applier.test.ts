import { Long } from 'bson';
import { applyUpdate, updatedFields, upsertSeed } from './update.applier';

describe('update applier', () => {
  test('when an update applies, then the original document is left untouched', () => {
    const original = { _id: 1, nested: { list: [1, 2] } };
    const updated = applyUpdate(original, { $push: { 'nested.list': 3 } });
    expect(updated).toEqual({ _id: 1, nested: { list: [1, 2, 3] } });
    expect(original).toEqual({ _id: 1, nested: { list: [1, 2] } });
  });

  test('when $inc mixes Int64 and numbers or overflows int32, then the result is an Int64 like in MongoDB', () => {
    expect(applyUpdate({ _id: 1, n: Long.fromNumber(1) }, { $inc: { n: 2 } }).n).toEqual(Long.fromNumber(3));
    expect(applyUpdate({ _id: 1, n: 2147483647 }, { $inc: { n: 1 } }).n).toEqual(Long.fromNumber(2147483648));
    expect(applyUpdate({ _id: 1, n: 1.5 }, { $inc: { n: 1 } }).n).toBe(2.5);
  });

  test('when a path crosses a scalar, then PathNotViable is raised', () => {
    expect(() => applyUpdate({ _id: 1, a: 5 }, { $set: { 'a.b': 1 } })).toThrow(expect.objectContaining({ code: 28 }));
  });

  test('when an array filter identifier is unused or missing, then the update is refused', () => {
    expect(() => applyUpdate({ _id: 1, a: [1] }, { $set: { 'a.$[x]': 2 } })).toThrow(expect.objectContaining({ code: 2 }));
    expect(() => applyUpdate({ _id: 1, a: [1] }, { $set: { a: [2] } }, { arrayFilters: [{ x: 1 }] })).toThrow(expect.objectContaining({ code: 9 }));
  });

  test('when $setOnInsert is used outside an upsert insert, then it does nothing', () => {
    expect(applyUpdate({ _id: 1 }, { $setOnInsert: { a: 1 } })).toEqual({ _id: 1 });
    expect(applyUpdate({}, { $setOnInsert: { a: 1 } }, { inserting: true })).toEqual({ a: 1 });
  });

  test('when an upsert seed is built, then equality conditions become fields and operators are skipped', () => {
    expect(upsertSeed({ a: 1, 'b.c': 'x', d: { $gt: 1 }, e: { $eq: 2 }, $and: [{ f: 3 }] })).toEqual({ a: 1, b: { c: 'x' }, e: 2, f: 3 });
  });
});

describe('fields an update touches', () => {
  test('when an operator update names paths, then their top-level fields (both sides of a $rename) are listed; replacements touch everything', () => {
    expect(updatedFields({ $set: { 'a.b': 1, c: 2 }, $push: { 'd.$[x]': 3 }, $rename: { e: 'f.g' } })).toEqual(new Set(['a', 'c', 'd', 'e', 'f']));
    expect(updatedFields({ a: 1 })).toBeUndefined();
    expect(updatedFields([{ $set: { a: 1 } }])).toBeUndefined();
  });
});
