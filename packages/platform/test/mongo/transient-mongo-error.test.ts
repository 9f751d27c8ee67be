import { startMongo } from '@destiny/devstack/mongo';
import { MongoBulkWriteError, MongoClient, MongoServerError } from 'mongodb';
import { isTransientMongoError } from '../../src/mongo/transient-mongo-error';

// Errors as the official driver raises them against the MongoDB stand-in, classified the way
// services decide between "answer 503, the caller retries" and "the write was refused".

describe('transient MongoDB errors', () => {
  it('when the server dies under an unordered bulk insert and a read, then both errors are transient', async () => {
    const mongo = await startMongo({ port: 0 });
    const client = await MongoClient.connect(mongo.url, { serverSelectionTimeoutMS: 300 });
    try {
      const collection = client.db('transient').collection('items');
      await collection.insertOne({ _id: 'before' as never });
      await mongo.stop();
      const insertError = await collection.insertMany([{ a: 1 }, { a: 2 }], { ordered: false }).catch((error: unknown) => error);
      const readError = await collection.findOne({}).catch((error: unknown) => error);
      expect(insertError).toBeInstanceOf(Error);
      expect(readError).toBeInstanceOf(Error);
      expect([isTransientMongoError(insertError), isTransientMongoError(readError)]).toEqual([true, true]);
    } finally {
      await client.close();
    }
  });

  it('when a write is refused for a duplicate key, then the error is not transient', async () => {
    const mongo = await startMongo({ port: 0 });
    const client = await MongoClient.connect(mongo.url);
    try {
      const collection = client.db('transient').collection('items');
      await collection.insertOne({ _id: 'one' as never });
      const single = await collection.insertOne({ _id: 'one' as never }).catch((error: unknown) => error);
      const bulk = await collection.insertMany([{ _id: 'one' as never }, { _id: 'two' as never }], { ordered: false }).catch((error: unknown) => error);
      expect(bulk).toBeInstanceOf(MongoBulkWriteError);
      expect([isTransientMongoError(single), isTransientMongoError(bulk)]).toEqual([false, false]);
    } finally {
      await client.close();
      await mongo.stop();
    }
  });

  it('when a server answers a code the driver itself retries on, or a bare socket failure surfaces, then it is transient; other errors are not', () => {
    const shutdown = new MongoServerError({ message: 'interrupted at shutdown', code: 11600 });
    const validation = new MongoServerError({ message: 'Document failed validation', code: 121 });
    const socketEnded = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
    const wrappedSocketEnded = Object.assign(new MongoServerError({ message: socketEnded.message }), { errorResponse: socketEnded });
    expect([shutdown, socketEnded, wrappedSocketEnded].map((error) => isTransientMongoError(error))).toEqual([true, true, true]);
    expect([validation, new TypeError('x is undefined'), 'EPIPE', undefined].map((error) => isTransientMongoError(error))).toEqual([false, false, false, false]);
  });
});
