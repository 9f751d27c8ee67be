// The two issue #3 loads of the MongoDB stand-in on their own, for before/after runs of one change:
//   node bench/mongo/insert-restart.bench.js insert [--rounds 3]
//     rounds of insertMany(100k × ~1 KB, the mongo.bench.js documents and indexes) into a fresh server
//     with a data folder; prints the rate and the CPU per document of the server (user and system)
//     and of this client process.
//   node bench/mongo/insert-restart.bench.js load --data <dir> [--documents 1000000]
//     fills <dir> like mongo.bench.js does before its restart (inserts plus 20,000 claims), then kill -9.
//   node bench/mongo/insert-restart.bench.js restart --data <dir>
//     starts the server on a copy of <dir> and prints the time until it accepts connections, its CPU
//     and RSS (<dir> itself is left as it was, so the same data serves every run).
// BENCH_MONGO_CLI runs another build (e.g. a copy of an earlier dist); BENCH_MONGO_NODE_ARGS adds
// Node.js options to the server (e.g. --cpu-prof --cpu-prof-dir=<dir>).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { MongoClient } = require('mongodb');
const { argument } = require('../support/arguments');
const { documentOf } = require('./documents');

const root = path.resolve(__dirname, '../..');
const cli = process.env.BENCH_MONGO_CLI ?? path.join(root, 'packages/devstack/dist/devstack.cli.js');
const nodeArguments = process.env.BENCH_MONGO_NODE_ARGS ? process.env.BENCH_MONGO_NODE_ARGS.split(' ') : [];
const batchDocuments = 100_000;

/** User and system CPU milliseconds of a process (all its threads). */
function processCpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

function startServer(dataDir) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [...nodeArguments, cli, 'mongo', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    lines.on('line', (line) => {
      if (!line.startsWith('{')) return;
      const parsed = JSON.parse(line);
      if (parsed.url) resolve({ child, url: parsed.url, readyMs: Number(process.hrtime.bigint() - started) / 1e6 });
    });
  });
}

function stopServer(child, signal) {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

async function connect(url) {
  const client = await new MongoClient(url).connect();
  const collection = client.db('bench').collection('references');
  await collection.createIndex({ email: 1 }, { unique: true });
  await collection.createIndex({ status: 1 });
  return { client, collection };
}

async function insertRounds() {
  const rounds = Number(argument('--rounds', 3));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-insert-bench-'));
  const server = await startServer(dataDir);
  const { client, collection } = await connect(server.url);
  for (let round = 0; round < rounds; round += 1) {
    const documents = Array.from({ length: batchDocuments }, (_unused, index) => documentOf(round * batchDocuments + index));
    const serverBefore = processCpuMs(server.child.pid);
    const clientBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    await collection.insertMany(documents, { ordered: false });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const serverAfter = processCpuMs(server.child.pid);
    const clientCpu = process.cpuUsage(clientBefore);
    const perDocument = (milliseconds) => ((milliseconds * 1000) / batchDocuments).toFixed(1);
    console.log(
      `round ${round}: ${Math.round(batchDocuments / seconds)} docs/s (${seconds.toFixed(2)} s); server CPU ${perDocument(serverAfter.user + serverAfter.system - serverBefore.user - serverBefore.system)} µs/doc ` +
        `(system ${perDocument(serverAfter.system - serverBefore.system)}); client CPU ${perDocument((clientCpu.user + clientCpu.system) / 1000)} µs/doc; load ${os.loadavg()[0].toFixed(1)}`,
    );
  }
  await client.close();
  await stopServer(server.child, 'SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}

async function load() {
  const dataDir = argument('--data');
  const total = Number(argument('--documents', 1_000_000));
  if (!dataDir) throw new Error('--data <dir> is required');
  fs.mkdirSync(dataDir, { recursive: true });
  const server = await startServer(dataDir);
  const { client, collection } = await connect(server.url);
  for (let from = 0; from < total; from += batchDocuments) {
    await collection.insertMany(Array.from({ length: batchDocuments }, (_unused, index) => documentOf(from + index)), { ordered: false });
    if (from === batchDocuments) {
      const claims = Array.from({ length: 20_000 }, (_unused, index) => collection.findOneAndUpdate({ status: 'pending' }, { $set: { status: 'claimed', by: index } }));
      await Promise.all(claims);
    }
  }
  await client.close();
  await stopServer(server.child, 'SIGKILL');
  for (const file of fs.readdirSync(dataDir)) console.log(`${file}: ${Math.round(fs.statSync(path.join(dataDir, file)).size / 2 ** 20)} MB`);
}

async function restart() {
  const source = argument('--data');
  if (!source) throw new Error('--data <dir> is required');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-restart-bench-'));
  fs.cpSync(source, dataDir, { recursive: true });
  const server = await startServer(dataDir);
  const cpu = processCpuMs(server.child.pid);
  const rssMb = Math.round(Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))[1]) / 1024);
  console.log(`ready after ${(server.readyMs / 1000).toFixed(2)} s; CPU ${((cpu.user + cpu.system) / 1000).toFixed(2)} s (system ${(cpu.system / 1000).toFixed(2)}); RSS ${rssMb} MB; load ${os.loadavg()[0].toFixed(1)}`);
  await stopServer(server.child, 'SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const modes = { insert: insertRounds, load, restart };
const mode = modes[process.argv[2]];
if (!mode) {
  console.error('usage: insert-restart.bench.js insert|load|restart [options]');
  process.exit(1);
}
mode().catch((error) => {
  console.error(error);
  process.exit(1);
});
