import { Long } from 'bson';
import { compileFilter, filterFields } from './query.matcher';
import { MongoCommandError } from './mongo-command.error';

const matches = (filter: Record<string, unknown>, document: Record<string, unknown>) => compileFilter(filter)(document);

describe('query matcher', () => {
  test('when a comparison meets another type, then type bracketing rejects it', () => {
    expect(matches({ a: { $gt: 5 } }, { a: 'z' })).toBe(false);
    expect(matches({ a: { $lt: 'b' } }, { a: 1 })).toBe(false);
    expect(matches({ a: { $gte: Long.fromNumber(2) } }, { a: 2 })).toBe(true);
  });

  test('when a null equality or $exists meets missing fields and arrays, then MongoDB semantics apply', () => {
    expect(matches({ a: null }, {})).toBe(true);
    expect(matches({ a: null }, { a: [1, null] })).toBe(true);
    expect(matches({ 'a.b': null }, { a: [{ b: 1 }, { c: 1 }] })).toBe(true);
    expect(matches({ 'a.b': { $exists: true } }, { a: [{ c: 1 }] })).toBe(false);
    expect(matches({ a: { $ne: null } }, {})).toBe(false);
  });

  test('when range conditions meet an array, then different elements may satisfy each bound', () => {
    expect(matches({ a: { $gt: 5, $lt: 3 } }, { a: [1, 10] })).toBe(true);
    expect(matches({ a: { $elemMatch: { $gt: 5, $lt: 3 } } }, { a: [1, 10] })).toBe(false);
  });

  test('when $all, $size, $type and $regex are used, then arrays and strings are handled', () => {
    expect(matches({ t: { $all: ['a', 'b'] } }, { t: ['b', 'c', 'a'] })).toBe(true);
    expect(matches({ t: { $size: 2 } }, { t: ['a'] })).toBe(false);
    expect(matches({ n: { $type: 'int' } }, { n: 5 })).toBe(true);
    expect(matches({ n: { $type: 'double' } }, { n: 5.5 })).toBe(true);
    expect(matches({ s: { $regex: 'a # comment\n b', $options: 'x' } }, { s: 'ab' })).toBe(true);
  });

  test('when $in and $nin mix strings, numbers, regexes and null, then each value matches as MongoDB compares it', () => {
    const list = ['k1', 'k2', 2, /^pre/, null];
    expect(matches({ a: { $in: list } }, { a: 'k2' })).toBe(true);
    expect(matches({ a: { $in: list } }, { a: ['x', 'k1'] })).toBe(true);
    expect(matches({ a: { $in: list } }, { a: 'prefix' })).toBe(true);
    expect(matches({ a: { $in: list } }, { a: 2.0 })).toBe(true);
    expect(matches({ a: { $in: list } }, { a: Long.fromNumber(2) })).toBe(true);
    expect(matches({ a: { $in: list } }, { b: 1 })).toBe(true);
    expect(matches({ a: { $in: list } }, { a: 'K1' })).toBe(false);
    expect(matches({ a: { $in: list } }, { a: '2' })).toBe(false);
    expect(matches({ a: { $in: ['1'] } }, { a: 1 })).toBe(false);
    expect(matches({ a: { $nin: list } }, { a: ['x', 'k1'] })).toBe(false);
    expect(matches({ a: { $nin: list } }, { a: 'k3' })).toBe(true);
    expect(matches({ a: { $in: [['k1', 'k2']] } }, { a: ['k1', 'k2'] })).toBe(true);
  });

  test('when an operator is unknown or malformed, then MongoDB errors are thrown', () => {
    expect(() => compileFilter({ a: { $nope: 1 } })).toThrow(new MongoCommandError(2, 'unknown operator: $nope'));
    expect(() => compileFilter({ a: { $in: 5 } })).toThrow('$in needs an array');
    expect(() => compileFilter({ $and: [] })).toThrow('$and must be a nonempty array');
    expect(() => compileFilter({ a: { $regex: 'x', $options: 'q' } })).toThrow('invalid flag in regex options: q');
  });
});

describe('fields a filter reads', () => {
  test('when a filter names dotted paths and logical clauses, then their top-level fields are listed; $expr needs every field', () => {
    expect(filterFields({ 'a.b': 1, $or: [{ c: 2 }, { $and: [{ 'd.0': 3 }] }], $comment: 'x' })).toEqual(new Set(['a', 'c', 'd']));
    expect(filterFields(undefined)).toEqual(new Set());
    expect(filterFields({ a: 1, $expr: { $eq: ['$b', 1] } })).toBeUndefined();
  });
});
