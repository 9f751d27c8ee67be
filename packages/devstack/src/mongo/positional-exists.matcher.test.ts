import { deserialize, serialize } from 'bson';
import { DESERIALIZE_OPTIONS } from './bson.options';
import { positionExists, splitPositionalExists } from './positional-exists.matcher';
import { compileFilter } from './query.matcher';

const field = Buffer.from('outbox');

/** What the general matcher answers on the decoded document. */
function decodedAnswer(raw: Uint8Array, position: number): boolean {
  return compileFilter({ [`outbox.${position}`]: { $exists: true } })(deserialize(raw, DESERIALIZE_OPTIONS));
}

describe('answering positional $exists from stored bytes', () => {
  const shapes: Record<string, unknown>[] = [
    {},
    { outbox: [] },
    { outbox: [{ event_id: 'a' }] },
    { outbox: [{ event_id: 'a' }, { event_id: 'b' }, 'c'] },
    { outbox: [null, null] },
    { outbox: [[1, 2], { x: 1 }] },
    { outbox: [{ 1: 'named like a position' }] },
    { outbox: [{ event_id: 'a', 2: 'x' }, 5] },
    { outbox: { 1: 'a sub-document' } },
    { outbox: 'scalar' },
    { outbox: null },
    { other: [1, 2, 3], outbox: [1] },
  ];

  test.each(shapes.flatMap((shape) => [0, 1, 2, 3].map((position) => [JSON.stringify(shape), position, shape] as const)))(
    'when the document is %s and the position %i, then the bytes answer like the decoded document or defer to it',
    (_label, position, shape) => {
      const raw = serialize({ _id: 1, ...shape });
      const answer = positionExists(raw, field, position);
      if (answer !== undefined) expect(answer).toBe(decodedAnswer(raw, position));
      // Only sub-documents and element documents with a field named like the position need decoding.
      const needsDecoding = !Array.isArray(shape.outbox) ? typeof shape.outbox === 'object' && shape.outbox !== null : shape.outbox.some((element) => typeof element === 'object' && element !== null && !Array.isArray(element) && String(position) in element);
      expect(answer === undefined).toBe(needsDecoding);
    },
  );

  test('when a filter mixes positional $exists with other conditions, then only exact boolean $exists on <field>.<position> are split off', () => {
    expect(splitPositionalExists({ _id: 1, 'outbox.2': { $exists: false }, 'a.b': { $exists: true }, 'c.1': { $exists: 1 }, 'd.3': { $exists: true, $ne: null } })).toEqual({
      conditions: [{ field: 'outbox', position: 2, wanted: false }],
      rest: { _id: 1, 'a.b': { $exists: true }, 'c.1': { $exists: 1 }, 'd.3': { $exists: true, $ne: null } },
    });
    expect(splitPositionalExists({ _id: 1 })).toBeUndefined();
  });
});
