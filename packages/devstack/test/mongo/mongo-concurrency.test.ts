import { MongoClient } from 'mongodb';
import { closeFixture, openFixture, removeTemporaryDataDirs, temporaryDataDir, type MongoFixture, type Loose } from './mongo.fixture';

let fixture: MongoFixture;

beforeEach(async () => {
  fixture = await openFixture({ dataDir: temporaryDataDir() });
});

afterEach(async () => {
  await closeFixture(fixture);
});

afterAll(() => {
  removeTemporaryDataDirs();
});

describe('concurrent clients', () => {
  test('when 20 clients each claim 50 pending documents with findOneAndUpdate, then every document is claimed exactly once', async () => {
    const jobs = fixture.db.collection<Loose>('jobs');
    await jobs.insertMany(Array.from({ length: 1000 }, (_unused, index) => ({ _id: index, status: 'pending' })) as never[]);
    const clients = await Promise.all(Array.from({ length: 20 }, () => new MongoClient(fixture.server.url).connect()));
    try {
      const claims = await Promise.all(
        clients.map(async (client, worker) => {
          const collection = client.db('test').collection<Loose>('jobs');
          const claimed: number[] = [];
          for (let attempt = 0; attempt < 50; attempt += 1) {
            const document = await collection.findOneAndUpdate({ status: 'pending' }, { $set: { status: 'claimed', by: `worker-${worker}` } });
            if (document) claimed.push(document._id as unknown as number);
          }
          return { worker, claimed };
        }),
      );
      const all = claims.flatMap((entry) => entry.claimed);
      expect(all).toHaveLength(1000);
      expect(new Set(all).size).toBe(1000);
      for (const { worker, claimed } of claims) {
        expect(await jobs.countDocuments({ by: `worker-${worker}` })).toBe(claimed.length);
      }
      expect(await jobs.countDocuments({ status: 'pending' })).toBe(0);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  test('when many clients increment the same counter concurrently, then no increment is lost', async () => {
    const counters = fixture.db.collection<Loose>('counters');
    await counters.insertOne({ _id: 'c', value: 0 } as never);
    const clients = await Promise.all(Array.from({ length: 10 }, () => new MongoClient(fixture.server.url).connect()));
    try {
      await Promise.all(
        clients.map(async (client) => {
          const collection = client.db('test').collection<Loose>('counters');
          await Promise.all(Array.from({ length: 50 }, () => collection.updateOne({ _id: 'c' } as never, { $inc: { value: 1 } })));
        }),
      );
      expect((await counters.findOne({ _id: 'c' } as never))?.value).toBe(500);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
