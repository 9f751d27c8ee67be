import { Binary, Decimal128, Double, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { canonicalKey, compareValues, valuesEqual } from './bson-value.order';

describe('BSON comparison order', () => {
  test('when values of different types are compared, then MongoDB type order applies', () => {
    const ordered = [new MinKey(), null, 1, 'a', { a: 1 }, [1], new Binary(Buffer.from('x')), new ObjectId('000000000000000000000001'), false, new Date(0), new Timestamp({ t: 1, i: 1 }), /a/, new MaxKey()];
    for (let index = 1; index < ordered.length; index += 1) {
      expect(compareValues(ordered[index - 1], ordered[index])).toBeLessThan(0);
      expect(compareValues(ordered[index], ordered[index - 1])).toBeGreaterThan(0);
    }
  });

  test('when numbers of different BSON types are compared, then they compare by value', () => {
    expect(valuesEqual(Long.fromNumber(5), 5)).toBe(true);
    expect(valuesEqual(new Double(5), 5)).toBe(true);
    expect(valuesEqual(Decimal128.fromString('5'), 5)).toBe(true);
    expect(compareValues(Long.fromString('9007199254740993'), 9007199254740992)).toBeGreaterThan(0);
    expect(compareValues(Long.fromNumber(-1), 0.5)).toBeLessThan(0);
    expect(compareValues(Number.NaN, -Infinity)).toBeLessThan(0);
  });

  test('when ObjectIds and binaries are compared, then their bytes decide', () => {
    expect(compareValues(new ObjectId('000000000000000000000002'), new ObjectId('000000000000000000000010'))).toBeLessThan(0);
    expect(compareValues(new Binary(Buffer.from([1, 2])), new Binary(Buffer.from([1, 3])))).toBeLessThan(0);
    expect(compareValues(new Binary(Buffer.from([9])), new Binary(Buffer.from([1, 1])))).toBeLessThan(0);
  });

  test('when documents are compared, then field order matters as in MongoDB', () => {
    expect(valuesEqual({ a: 1, b: 2 }, { a: 1, b: 2 })).toBe(true);
    expect(valuesEqual({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(compareValues([1, 2], [1, 2, 0])).toBeLessThan(0);
  });

  test('when canonical keys are built, then equal values share a key and different ones do not', () => {
    expect(canonicalKey(1)).toBe(canonicalKey(Long.fromNumber(1)));
    expect(canonicalKey(1)).toBe(canonicalKey(new Double(1)));
    expect(canonicalKey(1)).not.toBe(canonicalKey('1'));
    expect(canonicalKey(null)).toBe(canonicalKey(undefined));
    expect(canonicalKey(new Binary(Buffer.from([0xff]), 4))).not.toBe(canonicalKey(new Binary(Buffer.from([0xfe]), 4)));
    expect(canonicalKey({ a: [1, 'x'] })).toBe(canonicalKey({ a: [Long.fromNumber(1), 'x'] }));
  });
});
