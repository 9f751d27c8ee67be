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
  test('when most entries are removed from the front (a drained queue) and some come back, then reads skip the removed ones before and after compaction', () => {
    const entries = Array.from({ length: 5000 }, (_, index) => ({ value: index }));
    const list = new SortedValues<{ value: unknown }>(entries);
    for (const entry of entries.slice(0, 1000)) list.remove(entry);
    expect(values(list).slice(0, 2)).toEqual([1000, 1001]);
    expect([...list.range({ value: 998, inclusive: true }, { value: 1001, inclusive: true })].map((entry) => entry.value)).toEqual([1000, 1001]);
    list.insert(entries[500]);
    list.insert({ value: 999.5 });
    expect(values(list).slice(0, 3)).toEqual([500, 999.5, 1000]);
    for (const entry of entries.slice(1000, 4000)) list.remove(entry);
    expect(values(list)).toEqual([500, 999.5, ...entries.slice(4000).map((entry) => entry.value)]);
    expect(values(list, -1).slice(-3)).toEqual([4000, 999.5, 500]);
  });

  test('when random inserts, removals of listed entries and revivals run, then removing without the search leaves the reads of removing with it', () => {
    let state = 5;
    const next = (): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const initial: { value: unknown }[] = Array.from({ length: 3000 }, (_, index) => ({ value: index % 7 === 0 ? `s${index % 50}` : Math.floor(index / 3) }));
    const searched = new SortedValues<{ value: unknown }>(initial);
    const listed = new SortedValues<{ value: unknown }>(initial);
    const live = new Set(initial);
    const gone: { value: unknown }[] = [];
    const reads = (list: SortedValues<{ value: unknown }>): unknown => [values(list), values(list, -1), [...list.range({ value: 100, inclusive: true }, { value: 400, inclusive: false })], [...list.range({ value: 's1', inclusive: false }, undefined)]];
    for (let round = 0; round < 12000; round += 1) {
      const choice = next();
      if (choice < 0.6 && live.size > 0) {
        // Mostly the front, as a claim drains a queue; sometimes anywhere.
        const pool = [...live];
        const entry = next() < 0.7 ? pool[0] : pool[Math.floor(next() * pool.length)];
        live.delete(entry);
        gone.push(entry);
        searched.remove(entry);
        listed.removeListed(entry);
      } else if (choice < 0.7 && gone.length > 0) {
        const entry = gone.splice(Math.floor(next() * gone.length), 1)[0];
        live.add(entry);
        searched.insert(entry);
        listed.insert(entry);
      } else {
        const entry = { value: next() < 0.2 ? `s${Math.floor(next() * 60)}` : Math.floor(next() * 1200) };
        live.add(entry);
        searched.insert(entry);
        listed.insert(entry);
      }
      if (round % 500 === 0) expect({ round, reads: reads(listed) }).toEqual({ round, reads: reads(searched) });
    }
    expect(reads(listed)).toEqual(reads(searched));
  });
});
