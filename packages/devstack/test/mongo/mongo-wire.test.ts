import net from 'node:net';
import { deserialize, serialize } from 'bson';
import { MongoClient } from 'mongodb';
import { startMongo, type RunningMongo } from '../../src/mongo';

let server: RunningMongo;

beforeEach(async () => {
  server = await startMongo({ port: 0 });
});

afterEach(async () => {
  await server.stop();
});

/** Sends one raw message and resolves with the reply's opCode and bytes after the header. */
function exchange(message: Buffer): Promise<{ opCode: number; responseTo: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1', () => socket.write(message));
    let received = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length >= 4 && received.length >= received.readInt32LE(0)) {
        socket.end();
        resolve({ opCode: received.readInt32LE(12), responseTo: received.readInt32LE(8), body: received.subarray(16, received.readInt32LE(0)) });
      }
    });
    socket.on('error', reject);
  });
}

function header(length: number, requestId: number, opCode: number): Buffer {
  const buffer = Buffer.alloc(16);
  buffer.writeInt32LE(length, 0);
  buffer.writeInt32LE(requestId, 4);
  buffer.writeInt32LE(opCode, 12);
  return buffer;
}

describe('wire protocol', () => {
  test('when a legacy OP_QUERY hello arrives on admin.$cmd, then an OP_REPLY with one document answers it', async () => {
    const query = Buffer.from(serialize({ isMaster: 1, helloOk: true }));
    const fields = Buffer.concat([Buffer.alloc(4), Buffer.from('admin.$cmd\0'), Buffer.from([0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]), query]);
    const reply = await exchange(Buffer.concat([header(16 + fields.length, 7, 2004), fields]));
    expect(reply.opCode).toBe(1);
    expect(reply.responseTo).toBe(7);
    expect(reply.body.readInt32LE(16)).toBe(1);
    const document = deserialize(reply.body.subarray(20));
    expect(document).toMatchObject({ ismaster: true, helloOk: true, maxWireVersion: 21, ok: 1 });
  });

  test('when an OP_MSG carries a checksum and a document sequence, then the checksum is tolerated and the sequence used', async () => {
    const body = Buffer.from(serialize({ insert: 'wire', $db: 'test' }));
    const documents = [serialize({ _id: 1, a: 'x' }), serialize({ _id: 2, a: 'y' })].map((document) => Buffer.from(document));
    const identifier = Buffer.from('documents\0');
    const sequenceLength = 4 + identifier.length + documents.reduce((total, document) => total + document.length, 0);
    const sequenceSize = Buffer.alloc(4);
    sequenceSize.writeInt32LE(sequenceLength, 0);
    const flags = Buffer.alloc(4);
    flags.writeUInt32LE(1, 0);
    const payload = Buffer.concat([flags, Buffer.from([0]), body, Buffer.from([1]), sequenceSize, identifier, ...documents, Buffer.alloc(4)]);
    const reply = await exchange(Buffer.concat([header(16 + payload.length, 9, 2013), payload]));
    expect(reply.opCode).toBe(2013);
    expect(reply.responseTo).toBe(9);
    expect(deserialize(reply.body.subarray(5))).toEqual({ n: 2, ok: 1 });
  });

  test('when a write is unacknowledged (moreToCome), then no reply is sent and the write still applies', async () => {
    const client = await new MongoClient(server.url, { maxPoolSize: 1 }).connect();
    try {
      const collection = client.db('test').collection('fire');
      await collection.insertOne({ a: 1 }, { writeConcern: { w: 0 } });
      expect(await collection.countDocuments({ a: 1 })).toBe(1);
    } finally {
      await client.close();
    }
  });

  test('when a message announces an impossible length, then the connection is closed and the server keeps serving', async () => {
    const closed = await new Promise<boolean>((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1', () => socket.write(header(3, 1, 2013)));
      socket.on('close', () => resolve(true));
      socket.on('error', () => undefined);
    });
    expect(closed).toBe(true);
    const client = await new MongoClient(server.url).connect();
    expect(await client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
    await client.close();
  });
});
