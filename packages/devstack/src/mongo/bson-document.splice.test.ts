import { deserialize, Double, serialize } from 'bson';
import { projectTopLevel, withTopLevelFields } from './bson-document.splice';

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
