import { deserialize, Double, serialize } from 'bson';
import { projectIncluded, projectTopLevel, withTopLevelFields, type TopLevelProjection } from './bson-document.splice';

const raw = serialize({ _id: 'd1', kept: new Double(5), changed: 1, removed: 'x', tail: [1, 2] });

describe('rewriting top-level fields of stored BSON', () => {
  test('when touched fields change, disappear or appear, then they are re-encoded in place, dropped or appended and the rest keeps its bytes', () => {
    const result = withTopLevelFields(raw, { _id: 'd1', changed: { now: 'object' }, added: true }, new Set(['changed', 'removed', 'added']));
    expect(Object.keys(deserialize(result))).toEqual(['_id', 'kept', 'changed', 'tail', 'added']);
    expect(deserialize(result)).toEqual({ _id: 'd1', kept: 5, changed: { now: 'object' }, tail: [1, 2], added: true });
    // The untouched double stays a double, which decoding and re-encoding the document would turn into an int32.
    expect(deserialize(result, { promoteValues: false }).kept).toEqual(new Double(5));
  });

  test('when nothing is touched, then the bytes are identical', () => {
    expect(Buffer.from(withTopLevelFields(raw, { _id: 'd1' }, new Set()))).toEqual(Buffer.from(raw));
  });
});

describe('projecting top-level fields of stored BSON', () => {
  test('when fields are included, then _id comes first and the others follow in projection order', () => {
    const projected = deserialize(projectTopLevel(raw, { inclusion: true, fields: ['tail', 'changed', 'missing'], excludeId: false }));
    expect(projected).toEqual({ _id: 'd1', tail: [1, 2], changed: 1 });
    expect(Object.keys(projected)).toEqual(['_id', 'tail', 'changed']);
  });

  test('when fields or _id are excluded, then the remaining fields keep their stored order', () => {
    expect(deserialize(projectTopLevel(raw, { inclusion: false, fields: ['removed'], excludeId: true }))).toEqual({ kept: 5, changed: 1, tail: [1, 2] });
    expect(deserialize(projectTopLevel(raw, { inclusion: true, fields: ['kept'], excludeId: true }))).toEqual({ kept: 5 });
  });
});

/** A document whose elements are given as [name, value] pairs, so a name may repeat (as client BSON may). */
function documentOf(elements: [string, unknown][]): Buffer {
  const parts = elements.map(([name, value]) => {
    const single = serialize({ [name]: value });
    return single.subarray(4, single.length - 1);
  });
  const body = Buffer.concat(parts);
  const result = Buffer.alloc(body.length + 5);
  result.writeInt32LE(result.length, 0);
  body.copy(result, 4);
  return result;
}

describe('projecting included fields by their name bytes', () => {
  test('when random inclusion and exclusion projections apply to random documents with repeated names, then the bytes equal the general projection', () => {
    let state = 7;
    const next = (): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const names = ['_id', 'a', 'b', 'reference_id', 'é', 'ab', 'status'];
    const values = [1, 'x', null, { nested: [1, 2] }, [3], new Double(2.5), true];
    for (let round = 0; round < 3000; round += 1) {
      const elements: [string, unknown][] = Array.from({ length: Math.floor(next() * 8) }, () => [names[Math.floor(next() * names.length)], values[Math.floor(next() * values.length)]]);
      const stored = documentOf(elements);
      const fields = names.filter(() => next() < 0.3);
      const projection: TopLevelProjection = { inclusion: next() < 0.8, fields, excludeId: next() < 0.3 };
      expect({ round, elements, projection, bytes: Buffer.from(projectIncluded(stored, projection)) }).toEqual({ round, elements, projection, bytes: Buffer.from(projectTopLevel(stored, projection)) });
    }
  });

  test('when a name repeats, then its first element is copied and _id leads', () => {
    const stored = documentOf([['a', 1], ['_id', 'x'], ['a', 2], ['b', 3]]);
    expect(deserialize(projectIncluded(stored, { inclusion: true, fields: ['b', 'a'], excludeId: false }))).toEqual({ _id: 'x', b: 3, a: 1 });
    expect(Object.keys(deserialize(projectIncluded(stored, { inclusion: true, fields: ['b', 'a'], excludeId: false })))).toEqual(['_id', 'b', 'a']);
  });
});
