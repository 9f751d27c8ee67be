// The official driver's own ceiling on this machine: the loads of mongo.bench.js run against a
// canned wire server that stores nothing (it answers `hello`, returns one fixed document to every
// `find` and `{n}` to every `insert`). No server can be faster than this, so it bounds what the
// stand-in can reach with the same client.
// Run: `node bench/mongo/driver-ceiling.bench.js [--clients 2]`
const { fork } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const { MongoClient, BSON } = require('mongodb');
const { argument } = require('../support/arguments');
const { documentOf } = require('./documents');

const clientProcesses = Number(argument('--clients', 2));
const HEADER_BYTES = 16;
const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

function frame(opCode, responseTo, body) {
  const header = Buffer.alloc(HEADER_BYTES);
  header.writeInt32LE(HEADER_BYTES + body.length, 0);
  header.writeInt32LE(1, 4);
  header.writeInt32LE(responseTo, 8);
  header.writeInt32LE(opCode, 12);
  return Buffer.concat([header, body]);
}

function opMsgReply(responseTo, document) {
  return frame(OP_MSG, responseTo, Buffer.concat([Buffer.alloc(5), BSON.serialize(document)]));
}

function opReply(responseTo, document) {
  const fields = Buffer.alloc(20);
  fields.writeInt32LE(1, 16);
  return frame(OP_REPLY, responseTo, Buffer.concat([fields, BSON.serialize(document)]));
}

/** Reads an OP_MSG body: the command (section kind 0) and how many documents the kind-1 sections hold. */
function parseOpMsg(body) {
  let offset = 4;
  let command = {};
  let documents = 0;
  while (offset < body.length) {
    const kind = body[offset];
    offset += 1;
    const size = body.readInt32LE(offset);
    if (kind === 0) command = BSON.deserialize(body.subarray(offset, offset + size));
    else {
      let position = body.indexOf(0, offset + 4) + 1;
      while (position < offset + size) {
        documents += 1;
        position += body.readInt32LE(position);
      }
    }
    offset += size;
  }
  return { command, documents };
}

function cannedServer() {
  const stored = { _id: new BSON.ObjectId(), ...documentOf(1) };
  const hello = {
    helloOk: true,
    isWritablePrimary: true,
    ismaster: true,
    maxBsonObjectSize: 16 * 1024 * 1024,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
    ok: 1,
  };
  const server = net.createServer((socket) => {
    socket.setNoDelay(true);
    let chunks = [];
    let buffered = 0;
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      buffered += chunk.length;
      while (buffered >= HEADER_BYTES) {
        if (chunks[0].length < HEADER_BYTES) chunks = [Buffer.concat(chunks, buffered)];
        const length = chunks[0].readInt32LE(0);
        if (buffered < length) return;
        const data = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, buffered);
        const requestId = data.readInt32LE(4);
        const opCode = data.readInt32LE(12);
        const body = data.subarray(HEADER_BYTES, length);
        const rest = data.subarray(length);
        chunks = rest.length > 0 ? [rest] : [];
        buffered = rest.length;
        if (opCode === OP_QUERY) {
          socket.write(opReply(requestId, hello));
          continue;
        }
        if (opCode !== OP_MSG) return socket.destroy();
        const { command, documents } = parseOpMsg(body);
        if (command.hello || command.isMaster || command.ismaster) socket.write(opMsgReply(requestId, hello));
        else if (command.find) socket.write(opMsgReply(requestId, { cursor: { firstBatch: [stored], id: BSON.Long.fromInt(0), ns: `${command.$db}.${command.find}` }, ok: 1 }));
        else if (command.insert) socket.write(opMsgReply(requestId, { n: documents, ok: 1 }));
        else socket.write(opMsgReply(requestId, { ok: 1 }));
      }
    });
    socket.on('error', () => socket.destroy());
  });
  server.listen(0, '127.0.0.1', () => process.send(`mongodb://127.0.0.1:${server.address().port}/?directConnection=true`));
}

function processCpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

const loads = {
  async insert(collection, { documents }) {
    await collection.insertMany(documents, { ordered: false });
  },
  async findOne(collection, { count, inFlightCount }) {
    let next = 0;
    const worker = async () => {
      while (next < count) {
        next += 1;
        if (!(await collection.findOne({ email: `user${next}@example.org` }))) throw new Error('no document');
      }
    };
    await Promise.all(Array.from({ length: inFlightCount }, worker));
  },
};

