import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serialize } from 'bson';
import { canonicalKey, type Document } from './bson-value.order';
import { type Collection } from './collection.store';
import { compactSparseBuffersInSlices, recordChunks, StorageEngine } from './storage.engine';

const directories: string[] = [];

function temporaryDirectory(): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'storage-engine-test-'));
  directories.push(directory);
  return directory;
}

afterAll(() => {
  for (const directory of directories.splice(0)) fs.rmSync(directory, { recursive: true, force: true });
});

/** Views of each document into one buffer, as the wire server hands out an insert batch. */
function batchOf(documents: Document[]): Uint8Array[] {
  const encoded = documents.map((document) => serialize(document));
  const block = Buffer.concat(encoded);
  let offset = 0;
  return encoded.map((document) => {
    const view = block.subarray(offset, offset + document.length);
    offset += document.length;
    return view;
  });
}

function insertBatch(engine: StorageEngine, collection: Collection, documents: Document[]): void {
  engine.journalPut(
    collection,
    batchOf(documents).map((raw) => collection.insertRaw(raw)),
  );
}

/** How many buffers holding the documents are less than half used by them. */
function sparseBuffers(documents: Iterable<Uint8Array>): number {
  const live = new Map<ArrayBufferLike, number>();
  for (const raw of documents) live.set(raw.buffer, (live.get(raw.buffer) ?? 0) + raw.length);
  return [...live].filter(([buffer, bytes]) => bytes < buffer.byteLength / 2).length;
}

function journalFile(directory: string): string {
  return path.join(directory, fs.readdirSync(directory).find((file) => file.startsWith('journal-')) as string);
}

async function recovered(directory: string, readChunkBytes?: number): Promise<Document[]> {
  const engine = await StorageEngine.open(directory, undefined, readChunkBytes);
  const documents = engine.collection('d', 'c')?.allDocuments() ?? [];
  await engine.close();
  return documents;
}

describe('journal records of document batches', () => {
  test('when documents lie next to each other in memory, then a record holds them as one part whose bytes are the documents in order', () => {
    const batch = batchOf(Array.from({ length: 5 }, (_unused, index) => ({ _id: index })));
    const separate = serialize({ _id: 'apart' });
    const chunks = [...recordChunks([...batch.slice(0, 3), separate, ...batch.slice(3)])];
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toHaveLength(3);
    expect(Buffer.concat(chunks[0]).equals(Buffer.concat([...batch.slice(0, 3), separate, ...batch.slice(3)]))).toBe(true);
  });

  test('when a batch has more parts or bytes than one record takes, then it is split between documents', () => {
    const separate = Array.from({ length: 1500 }, (_unused, index) => serialize({ _id: index }));
    expect([...recordChunks(separate)].map((chunk) => chunk.length)).toEqual([1000, 500]);
    const large = batchOf(Array.from({ length: 20 }, (_unused, index) => ({ _id: index, pad: 'x'.repeat(1024 * 1024) })));
    const chunks = [...recordChunks(large)];
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) expect(chunk.reduce((total, part) => total + part.length, 0)).toBeLessThanOrEqual(8 * 1024 * 1024);
    expect(Buffer.concat(chunks.flat()).equals(Buffer.concat(large))).toBe(true);
  });
});

