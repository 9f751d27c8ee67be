import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { closeFixture, openFixture, removeTemporaryDataDirs, temporaryDataDir, type MongoFixture, type Loose } from './mongo.fixture';
import { killHard, removeCompiledServer, spawnMongo } from './mongo-child.fixture';

let fixture: MongoFixture | undefined;

afterEach(async () => {
  await closeFixture(fixture);
  fixture = undefined;
});

afterAll(() => {
  removeTemporaryDataDirs();
  removeCompiledServer();
});

async function reopen(dataDir: string): Promise<MongoFixture> {
  await closeFixture(fixture);
  fixture = await openFixture({ dataDir });
  return fixture;
}

describe('durability with a data folder', () => {
  test('when the server restarts, then documents, deletions, indexes and drops are recovered', async () => {
    const dataDir = temporaryDataDir();
    let current = await reopen(dataDir);
    const users = current.db.collection<Loose>('users');
    await users.createIndex({ email: 1 }, { unique: true });
    await users.insertMany([{ _id: 1, email: 'a' }, { _id: 2, email: 'b' }, { _id: 3, email: 'c' }] as never[]);
    await users.updateOne({ _id: 1 } as never, { $set: { name: 'Ann' } });
    await users.deleteOne({ _id: 2 } as never);
    await current.db.collection<Loose>('temporary').insertOne({ x: 1 });
    await current.db.collection<Loose>('temporary').drop();

    current = await reopen(dataDir);
    const recovered = current.db.collection<Loose>('users');
    expect(await recovered.find().toArray()).toEqual([{ _id: 1, email: 'a', name: 'Ann' }, { _id: 3, email: 'c' }]);
    expect((await recovered.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'email_1']);
    await expect(recovered.insertOne({ email: 'c' })).rejects.toMatchObject({ code: 11000 });
    expect((await current.db.listCollections().toArray()).map((entry) => entry.name)).toEqual(['users']);
  });

  test('when arrays were changed by spliced $push and $pull updates, then a restart recovers the spliced documents', async () => {
    const dataDir = temporaryDataDir();
    let current = await reopen(dataDir);
    const references = current.db.collection<Loose>('references');
    await references.insertOne({ _id: 'r1', version: 1, enhancements: [], outbox: [] });
    await references.updateOne({ _id: 'r1' }, { $set: { version: 2 }, $push: { enhancements: { $each: [{ id: 'a' }, { id: 'b' }] }, outbox: { $each: [{ event_id: 'e1' }, { event_id: 'e2' }] } } } as never);
    await references.updateOne({ _id: 'r1' }, { $pull: { outbox: { event_id: { $in: ['e1'] } } } } as never);

    current = await reopen(dataDir);
    expect(await current.db.collection<Loose>('references').findOne({ _id: 'r1' })).toEqual({ _id: 'r1', version: 2, enhancements: [{ id: 'a' }, { id: 'b' }], outbox: [{ event_id: 'e2' }] });
  });

  test('when the journal ends with a torn record, then it is discarded and earlier writes survive', async () => {
    const dataDir = temporaryDataDir();
    let current = await reopen(dataDir);
    await current.db.collection<Loose>('c').insertMany(Array.from({ length: 10 }, (_unused, index) => ({ _id: index })) as never[]);
    await closeFixture(current);
    fixture = undefined;
    const journal = fs.readdirSync(dataDir).find((file) => file.startsWith('journal-')) as string;
    // A record header promising 500 bytes followed by only a few: a write cut by a crash.
    const torn = Buffer.alloc(20);
    torn.writeUInt32LE(500, 0);
    torn.writeUInt32LE(12345, 4);
    fs.appendFileSync(path.join(dataDir, journal), torn);

    current = await reopen(dataDir);
    expect(await current.db.collection<Loose>('c').countDocuments()).toBe(10);
    await current.db.collection<Loose>('c').insertOne({ _id: 'after' } as never);
    current = await reopen(dataDir);
    expect(await current.db.collection<Loose>('c').countDocuments()).toBe(11);
  });

  test('when a record is corrupted in place, then its checksum rejects it and the tail is dropped', async () => {
    const dataDir = temporaryDataDir();
    let current = await reopen(dataDir);
    await current.db.collection<Loose>('c').insertOne({ _id: 'first', v: 'x'.repeat(100) } as never);
    await current.db.collection<Loose>('c').insertOne({ _id: 'second', v: 'y'.repeat(100) } as never);
    await closeFixture(current);
    fixture = undefined;
    const file = path.join(dataDir, fs.readdirSync(dataDir).find((name) => name.startsWith('journal-')) as string);
    const bytes = fs.readFileSync(file);
    const position = bytes.lastIndexOf(Buffer.from('yyyy'));
    bytes[position] = 'z'.charCodeAt(0);
    fs.writeFileSync(file, bytes);
    current = await reopen(dataDir);
    expect((await current.db.collection<Loose>('c').find().toArray()).map((document) => document._id)).toEqual(['first']);
  });

  test('when a large insert batch is journaled in two writes, then a restart recovers it whole and in order', async () => {
    const dataDir = temporaryDataDir();
    let current = await reopen(dataDir);
    const documents = Array.from({ length: 4000 }, (_unused, index) => ({ _id: index, k: `k${index}`, pad: 'x'.repeat(index % 700) }));
    await current.db.collection<Loose>('c').createIndex({ k: 1 }, { unique: true });
    await current.db.collection<Loose>('c').insertMany(documents as never[]);
    current = await reopen(dataDir);
    expect(await current.db.collection<Loose>('c').find().toArray()).toEqual(documents);
    await expect(current.db.collection<Loose>('c').insertOne({ k: 'k3999' })).rejects.toMatchObject({ code: 11000 });
  });

  test('when the store is compacted, then a snapshot replaces the journal and restart sees every write', async () => {
    const dataDir = temporaryDataDir();
    let current = await reopen(dataDir);
    const collection = current.db.collection<Loose>('c');
    await collection.createIndex({ k: 1 }, { unique: true });
    await collection.insertMany(Array.from({ length: 500 }, (_unused, index) => ({ _id: index, k: index })) as never[]);
    await current.server.compact();
    await collection.updateMany({ _id: { $lt: 10 } } as never, { $set: { touched: true } });
    await collection.deleteOne({ _id: 499 } as never);
    const files = fs.readdirSync(dataDir).sort();
    expect(files.filter((file) => file.startsWith('snapshot-'))).toHaveLength(1);
    expect(files.filter((file) => file.startsWith('journal-'))).toHaveLength(1);

    current = await reopen(dataDir);
    const recovered = current.db.collection<Loose>('c');
    expect(await recovered.countDocuments()).toBe(499);
    expect(await recovered.countDocuments({ touched: true })).toBe(10);
    await expect(recovered.insertOne({ k: 5 })).rejects.toMatchObject({ code: 11000 });
  });

  test('when writes continue while a snapshot is being written, then a restart sees the snapshot plus every later write', async () => {
    const dataDir = temporaryDataDir();
    let current = await reopen(dataDir);
    const collection = current.db.collection<Loose>('c');
    await collection.insertMany(Array.from({ length: 3000 }, (_unused, index) => ({ _id: index, v: 0, pad: 'x'.repeat(500) })));
    const compaction = current.server.compact();
    const writes = Promise.all([
      collection.updateMany({ _id: { $lt: 1000 } }, { $set: { v: 1 } }),
      collection.deleteMany({ _id: { $gte: 2900 } }),
      collection.insertMany(Array.from({ length: 100 }, (_unused, index) => ({ _id: 10_000 + index, v: 2 }))),
    ]);
    await Promise.all([compaction, writes]);
    await collection.updateOne({ _id: 5 }, { $set: { v: 3 } });

    current = await reopen(dataDir);
    const recovered = current.db.collection<Loose>('c');
    expect(await recovered.countDocuments()).toBe(3000);
    expect(await recovered.countDocuments({ v: 1 })).toBe(999);
    expect(await recovered.countDocuments({ v: 2 })).toBe(100);
    expect((await recovered.findOne({ _id: 5 }))?.v).toBe(3);
    expect(await recovered.countDocuments({ _id: { $gte: 2900, $lt: 3000 } })).toBe(0);
  });

  test('when a crash left a half-written snapshot, then it is ignored and removed on restart', async () => {
    const dataDir = temporaryDataDir();
    let current = await reopen(dataDir);
    await current.db.collection<Loose>('c').insertMany([{ _id: 1 }, { _id: 2 }]);
    await closeFixture(current);
    fixture = undefined;
    fs.writeFileSync(path.join(dataDir, 'snapshot-2.tmp'), Buffer.from('half a snapshot'));
    current = await reopen(dataDir);
    expect(await current.db.collection<Loose>('c').countDocuments()).toBe(2);
    expect(fs.readdirSync(dataDir).some((file) => file.endsWith('.tmp'))).toBe(false);
  });

  test('when there is no data folder, then data lives in memory only', async () => {
    const current = await openFixture();
    fixture = current;
    await current.db.collection<Loose>('c').insertOne({ a: 1 });
    expect(await current.db.collection<Loose>('c').countDocuments()).toBe(1);
  });
});