/** Connects, prepares the load's input, then runs it; returns the client CPU (ms) spent running it. */
async function runLoad(url, load, options, ready = Promise.resolve()) {
  const client = await new MongoClient(url, { maxPoolSize: 32 }).connect();
  const collection = client.db('bench').collection('canned');
  await collection.findOne({});
  const documents = load === 'insert' ? Array.from({ length: options.count }, (_unused, index) => documentOf(index)) : undefined;
  await ready;
  const before = process.cpuUsage();
  await loads[load](collection, { ...options, documents });
  const used = process.cpuUsage(before);
  await client.close();
  return (used.user + used.system) / 1000;
}

/** Runs a load in this process or split over forked client processes; returns rate and CPU per operation. */
async function measure(url, serverPid, load, operations, options, processes) {
  let started;
  let serverCpu;
  const start = () => {
    started = process.hrtime.bigint();
    serverCpu = processCpuMs(serverPid);
  };
  let clientCpuMs;
  if (processes === 1) {
    let go;
    const ready = new Promise((resolve) => (go = resolve));
    const running = runLoad(url, load, options, ready);
    await new Promise((resolve) => setTimeout(resolve, 200));
    start();
    go();
    clientCpuMs = await running;
  } else {
    const share = { ...options, count: Math.floor(operations / processes), inFlightCount: Math.ceil(options.inFlightCount / processes) };
    const children = Array.from({ length: processes }, () => fork(__filename, ['--worker', url, load, JSON.stringify(share)]));
    // Workers connect and warm up first; the clock starts when every one of them is ready.
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('message', resolve))));
    start();
    const usages = await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve, reject) => {
            child.once('message', resolve);
            child.once('exit', (code) => code !== 0 && reject(new Error(`worker exited with ${code}`)));
            child.send('go');
          }),
      ),
    );
    clientCpuMs = usages.reduce((total, used) => total + used, 0);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    perSecond: Math.round(operations / seconds),
    clientMicrosPerOp: Math.round((clientCpuMs * 1000) / operations),
    serverMicrosPerOp: Math.round(((processCpuMs(serverPid) - serverCpu) * 1000) / operations),
  };
}

async function worker() {
  const [url, load, options] = process.argv.slice(3);
  const ready = new Promise((resolve) => process.once('message', resolve));
  const running = runLoad(url, load, JSON.parse(options), ready.then(() => undefined));
  setTimeout(() => process.send('ready'), 200);
  const usedMs = await running;
  process.send(usedMs, () => process.exit(0));
}

async function main() {
  const server = fork(__filename, ['--server']);
  const url = await new Promise((resolve) => server.once('message', resolve));
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0].model}, Node.js ${process.version}, load average ${os.loadavg()[0].toFixed(1)}`);
  const results = {};
  // The first round warms the driver and the JIT; the second is reported.
  for (const round of [1, 2]) {
    results.insertMany = await measure(url, server.pid, 'insert', 100_000, { count: 100_000 }, 1);
    results.findOne = await measure(url, server.pid, 'findOne', 10_000, { count: 10_000, inFlightCount: 32 }, 1);
    results.findOneProcesses = await measure(url, server.pid, 'findOne', 10_000, { count: 10_000, inFlightCount: 32 }, clientProcesses);
    if (round === 1) continue;
    const line = (label, { perSecond, clientMicrosPerOp, serverMicrosPerOp }) =>
      console.log(`${label}: ${perSecond}/s (driver CPU ${clientMicrosPerOp} µs/op, canned server ${serverMicrosPerOp} µs/op)`);
    line('insertMany 100k x ~1KB, one client process', results.insertMany);
    line('findOne, 32 in flight, one client process', results.findOne);
    line(`findOne, 32 in flight over ${clientProcesses} client processes`, results.findOneProcesses);
  }
  server.kill();
  console.log(JSON.stringify(results));
}

const role = process.argv[2];
(role === '--server' ? Promise.resolve(cannedServer()) : role === '--worker' ? worker() : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
