import { BSONRegExp, Long, ObjectId, serialize } from 'bson';
import { canonicalKey } from './bson-value.order';
import { leadingIdKey, readTopLevelFields } from './bson-field.reader';

describe('reading top-level fields from raw BSON', () => {
  test('when fields of many types precede and follow the wanted ones, then only the wanted fields are decoded', () => {
    const id = new ObjectId();
    const raw = serialize({
      skipped: { deep: [1, 2, { x: 'y' }] },
      regex: new BSONRegExp('a+', 'i'),
      _id: id,
      long: Long.fromString('123456789012345'),
      email: 'ann@example.org',
      created: new Date(1700000000000),
      list: ['a', 'b'],
      tail: 3.5,
    });
    const fields = readTopLevelFields(raw, new Set(['_id', 'email', 'created', 'list', 'long', 'missing']));
    expect(fields).toEqual({ _id: id, email: 'ann@example.org', created: new Date(1700000000000), list: ['a', 'b'], long: Long.fromString('123456789012345') });
  });

  test('when the bytes are not a well-formed document, then an error is thrown instead of reading past the end', () => {
    const raw = Buffer.from(serialize({ a: 'text' }));
    expect(() => readTopLevelFields(raw.subarray(0, raw.length - 2), new Set(['a']))).toThrow();
    const corrupted = Buffer.from(raw);
    corrupted.writeInt32LE(1000, 7);
    expect(() => readTopLevelFields(corrupted, new Set(['zzz']))).toThrow();
  });
});

describe('reading the leading _id key', () => {
  test('when _id leads as an ObjectId or string, then its canonical key is read from the bytes; otherwise undefined', () => {
    const id = new ObjectId();
    expect(leadingIdKey(serialize({ _id: id, a: 1 }))).toBe(canonicalKey(id));
    expect(leadingIdKey(serialize({ _id: 'ref-1', a: 1 }))).toBe(canonicalKey('ref-1'));
    expect(leadingIdKey(serialize({ a: 1, _id: 'late' }))).toBeUndefined();
    expect(leadingIdKey(serialize({ _id: 5 }))).toBeUndefined();
  });
});