describe('crash safety', () => {
  test('when the server process is SIGKILLed while large insert batches are journaled in parts, then every acknowledged batch is recovered intact', async () => {
    const dataDir = temporaryDataDir();
    const child = await spawnMongo(dataDir);
    const client = new MongoClient(child.url, { serverSelectionTimeoutMS: 3000, retryWrites: false, maxPoolSize: 4 });
    await client.connect();
    const collection = client.db('crash').collection<Loose>('batches');
    await collection.createIndex({ seq: 1 }, { unique: true });
    const acknowledged: string[] = [];
    let killed = false;
    const payload = (id: string) => `${id}:${'b'.repeat(400)}`;

    const writer = async (worker: number) => {
      for (let batch = 0; !killed; batch += 1) {
        const documents = Array.from({ length: 1500 }, (_unused, index) => {
          const id = `w${worker}-${batch}-${index}`;
          return { _id: id, seq: id, payload: payload(id) };
        });
        try {
          await collection.insertMany(documents as never[], { ordered: false });
          acknowledged.push(...documents.map((document) => document._id));
        } catch {
          return;
        }
      }
    };
    const writers = Array.from({ length: 2 }, (_unused, worker) => writer(worker));
    while (acknowledged.length < 15_000) await new Promise((resolve) => setTimeout(resolve, 5));
    killed = true;
    await killHard(child);
    await Promise.all(writers);
    await client.close(true);

    fixture = await openFixture({ dataDir, database: 'crash' });
    const documents = await fixture.db.collection<Loose>('batches').find().toArray();
    const byId = new Map(documents.map((document) => [String(document._id), document]));
    for (const id of acknowledged) expect(byId.get(id)?.payload).toBe(payload(id));
    for (const document of documents) expect(document.payload).toBe(payload(String(document._id)));
  });

  test('when the server process is SIGKILLed under write load, then every acknowledged write is recovered intact', async () => {
    const dataDir = temporaryDataDir();
    const child = await spawnMongo(dataDir);
    const client = new MongoClient(child.url, { serverSelectionTimeoutMS: 3000, retryWrites: false, maxPoolSize: 16 });
    await client.connect();
    const collection = client.db('crash').collection<Loose>('writes');
    await collection.createIndex({ seq: 1 }, { unique: true });
    const acknowledged = new Set<string>();
    const acknowledgedCounters = new Map<string, number>();
    let killed = false;
    const payload = (id: string) => `${id}:${'p'.repeat(200)}`;

    const writer = async (worker: number) => {
      for (let n = 0; !killed; n += 1) {
        const id = `w${worker}-${n}`;
        try {
          if (n % 5 === 4) {
            const batch = Array.from({ length: 20 }, (_unused, index) => ({ _id: `${id}-b${index}`, seq: `${id}-b${index}`, payload: payload(`${id}-b${index}`) }));
            await collection.insertMany(batch as never[]);
            batch.forEach((document) => acknowledged.add(document._id));
          } else {
            await collection.insertOne({ _id: id, seq: id, payload: payload(id) } as never);
            acknowledged.add(id);
          }
          const counter = `counter-${worker}`;
          await collection.updateOne({ _id: counter } as never, { $inc: { value: 1 }, $set: { seq: counter } }, { upsert: true });
          acknowledgedCounters.set(counter, (acknowledgedCounters.get(counter) ?? 0) + 1);
        } catch {
          return;
        }
      }
    };
    const writers = Array.from({ length: 8 }, (_unused, worker) => writer(worker));
    while (acknowledged.size < 2000) await new Promise((resolve) => setTimeout(resolve, 5));
    killed = true;
    await killHard(child);
    await Promise.all(writers);
    await client.close(true);

    fixture = await openFixture({ dataDir, database: 'crash' });
    const recovered = fixture.db.collection<Loose>('writes');
    const documents = await recovered.find({ _id: { $not: /^counter-/ } } as never).toArray();
    const byId = new Map(documents.map((document) => [String(document._id), document]));
    for (const id of acknowledged) {
      const document = byId.get(id);
      expect(document?.payload).toBe(payload(id));
    }
    for (const document of documents) expect(document.payload).toBe(payload(String(document._id)));
    for (const [counter, value] of acknowledgedCounters) {
      const stored = await recovered.findOne({ _id: counter } as never);
      expect(stored?.value).toBeGreaterThanOrEqual(value);
    }
    expect((await recovered.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'seq_1']);
  });
});
