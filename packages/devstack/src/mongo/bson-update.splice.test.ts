import { deserialize, Double, Long, serialize } from 'bson';
import { DESERIALIZE_OPTIONS } from './bson.options';
import { readTopLevelFields } from './bson-field.reader';
import { type Document } from './bson-value.order';
import { withTopLevelFields } from './bson-document.splice';
import { applySplitUpdate, changedFields, splitUpdate } from './bson-update.splice';
import { applyUpdate, updatedFields } from './update.applier';

type Outcome = { bytes: Buffer | 'unchanged' } | { error: { code: unknown; message: string } };

function outcome(run: () => Uint8Array | undefined): Outcome {
  try {
    const bytes = run();
    return { bytes: bytes ? Buffer.from(bytes) : 'unchanged' };
  } catch (error) {
    return { error: { code: (error as { code?: unknown }).code, message: (error as Error).message } };
  }
}

/** The general path: decode, apply, re-encode the touched top-level fields when one changed. */
function generalPath(raw: Uint8Array, update: Document): Outcome {
  return outcome(() => {
    const document = deserialize(raw, DESERIALIZE_OPTIONS);
    const next = applyUpdate(document, update);
    const touched = updatedFields(update) as Set<string>;
    return changedFields(document, next, touched) ? withTopLevelFields(raw, next, touched) : undefined;
  });
}

/** The splicing path as the update command runs it; `fellBack` when it hands the document to the general path. */
/** Pushes whose elements were copied from the statement's bytes, over all calls. */
let copiedPushes = 0;

function splicingPath(raw: Uint8Array, update: Document, unindexed: (field: string) => boolean = () => true): { result: Outcome; fellBack: boolean } {
  // The statement as the driver sends it: pushed elements are copied from these bytes when they round-trip.
  const split = splitUpdate(update, unindexed, serialize({ q: {}, u: update }, { checkKeys: false }));
  for (const operation of split?.arrays.values() ?? []) if (operation.kind === 'push' && operation.elements) copiedPushes += 1;
  if (!split) return { result: generalPath(raw, update), fellBack: true };
  let fellBack = false;
  const result = outcome(() => {
    const document = readTopLevelFields(raw, new Set([...split.decodedFields, '_id']));
    const spliced = applySplitUpdate(raw, split, document, {});
    if (!spliced) {
      fellBack = true;
      const general = generalPath(raw, update);
      if ('error' in general) throw Object.assign(new Error(general.error.message), { code: general.error.code });
      return general.bytes === 'unchanged' ? undefined : general.bytes;
    }
    return spliced.stored;
  });
  return { result, fellBack };
}