describe('recovery reading files in chunks', () => {
  async function writeJournal(directory: string): Promise<Document[]> {
    const engine = await StorageEngine.open(directory);
    const collection = engine.ensureCollection('d', 'c');
    engine.createIndex(collection, { v: 2, key: { k: 1 }, name: 'k_1', unique: true });
    const expected: Document[] = [];
    for (let batch = 0; batch < 12; batch += 1) {
      const documents = Array.from({ length: 1 + (batch % 4) * 7 }, (_unused, index) => ({ _id: `b${batch}-${index}`, k: `b${batch}-${index}`, pad: 'p'.repeat((batch * 397 + index * 131) % 3000) }));
      insertBatch(engine, collection, documents);
      expected.push(...documents);
    }
    await engine.commit();
    await engine.close();
    return expected;
  }

  test('when records cross the boundaries of the chunks read, then every record is replayed as with one read', async () => {
    const directory = temporaryDirectory();
    const expected = await writeJournal(directory);
    expect(await recovered(directory, 777)).toEqual(expected);
    expect(await recovered(directory, 4096)).toEqual(expected);
    expect(await recovered(directory)).toEqual(expected);
  });

  test('when the journal ends with a torn record and is read in small chunks, then the tail is cut where the last whole record ends', async () => {
    const directory = temporaryDirectory();
    const expected = await writeJournal(directory);
    const file = journalFile(directory);
    const validSize = fs.statSync(file).size;
    const torn = Buffer.alloc(900);
    torn.writeUInt32LE(5000, 0);
    fs.appendFileSync(file, torn);
    expect(await recovered(directory, 500)).toEqual(expected);
    expect(fs.statSync(file).size).toBe(validSize);
  });

  test('when the journal ends with zeros a crash left unwritten, then they are cut and every record before them is replayed', async () => {
    const directory = temporaryDirectory();
    const expected = await writeJournal(directory);
    const file = journalFile(directory);
    const validSize = fs.statSync(file).size;
    fs.appendFileSync(file, Buffer.alloc(4096));
    expect(await recovered(directory, 1000)).toEqual(expected);
    expect(fs.statSync(file).size).toBe(validSize);
  });

  test('when a record in the middle is corrupt and the file is read in small chunks, then replay stops before it', async () => {
    const directory = temporaryDirectory();
    const expected = await writeJournal(directory);
    const file = journalFile(directory);
    const bytes = fs.readFileSync(file);
    const position = bytes.indexOf(Buffer.from('b6-0'));
    bytes[position] = 'x'.charCodeAt(0);
    fs.writeFileSync(file, bytes);
    const documents = await recovered(directory, 600);
    expect(documents).toEqual(expected.filter((document) => Number(/^b(\d+)-/.exec(document._id as string)?.[1]) < 6));
  });
});

