import { SortedValues } from './sorted-values.list';

const values = (list: SortedValues<{ value: unknown }>, direction: 1 | -1 = 1) => [...list.ordered(direction)].map((entry) => entry.value);

describe('sorted values', () => {
  test('when entries are inserted and removed in any order, then BSON order is kept', () => {
    const list = new SortedValues<{ value: unknown }>([{ value: 5 }, { value: 'b' }, { value: 1 }]);
    const three = { value: 3 };
    list.insert(three);
    list.insert({ value: 'a' });
    list.insert({ value: null });
    list.insert({ value: 9 });
    list.remove(three);
    expect(values(list)).toEqual([null, 1, 5, 9, 'a', 'b']);
    expect(values(list, -1)).toEqual(['b', 'a', 9, 5, 1, null]);
  });

  test('when a range is asked, then only values of the bound type within the bounds come back', () => {
    const list = new SortedValues<{ value: unknown }>([1, 2, 3, 4, 'x', new Date(0)].map((value) => ({ value })));
    expect([...list.range({ value: 2, inclusive: false }, { value: 4, inclusive: true })].map((entry) => entry.value)).toEqual([3, 4]);
    expect([...list.range(undefined, { value: 3, inclusive: false })].map((entry) => entry.value)).toEqual([1, 2]);
    expect([...list.range({ value: 3, inclusive: true }, undefined)].map((entry) => entry.value)).toEqual([3, 4]);
  });

  test('when equal values are removed by a predicate, then only the matching one goes', () => {
    const list = new SortedValues<{ value: unknown; key: string }>([
      { value: 1, key: 'a' },
      { value: 1, key: 'b' },
    ]);
    list.remove({ value: 1, key: 'b' }, (candidate) => candidate.key === 'b');
    expect([...list.ordered(1)].map((entry) => entry.key)).toEqual(['a']);
  });
});
