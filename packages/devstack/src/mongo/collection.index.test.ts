import { Double, serialize } from 'bson';
import { type Document } from './bson-value.order';
import { Collection } from './collection.store';

const INDEXES = [
  { key: { a: 1 }, name: 'plain' },
  { key: { b: 1 }, name: 'sparse', sparse: true },
  { key: { c: 1 }, name: 'unique', unique: true, sparse: true },
  { key: { a: 1, b: 1 }, name: 'compound' },
  { key: { d: 1 }, name: 'partial', partialFilterExpression: { d: { $gt: 0 } } },
  { key: { 'e.f': 1 }, name: 'dotted' },
];
const FIELDS = ['a', 'b', 'c', 'd', 'e'];

function collectionWithIndexes(): Collection {
  const collection = new Collection('test', 'items');
  for (const spec of INDEXES) collection.createIndex(spec);
  return collection;
}

/** What a reader can observe of every index: its order both ways, equality lookups and the multikey flag. */
function indexState(collection: Collection, probes: unknown[]): unknown {
  return [...collection.indexes.values()].map((index) => ({
    name: index.spec.name,
    multikey: index.multikey,
    ascending: [...index.ordered(1)],
    descending: [...index.ordered(-1)],
    lookups: probes.map((value) => [...index.lookup(value)]),
  }));
}

function errorOf(run: () => void): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The general index maintenance of an update: key lists of both versions for each index the touched fields affect. */
function replaceByKeyLists(collection: Collection, key: string, next: Document, previous: Document, touched: ReadonlySet<string>): void {
  const indexes = [...collection.indexes.values()].filter((index) => index.dependsOn(touched));
  const keys = indexes.map((index) => index.keysOf(next));
  indexes.forEach((index, position) => index.checkUnique(collection.namespace, key, keys[position]));
  indexes.forEach((index, position) => {
    index.remove(key, index.keysOf(previous));
    index.add(key, keys[position]);
  });
  collection.documents.set(key, serialize(next));
}

describe('moving documents between scalar index keys', () => {
  test('when random updates change indexed fields, then the single-key moves leave every index as removing and adding key lists does', () => {
    let state = 11;
    const next = (): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const scalars: unknown[] = [null, 1, new Double(1), 2, 'x', 'y', '', new Date(0), true, undefined];
    const value = (): unknown => (next() < 0.1 ? [scalars[Math.floor(next() * 4)], 'x'] : scalars[Math.floor(next() * scalars.length)]);
    const documentFor = (id: number): Document => {
      const document: Document = { _id: `k${id}` };
      for (const field of FIELDS) {
        const fieldValue = field === 'e' ? { f: value() } : value();
        if (fieldValue !== undefined) document[field] = fieldValue;
      }
      return document;
    };
    const moved = collectionWithIndexes();
    const general = collectionWithIndexes();
    const current = new Map<string, Document>();
    for (let id = 0; id < 40; id += 1) {
      const document = documentFor(id);
      if (errorOf(() => moved.insert(document)) === undefined) {
        general.insert(document);
        current.set(`s${document._id as string}`, document);
      }
    }
    const probes = scalars.filter((probe) => probe !== undefined);
    let changes = 0;
    for (let round = 0; round < 3000; round += 1) {
      const keys = [...current.keys()];
      const key = keys[Math.floor(next() * keys.length)];
      const previous = current.get(key) as Document;
      const changed: Document = { ...previous };
      const touched = new Set<string>();
      for (const field of FIELDS) {
        if (next() < 0.5) continue;
        touched.add(field);
        const fieldValue = field === 'e' ? { f: value() } : value();
        if (fieldValue === undefined) delete changed[field];
        else changed[field] = fieldValue;
      }
      const movedError = errorOf(() => moved.replaceStored(key, serialize(changed), changed, previous, touched));
      const generalError = errorOf(() => replaceByKeyLists(general, key, changed, previous, touched));
      expect({ round, movedError }).toEqual({ round, movedError: generalError });
      if (movedError === undefined) {
        current.set(key, changed);
        changes += 1;
      }
      if (round % 50 === 0) expect({ round, state: indexState(moved, probes) }).toEqual({ round, state: indexState(general, probes) });
    }
    expect({ state: indexState(moved, probes) }).toEqual({ state: indexState(general, probes) });
    expect(changes).toBeGreaterThan(1000);
  });

  test('when an index is created between updates passing the same touched fields, then the later updates maintain it too', () => {
    const collection = new Collection('test', 'items');
    collection.createIndex({ key: { a: 1 }, name: 'a' });
    const touched = new Set(['a', 'b']);
    collection.insert({ _id: 'one', a: 1, b: 1 });
    collection.replaceStored('sone', serialize({ _id: 'one', a: 2, b: 2 }), { _id: 'one', a: 2, b: 2 }, { _id: 'one', a: 1, b: 1 }, touched);
    collection.createIndex({ key: { b: 1 }, name: 'b' });
    collection.replaceStored('sone', serialize({ _id: 'one', a: 3, b: 3 }), { _id: 'one', a: 3, b: 3 }, { _id: 'one', a: 2, b: 2 }, touched);
    expect([...(collection.indexes.get('a')?.lookup(3) ?? [])]).toEqual(['sone']);
    expect([...(collection.indexes.get('b')?.lookup(3) ?? [])]).toEqual(['sone']);
    expect([...(collection.indexes.get('b')?.lookup(2) ?? [])]).toEqual([]);
  });

  test('when an int32 value becomes the equal double, then the document moves behind the other holders of that key, as a remove and add would', () => {
    const collection = collectionWithIndexes();
    collection.insert({ _id: 'first', a: 1 });
    collection.insert({ _id: 'second', a: 1 });
    collection.replaceStored('sfirst', serialize({ _id: 'first', a: new Double(1) }), { _id: 'first', a: new Double(1) }, { _id: 'first', a: 1 }, new Set(['a']));
    expect([...(collection.indexes.get('plain')?.ordered(1) ?? [])]).toEqual(['ssecond', 'sfirst']);
  });
});