describe('memory held by stored documents', () => {
  test('when most documents of an insert batch were deleted, then compaction copies the rest out of the batch buffer and a restart sees them', async () => {
    const directory = temporaryDirectory();
    const engine = await StorageEngine.open(directory);
    const collection = engine.ensureCollection('d', 'c');
    insertBatch(engine, collection, Array.from({ length: 200 }, (_unused, index) => ({ _id: index, pad: 'x'.repeat(1000) })));
    const deleted = Array.from({ length: 180 }, (_unused, index) => index);
    for (const id of deleted) collection.remove(canonicalKey(id));
    engine.journalDelete(collection, deleted);
    await engine.commit();
    expect(sparseBuffers(collection.documents.values())).toBe(1);
    await engine.compact();
    expect(sparseBuffers(collection.documents.values())).toBe(0);
    expect(collection.allDocuments()).toEqual(Array.from({ length: 20 }, (_unused, index) => ({ _id: 180 + index, pad: 'x'.repeat(1000) })));
    await engine.close();
    expect(await recovered(directory)).toEqual(Array.from({ length: 20 }, (_unused, index) => ({ _id: 180 + index, pad: 'x'.repeat(1000) })));
  });

  test('when a small insert batch was mostly deleted, then a snapshot copies the rest out of its message too', async () => {
    const directory = temporaryDirectory();
    const engine = await StorageEngine.open(directory);
    const collection = engine.ensureCollection('d', 'c');
    insertBatch(engine, collection, Array.from({ length: 20 }, (_unused, index) => ({ _id: index, pad: 'x'.repeat(1000) })));
    for (let index = 1; index < 20; index += 1) collection.remove(canonicalKey(index));
    await engine.compact();
    expect(sparseBuffers(collection.documents.values())).toBe(0);
    expect(collection.allDocuments()).toEqual([{ _id: 0, pad: 'x'.repeat(1000) }]);
    await engine.close();
  });

  test('when most journaled versions were superseded, then the live documents are copied out of the journal read buffer', async () => {
    const directory = temporaryDirectory();
    const engine = await StorageEngine.open(directory);
    const collection = engine.ensureCollection('d', 'c');
    insertBatch(engine, collection, Array.from({ length: 200 }, (_unused, index) => ({ _id: index, version: 0, pad: 'x'.repeat(1000) })));
    for (let version = 1; version <= 3; version += 1) {
      for (let index = 0; index < 150; index += 1) {
        engine.journalPut(collection, [collection.replace(canonicalKey(index), { _id: index, version, pad: 'y'.repeat(1000) })]);
      }
    }
    await engine.commit();
    await engine.close();

    const reopened = await StorageEngine.open(directory);
    const documents = (reopened.collection('d', 'c') as Collection).documents;
    expect(documents.size).toBe(200);
    expect(sparseBuffers(documents.values())).toBe(0);
    expect((reopened.collection('d', 'c') as Collection).allDocuments().map((document) => document.version)).toEqual(Array.from({ length: 200 }, (_unused, index) => (index < 150 ? 3 : 0)));
    await reopened.close();
  });

  test('when most of the journal belonged to a dropped collection, then the documents left are copied out of the read buffer', async () => {
    const directory = temporaryDirectory();
    const engine = await StorageEngine.open(directory);
    insertBatch(engine, engine.ensureCollection('d', 'dropped'), Array.from({ length: 200 }, (_unused, index) => ({ _id: index, pad: 'x'.repeat(1000) })));
    insertBatch(engine, engine.ensureCollection('d', 'c'), Array.from({ length: 20 }, (_unused, index) => ({ _id: index, pad: 'y'.repeat(1000) })));
    engine.dropCollection('d', 'dropped');
    await engine.commit();
    await engine.close();

    const reopened = await StorageEngine.open(directory);
    const documents = (reopened.collection('d', 'c') as Collection).documents;
    expect(documents.size).toBe(20);
    expect(sparseBuffers(documents.values())).toBe(0);
    expect(reopened.collection('d', 'dropped')).toBeUndefined();
    await reopened.close();
  });
  test('when compaction copies in slices while documents are replaced, removed and inserted between slices, then every document keeps its current bytes and none is left in the sparse buffer', async () => {
    const engine = await StorageEngine.open(undefined);
    const collection = engine.ensureCollection('d', 'c');
    insertBatch(engine, collection, Array.from({ length: 400 }, (_unused, index) => ({ _id: index, pad: 'x'.repeat(1000) })));
    for (let index = 0; index < 300; index += 1) collection.remove(canonicalKey(index));
    expect(sparseBuffers(collection.documents.values())).toBe(1);
    const batchBuffer = collection.documents.get(canonicalKey(350))!.buffer;
    // One document per slice; between slices a later document is replaced, one removed and one inserted.
    let changes = 0;
    const compaction = compactSparseBuffersInSlices([collection], 1);
    const changing = (async () => {
      for (let step = 0; step < 20; step += 1) {
        await new Promise((resolve) => setImmediate(resolve));
        collection.replace(canonicalKey(399 - step), { _id: 399 - step, pad: 'r'.repeat(1000), step });
        collection.remove(canonicalKey(300 + step));
        insertBatch(engine, collection, [{ _id: 1000 + step, pad: 'n'.repeat(1000) }]);
        changes += 1;
      }
    })();
    await Promise.all([compaction, changing]);
    expect(changes).toBe(20);
    const expected = [
      ...Array.from({ length: 60 }, (_unused, index) => ({ _id: 320 + index, pad: 'x'.repeat(1000) })),
      ...Array.from({ length: 20 }, (_unused, index) => ({ _id: 380 + index, pad: 'r'.repeat(1000), step: 19 - index })),
      ...Array.from({ length: 20 }, (_unused, index) => ({ _id: 1000 + index, pad: 'n'.repeat(1000) })),
    ];
    const byId = (left: Document, right: Document) => (left._id as number) - (right._id as number);
    expect(collection.allDocuments().sort(byId)).toEqual(expected);
    // Nothing lives in the insert batch's buffer any more, so it can be freed.
    expect([...collection.documents.values()].filter((raw) => raw.buffer === batchBuffer)).toHaveLength(0);
    await engine.close();
  });

});
