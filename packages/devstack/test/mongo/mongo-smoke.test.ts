import { MongoClient } from 'mongodb';
import { startMongo } from '../../src/mongo';

test('when the driver connects, then basic CRUD works', async () => {
  const server = await startMongo({ port: 0 });
  const client = new MongoClient(server.url);
  try {
    await client.connect();
    const c = client.db('t').collection('c');
    await c.insertOne({ a: 1 });
    await c.insertMany([{ a: 2 }, { a: 3 }]);
    expect(await c.countDocuments()).toBe(3);
    expect(await c.estimatedDocumentCount()).toBe(3);
    expect((await c.findOne({ a: 2 }))?.a).toBe(2);
    const r = await c.updateOne({ a: 2 }, { $set: { b: 1 } });
    expect(r.modifiedCount).toBe(1);
    expect(await c.find({}).sort({ a: -1 }).toArray()).toHaveLength(3);
  } finally {
    await client.close();
    await server.stop();
  }
});