/** A small deterministic generator (mulberry32), so a failure can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIELDS = ['list', 'docs', 'tags', 'n', 's', 'nested', 'flag'];

function generator(next: () => number) {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  const event = (): Document => ({ event_id: `e${Math.floor(next() * 6)}`, v: Math.floor(next() * 5), sub: { x: pick([1, 2, 'x', null]) }, ...(next() < 0.2 ? { extra: [1, { y: 2 }] } : {}) });
  const scalar = (): unknown => pick([() => Math.floor(next() * 10) - 3, () => 1.5 + Math.floor(next() * 3), () => `s${Math.floor(next() * 3)}`, () => null, () => next() < 0.5, () => Long.fromNumber(7), () => new Date(1_700_000_000_000)])();
  const value = (depth = 0): unknown => {
    const choice = next();
    if (depth > 1 || choice < 0.45) return scalar();
    if (choice < 0.6) return { a: value(depth + 1), b: scalar() };
    if (choice < 0.75) return Array.from({ length: Math.floor(next() * 4) }, () => scalar());
    if (choice < 0.95) return Array.from({ length: Math.floor(next() * 5) }, () => (next() < 0.85 ? event() : scalar()));
    return [];
  };
  const document = (): Document => {
    const result: Document = { _id: `d${Math.floor(next() * 100)}` };
    for (const field of FIELDS) {
      if (next() >= 0.75) continue;
      // The array fields mostly hold arrays (of documents), as the services' documents do.
      const arrayField = (field === 'list' || field === 'docs') && next() < 0.8;
      // A top-level double holding an integer equals the int32 a $set may write, in other bytes.
      const integerDouble = (field === 'n' || field === 'nested') && next() < 0.3;
      const stored = field === 'n' ? new Double(2) : { a: new Double(2), b: 's1' };
      result[field] = arrayField ? Array.from({ length: Math.floor(next() * 5) }, () => (next() < 0.85 ? event() : scalar())) : integerDouble ? stored : value();
    }
    return result;
  };
  const operand = (operator: string): unknown => {
    switch (operator) {
      case '$push':
        return next() < 0.5 ? value() : { $each: Array.from({ length: Math.floor(next() * 3) }, () => (next() < 0.7 ? event() : scalar())) };
      case '$pull':
        return pick([() => ({ event_id: { $in: [`e${Math.floor(next() * 6)}`, `e${Math.floor(next() * 6)}`] } }), () => ({ event_id: `e${Math.floor(next() * 6)}` }), () => ({ v: { $gt: 2 } }), () => ({ 'sub.x': 1 }), () => ({ extra: { $exists: true } }), () => ({})])();
      case '$inc':
        return pick([1, -2, 2.5, 'x']);
      case '$set':
        return next() < 0.3 ? pick([2, [], {}, 's1', null, { a: 2, b: 's1' }]) : value();
      case '$unset':
        return '';
      default:
        return value();
    }
  };
  const update = (): Document => {
    const result: Document = {};
    const count = 1 + Math.floor(next() * 3);
    for (let index = 0; index < count; index += 1) {
      const operator = pick(['$push', '$push', '$pull', '$pull', '$set', '$max', '$min', '$inc', '$unset']);
      const arrayOperator = operator === '$push' || operator === '$pull';
      const field = next() < 0.1 ? `nested.${pick(['a', 'b', 'c'])}` : arrayOperator && next() < 0.7 ? pick(['list', 'docs']) : pick(FIELDS);
      result[operator] = { ...((result[operator] as Document | undefined) ?? {}), [field]: operand(operator) };
    }
    return result;
  };
  return { document, update };
}

describe('splicing array updates into stored BSON', () => {
  test.each([
    ['no field is indexed', () => true],
    ['flag and n are indexed', (field: string) => field !== 'flag' && field !== 'n'],
  ])('when random updates apply to random documents and %s, then the splicing path gives the general path’s bytes or error', (_case, unindexed) => {
    let spliced = 0;
    for (let seed = 1; seed <= 3000; seed += 1) {
      const { document, update } = generator(random(seed));
      const raw = serialize(document());
      const change = update();
      const expected = generalPath(raw, change);
      const { result, fellBack } = splicingPath(raw, change, unindexed);
      if (!fellBack) spliced += 1;
      expect({ seed, change, result }).toEqual({ seed, change, result: expected });
    }
    // Most cases must exercise the splicing itself, not the fallback, and pushes must copy bytes.
    expect(spliced).toBeGreaterThan(1000);
    expect(copiedPushes).toBeGreaterThan(500);
  });

  test.each([
    ['no field is indexed', () => true],
    ['n and s are indexed', (field: string) => field !== 'n' && field !== 's'],
  ])('when random $set updates of scalars apply to random documents and %s, then the values encoded once give the general path’s bytes', (_case, unindexed) => {
    const scalars = [0, -3, 7, 2 ** 40, 1.5, 's0', 's1', '', 'é', null, true, false];
    let encodedOnce = 0;
    for (let seed = 1; seed <= 2000; seed += 1) {
      const next = random(seed);
      const raw = serialize(generator(next).document());
      const operands: Document = {};
      const count = 1 + Math.floor(next() * 4);
      for (let index = 0; index < count; index += 1) operands[[...FIELDS, 'added', 'other'][Math.floor(next() * 9)]] = scalars[Math.floor(next() * scalars.length)];
      const change = { $set: operands };
      const split = splitUpdate(change, unindexed);
      if (split?.setElements) encodedOnce += 1;
      expect({ seed, change, result: splicingPath(raw, change, unindexed).result }).toEqual({ seed, change, result: generalPath(raw, change) });
    }
    expect(encodedOnce).toBeGreaterThan(1000);
  });

  test('when $set holds a value other than a scalar or another operator, then nothing is encoded ahead', () => {
    const unindexed = (): boolean => true;
    expect(splitUpdate({ $set: { a: 1, b: 'x', c: null, d: true } }, unindexed)?.setElements).toBeDefined();
    expect(splitUpdate({ $set: { a: 1, b: { c: 1 } } }, unindexed)?.setElements).toBeUndefined();
    expect(splitUpdate({ $set: { a: 1, b: new Date(0) } }, unindexed)?.setElements).toBeUndefined();
    expect(splitUpdate({ $set: { a: 1 }, $max: { b: 2 } }, unindexed)?.setElements).toBeUndefined();
    expect(splitUpdate({ $set: { a: 1, 'b.c': 2 } }, unindexed)?.setElements).toBeUndefined();
  });

  test('when $push appends to an array of documents, then the existing elements keep their bytes and the new ones are numbered after them', () => {
    const raw = serialize({ _id: 1, list: [{ event_id: 'a' }, { event_id: 'b' }], after: 'x' });
    const { result, fellBack } = splicingPath(raw, { $push: { list: { $each: [{ event_id: 'c' }, 4] } } });
    expect(fellBack).toBe(false);
    expect('bytes' in result && deserialize(result.bytes as Buffer)).toEqual({ _id: 1, list: [{ event_id: 'a' }, { event_id: 'b' }, { event_id: 'c' }, 4], after: 'x' });
  });

  test('when $pull removes matching documents, then the survivors are renumbered and other elements are kept', () => {
    const raw = serialize({ _id: 1, list: [{ event_id: 'a' }, 'a', { event_id: 'b' }, { event_id: 'c' }] });
    const { result, fellBack } = splicingPath(raw, { $pull: { list: { event_id: { $in: ['a', 'c'] } } } });
    expect(fellBack).toBe(false);
    expect('bytes' in result && deserialize(result.bytes as Buffer)).toEqual({ _id: 1, list: ['a', { event_id: 'b' }] });
  });

  test('when $pull matches nothing or its field is missing, then the document is unchanged', () => {
    const raw = serialize({ _id: 1, list: [{ event_id: 'a' }] });
    expect(splicingPath(raw, { $pull: { list: { event_id: 'z' } } }).result).toEqual({ bytes: 'unchanged' });
    expect(splicingPath(raw, { $pull: { other: { event_id: 'a' } } }).result).toEqual({ bytes: 'unchanged' });
  });

  test('when the target is not an array, then the general path applies the update and raises MongoDB’s error', () => {
    const raw = serialize({ _id: 1, list: 'text' });
    const pushed = splicingPath(raw, { $push: { list: 1 } });
    expect(pushed.fellBack).toBe(true);
    expect(pushed.result).toEqual({ error: { code: 2, message: "The field 'list' must be an array but is of type string in document {_id: 1}" } });
  });

  test('when $push targets a missing field, then the array is created in the order of the operations that create new fields', () => {
    const raw = serialize({ _id: 1, list: 'text' });
    const change = { $set: { first: 1 }, $push: { added: { $each: [] } }, $max: { last: 2 } };
    const created = splicingPath(raw, change);
    expect(created.fellBack).toBe(false);
    expect(created.result).toEqual(generalPath(raw, change));
    expect(Object.keys(deserialize((created.result as { bytes: Buffer }).bytes))).toEqual(['_id', 'list', 'first', 'added', 'last']);
    // With other operators on new fields the place of the new array is left to the general path.
    const nested = { $set: { 'a.b': 1 }, $push: { added: 1 } };
    expect(splicingPath(raw, nested)).toEqual({ result: generalPath(raw, nested), fellBack: true });
  });

  test.each([
    ['a double holding an integer, set to that int32', new Double(2), 2, false],
    ['a document with a double, set to one with the int32', { a: new Double(2), b: 's1' }, { a: 2, b: 's1' }, false],
    ['an array, set to a longer one', [1, 2], [1, 2, 3], true],
    ['an array of a double, set to the int32', [new Double(1)], [1], false],
    ['an int32, set to the same Int64', 1, Long.fromNumber(1), false],
    ['a string, set to itself', 'x', 'x', false],
    ['a string, set to another', 'x', 'y', true],
    ['null, set to null', null, null, false],
    ['a missing field, set to null', undefined, null, true],
    ['a document, set to one with the same fields in another order', { a: 1, b: 2 }, { b: 2, a: 1 }, true],
  ])('when a whole field holding %s is $set, then the splicing path decides like the general path', (_case, stored, value, changed) => {
    const raw = serialize(stored === undefined ? { _id: 1, other: 1 } : { _id: 1, field: stored, other: 1 });
    const change = { $set: { field: value } };
    const { result, fellBack } = splicingPath(raw, change);
    expect(fellBack).toBe(false);
    expect(result).toEqual(generalPath(raw, change));
    expect('bytes' in result && result.bytes !== 'unchanged').toBe(changed);
  });

  test('when pushed values would not encode back to the bytes the client sent, then they are encoded from their decoding', () => {
    const raw = serialize({ _id: 1, list: [1] });
    for (const value of [new Double(2), { $ref: 'c', $id: 1 }, [new Double(3)], { a: { b: new Double(-0) } }]) {
      const change = { $push: { list: { $each: [value, 'kept'] } } };
      const split = splitUpdate(change, () => true, serialize({ q: {}, u: change }));
      expect(split?.arrays.get('list')).toMatchObject({ kind: 'push', elements: undefined });
      expect(splicingPath(raw, change).result).toEqual(generalPath(raw, change));
    }
    const plain = { $push: { list: { $each: [{ a: 1.5, b: [Long.fromNumber(2), 'x'] }] } } };
    expect((splitUpdate(plain, () => true, serialize({ q: {}, u: plain }))?.arrays.get('list') as { elements?: unknown[] }).elements).toHaveLength(1);
  });

  test('when an array element looks like a DBRef, then $pull decodes it whole like the general path', () => {
    const raw = serialize({ _id: 1, list: [{ $ref: 'c', $id: 1 }, { $ref: 'c', $id: 2, kind: 'x' }, { kind: 'x' }] });
    const change = { $pull: { list: { kind: 'x' } } };
    const { result, fellBack } = splicingPath(raw, change);
    expect(fellBack).toBe(false);
    expect(result).toEqual(generalPath(raw, change));
  });

  test('when the update has $position, $slice, $sort, dotted paths, operator conditions, conflicts or indexed fields, then those stay whole', () => {
    const unindexed = (field: string): boolean => field !== 'indexed';
    expect(splitUpdate({ $push: { list: { $each: [1], $slice: 2 } } }, unindexed)).toBeUndefined();
    expect(splitUpdate({ $push: { 'a.list': 1 } }, unindexed)).toBeUndefined();
    expect(splitUpdate({ $pull: { list: { $in: [1] } } }, unindexed)).toBeUndefined();
    expect(splitUpdate({ $push: { list: 1 }, $set: { 'list.0': 2 } }, unindexed)).toBeUndefined();
    expect(splitUpdate({ $push: { 5: 1 } }, unindexed)).toBeUndefined();
    expect(splitUpdate({ $push: { indexed: 1 }, $set: { indexed2: { $x: 1 }, 'a.b': 1 } }, (field) => !field.startsWith('indexed'))).toBeUndefined();
    const split = splitUpdate({ $set: { version: 2, indexed: 1 }, $push: { list: 1 }, $max: { flag: true } }, unindexed);
    expect(split && { arrays: [...split.arrays.keys()], rest: split.rest, restFields: [...split.restFields], wholeSets: [...split.wholeSets], decodedFields: [...split.decodedFields] }).toEqual({
      arrays: ['list'],
      rest: { $set: { version: 2, indexed: 1 }, $max: { flag: true } },
      restFields: ['version', 'indexed', 'flag'],
      wholeSets: ['version'],
      decodedFields: ['indexed', 'flag'],
    });
  });
});
