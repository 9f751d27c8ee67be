import { deserialize, Long, serialize } from 'bson';
import { DESERIALIZE_OPTIONS } from './bson.options';
import { decodeUndecoded, holdsUndecoded, mayHoldUndecoded, STATEMENT_DESERIALIZE_OPTIONS, undecodedOnlyIn } from './update-statement.elements';

const statement = {
  q: { _id: 'r1', version: 3 },
  u: {
    $set: { version: 4 },
    $push: { enhancements: { $each: [{ id: 'e1', content: { abstract: 'text', count: Long.fromNumber(7) } }, 'plain', [{ nested: true }]] }, _outbox: { $each: [{ event_id: 'v1' }] } },
    $addToSet: { tags: { $each: [{ tag: 'a' }] } },
  },
};

describe('update statements decoded with their $each elements left as bytes', () => {
  const raw = serialize(statement);
  const received = deserialize(raw, STATEMENT_DESERIALIZE_OPTIONS);

  test('when a statement is decoded for the splice path, then sub-documents inside $each stay bytes and everything else is decoded', () => {
    const each = received.u.$push.enhancements.$each;
    expect(Buffer.isBuffer(each[0])).toBe(true);
    expect(each[1]).toBe('plain');
    expect(Array.isArray(each[2]) && Buffer.isBuffer(each[2][0])).toBe(true);
    expect(received.q).toEqual({ _id: 'r1', version: 3 });
    expect(received.u.$set).toEqual({ version: 4 });
    expect(holdsUndecoded(received)).toBe(true);
    expect(holdsUndecoded(received.q)).toBe(false);
  });

  test('when undecoded elements are decoded, then the statement equals a plain decoding, types included', () => {
    const plain = deserialize(raw, DESERIALIZE_OPTIONS);
    const decoded = decodeUndecoded(received);
    expect(decoded).toEqual(plain);
    expect(decoded.u.$push.enhancements.$each[0].content.count).toBeInstanceOf(Long);
    expect(holdsUndecoded(decoded)).toBe(false);
    // Parts without undecoded elements are shared, not copied.
    expect(decoded.q).toBe(received.q);
  });

  test('when only pushes copied as bytes hold undecoded elements, then the statement may stay as received; any other holder needs decoding', () => {
    expect(undecodedOnlyIn(received, new Set(['enhancements', '_outbox']))).toBe(false);
    const withoutAddToSet = deserialize(serialize({ ...statement, u: { $set: statement.u.$set, $push: statement.u.$push } }), STATEMENT_DESERIALIZE_OPTIONS);
    expect(undecodedOnlyIn(withoutAddToSet, new Set(['enhancements', '_outbox']))).toBe(true);
    expect(undecodedOnlyIn(withoutAddToSet, new Set(['enhancements']))).toBe(false);
    const inFilter = deserialize(serialize({ q: { field: { $each: [{ a: 1 }] } }, u: { $set: { a: 1 } } }), STATEMENT_DESERIALIZE_OPTIONS);
    expect(undecodedOnlyIn(inFilter, new Set())).toBe(false);
  });

  test('when a statement’s bytes hold no $each array, then it is known to hold no undecoded element without walking it', () => {
    expect(mayHoldUndecoded(raw)).toBe(true);
    expect(mayHoldUndecoded(serialize({ q: { _id: 1 }, u: { $push: { list: { a: 1 } }, $set: { note: '$each' } } }))).toBe(false);
  });
});
