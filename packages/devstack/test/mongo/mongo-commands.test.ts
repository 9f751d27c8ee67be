import { Long, MongoServerError } from 'mongodb';
import { closeFixture, openFixture, type MongoFixture, type Loose } from './mongo.fixture';

let fixture: MongoFixture;

beforeEach(async () => {
  fixture = await openFixture();
});

afterEach(async () => {
  await closeFixture(fixture);
});

describe('handshake and server commands', () => {
  test('when the client asks hello, then the server reports a writable standalone MongoDB 7.0 without sessions', async () => {
    const hello = await fixture.db.admin().command({ hello: 1 });
    expect(hello).toMatchObject({ isWritablePrimary: true, maxWireVersion: 21, ok: 1, maxBsonObjectSize: 16777216 });
    expect(hello.setName).toBeUndefined();
    expect(hello.logicalSessionTimeoutMinutes).toBeUndefined();
    const legacy = await fixture.db.admin().command({ isMaster: 1 });
    expect(legacy.ismaster).toBe(true);
  });

  test('when ping, buildInfo, serverStatus and getParameter are run, then they answer ok', async () => {
    const admin = fixture.db.admin();
    expect(await admin.ping()).toMatchObject({ ok: 1 });
    expect((await admin.buildInfo()).version).toBe('7.0.0');
    expect((await admin.serverStatus()).ok).toBe(1);
    expect((await admin.command({ getParameter: 1, featureCompatibilityVersion: 1 })).featureCompatibilityVersion).toEqual({ version: '7.0' });
    expect((await admin.command({ getCmdLineOpts: 1 })).ok).toBe(1);
  });

  test('when an unknown command is run, then the server answers CommandNotFound like mongod', async () => {
    const error = await fixture.db.command({ frobnicate: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MongoServerError);
    expect(error).toMatchObject({ code: 59, codeName: 'CommandNotFound', errmsg: "no such command: 'frobnicate'" });
  });

  test('when a command carries a transaction number, then it is rejected cleanly', async () => {
    const error = await fixture.db.command({ find: 'c', txnNumber: Long.fromNumber(1) }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 20, codeName: 'IllegalOperation' });
  });

  test('when the driver ends its sessions on close, then endSessions is accepted', async () => {
    expect(await fixture.db.admin().command({ endSessions: [] })).toMatchObject({ ok: 1 });
  });
});

describe('catalog commands', () => {
  test('when collections are created, listed and dropped, then the catalog follows', async () => {
    await fixture.db.createCollection('alpha');
    await fixture.db.collection<Loose>('beta').insertOne({ x: 1 });
    const names = (await fixture.db.listCollections().toArray()).map((entry) => entry.name).sort();
    expect(names).toEqual(['alpha', 'beta']);
    const nameOnly = await fixture.db.listCollections({ name: 'alpha' }, { nameOnly: true }).toArray();
    expect(nameOnly).toEqual([{ name: 'alpha', type: 'collection' }]);

    const duplicate = await fixture.db.createCollection('alpha').catch((caught: unknown) => caught);
    expect(duplicate).toMatchObject({ code: 48, codeName: 'NamespaceExists' });

    expect(await fixture.db.collection<Loose>('alpha').drop()).toBe(true);
    expect(await fixture.db.collection<Loose>('never-existed').drop()).toBe(true);
    expect((await fixture.db.listCollections().toArray()).map((entry) => entry.name)).toEqual(['beta']);
  });

  test('when a collection option the stand-in cannot enforce is given, then creation is refused', async () => {
    await expect(fixture.db.createCollection('validated', { validator: { $jsonSchema: { required: ['a'] } } })).rejects.toMatchObject({ code: 2 });
    await expect(fixture.db.createCollection('capped', { capped: true, size: 1000 })).rejects.toMatchObject({ code: 2 });
  });

  test('when databases hold data, then listDatabases reports them and dropDatabase removes one', async () => {
    await fixture.client.db('one').collection<Loose>('c').insertOne({ a: 1 });
    await fixture.client.db('two').collection<Loose>('c').insertOne({ a: 1 });
    const listed = await fixture.db.admin().listDatabases();
    expect(listed.databases.map((database) => database.name).sort()).toEqual(['one', 'two']);
    expect(listed.databases[0].sizeOnDisk).toBeGreaterThan(0);
    expect(await fixture.client.db('one').dropDatabase()).toBe(true);
    expect((await fixture.db.admin().listDatabases()).databases.map((database) => database.name)).toEqual(['two']);
  });

  test('when indexes are created, listed and dropped, then listIndexes always shows _id_ and the rest', async () => {
    const collection = fixture.db.collection<Loose>('people');
    expect(await collection.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
    expect(await collection.createIndex({ last: 1, first: -1 })).toBe('last_1_first_-1');
    expect(await collection.createIndex({ email: 1 }, { unique: true })).toBe('email_1');
    const indexes = await collection.listIndexes().toArray();
    expect(indexes.map((index) => index.name)).toEqual(['_id_', 'email_1', 'last_1_first_-1']);
    expect(indexes[1]).toMatchObject({ key: { email: 1 }, unique: true, v: 2 });

    const conflict = await collection.createIndex({ email: 1 }, { name: 'other' }).catch((caught: unknown) => caught);
    expect(conflict).toMatchObject({ code: 85, codeName: 'IndexOptionsConflict' });

    await collection.dropIndex('last_1_first_-1');
    expect((await collection.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'email_1']);
    const missing = await collection.dropIndex('nope').catch((caught: unknown) => caught);
    expect(missing).toMatchObject({ code: 27, codeName: 'IndexNotFound' });
    const idIndex = await collection.dropIndex('_id_').catch((caught: unknown) => caught);
    expect(idIndex).toMatchObject({ code: 72 });
    await collection.dropIndexes();
    expect((await collection.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_']);

    const unknownCollection = await fixture.db.collection<Loose>('nothing').listIndexes().toArray().catch((caught: unknown) => caught);
    expect(unknownCollection).toMatchObject({ code: 26, codeName: 'NamespaceNotFound' });
  });

  test('when an unsupported index type is requested, then the server refuses instead of pretending', async () => {
    const error = await fixture.db.collection<Loose>('texts').createIndex({ body: 'text' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 67 });
  });

  test('when a collection is renamed, then its documents and indexes move', async () => {
    const source = fixture.db.collection<Loose>('old');
    await source.createIndex({ k: 1 }, { unique: true });
    await source.insertMany([{ k: 1 }, { k: 2 }]);
    await source.rename('new');
    const target = fixture.db.collection<Loose>('new');
    expect(await target.countDocuments()).toBe(2);
    expect((await target.listIndexes().toArray()).map((index) => index.name)).toEqual(['_id_', 'k_1']);
    expect(await source.countDocuments()).toBe(0);
  });

  test('when collection statistics are asked, then count and size are reported', async () => {
    await fixture.db.collection<Loose>('stats').insertMany([{ a: 1 }, { a: 2 }]);
    const stats = await fixture.db.command({ collStats: 'stats' });
    expect(stats).toMatchObject({ count: 2, nindexes: 1, ok: 1 });
    expect(stats.size).toBeGreaterThan(0);
    const dbStats = await fixture.db.stats();
    expect(dbStats).toMatchObject({ collections: 1, objects: 2 });
  });
});
