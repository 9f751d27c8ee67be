// Benchmark of the embedded MongoDB stand-in, driven by the official driver over TCP.
// Run after a build: `node bench/mongo/mongo.bench.js [--documents 1000000] [--clients 2]`
// The server runs as its own process (the devstack CLI) with a temporary data folder, like the
// embedded default. Each load runs once from this single client process and once split over
// `--clients` forked client processes (the Node.js driver costs more CPU per operation than the
// server, so one client process cannot saturate it).
const { fork, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { MongoClient } = require('mongodb');

const root = path.resolve(__dirname, '../..');
// BENCH_MONGO_CLI runs another build of the stand-in (e.g. a copy of an earlier dist) for before/after runs.
const cli = process.env.BENCH_MONGO_CLI ?? path.join(root, 'packages/devstack/dist/devstack.cli.js');
const { argument } = require('../support/arguments');
const { documentOf } = require('./documents');
const totalDocuments = Number(argument('--documents', 1_000_000));
const clientProcesses = Number(argument('--clients', 2));
const batchDocuments = 100_000;

function startServer(dataDir) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [cli, 'mongo', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    lines.on('line', (line) => {
      const parsed = JSON.parse(line);
      if (parsed.url) resolve({ child, url: parsed.url, readyMs: Number(process.hrtime.bigint() - started) / 1e6 });
    });
  });
}

function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)[1]) / 1024;
  return { rssMb: Math.round(field('VmRSS')), peakRssMb: Math.round(field('VmHWM')) };
}

function processCpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
}

let serverPid = 0;

/** Runs a load and prints its rate plus the server's CPU time per operation. */
async function timed(label, operations, run, prepare = async () => run) {
  const prepared = await prepare();
  const started = process.hrtime.bigint();
  const serverCpuBefore = processCpuMs(serverPid);
  await prepared();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const serverCpuMicros = ((processCpuMs(serverPid) - serverCpuBefore) * 1000) / operations;
  const rate = Math.round(operations / seconds);
  console.log(`${label}: ${operations} in ${seconds.toFixed(2)} s = ${rate}/s (server CPU ${serverCpuMicros.toFixed(0)} µs/op)`);
  return rate;
}

async function inFlight(total, concurrency, operation) {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const index = next;
      next += 1;
      await operation(index);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function stopServer(child, signal) {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

const loads = {
  async insert(collection, { from, count }) {
    await collection.insertMany(Array.from({ length: count }, (_unused, index) => documentOf(from + index)), { ordered: false });
  },
  async findOne(collection, { count, inFlightCount, seed }) {
    await inFlight(count, inFlightCount, async (index) => {
      const found = await collection.findOne({ email: `user${((index + seed) * 7919) % batchDocuments}@example.org` });
      if (!found) throw new Error('missing document');
    });
  },
  async claim(collection, { count, inFlightCount, seed }) {
    let claimed = 0;
    await inFlight(count, inFlightCount, async (index) => {
      const document = await collection.findOneAndUpdate({ status: 'pending' }, { $set: { status: 'claimed', by: seed + index } });
      if (document) claimed += 1;
    });
    if (claimed !== count) throw new Error(`only ${claimed} of ${count} claims succeeded`);
  },
};

/** Child client process: runs one load against the server and exits. */
async function worker() {
  const [url, load, options] = process.argv.slice(3);
  const client = await new MongoClient(url, { maxPoolSize: 32 }).connect();
  try {
    const parsed = JSON.parse(options);
    const collection = client.db('bench').collection('references');
    // A worker warms its JIT on the same load before it tells the parent to start the clock.
    if (parsed.warmUp) await loads[load](collection, { ...parsed, count: parsed.warmUp, seed: parsed.seed + 500_000 });
    process.send('ready');
    await new Promise((resolve) => process.once('message', resolve));
    await loads[load](collection, parsed);
  } finally {
    await client.close();
  }
}

/**
 * Forks `load` over client processes and waits until each has connected (and warmed up); resolves
 * to a function that starts them all and resolves when all are done.
 */
async function inWorkers(url, load, optionsOf) {
  const children = Array.from({ length: clientProcesses }, (_unused, index) => fork(__filename, ['--worker', url, load, JSON.stringify(optionsOf(index))]));
  const exits = children.map(
    (child) => new Promise((resolve, reject) => child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`worker exited with ${code}`))))),
  );
  await Promise.race([Promise.all(children.map((child) => new Promise((resolve) => child.once('message', resolve)))), ...exits]);
  return () => {
    for (const child of children) child.send('go');
    return Promise.all(exits);
  };
}

async function main() {
  if (!fs.existsSync(cli)) throw new Error('build first: node node_modules/typescript/bin/tsc -b tsconfig.build.json');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-bench-'));
  console.log(`machine: ${os.cpus().length} × ${os.cpus()[0].model}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, Node.js ${process.version}`);
  let server = await startServer(dataDir);
  serverPid = server.child.pid;
  let client = await new MongoClient(server.url, { maxPoolSize: 32 }).connect();
  let collection = client.db('bench').collection('references');
  await collection.createIndex({ email: 1 }, { unique: true });
  await collection.createIndex({ status: 1 });

  const results = {};
  const share = (total) => Math.floor(total / clientProcesses);
  results.insertManyPerSecond = await timed('insertMany 100k x ~1KB, one call (unique + secondary index, fsynced)', batchDocuments, () =>
    loads.insert(collection, { from: 0, count: batchDocuments }),
  );
  results.insertManyWorkersPerSecond = await timed(`insertMany 100k x ~1KB, ${clientProcesses} client processes in parallel`, batchDocuments, undefined, () =>
    inWorkers(server.url, 'insert', (index) => ({ from: batchDocuments + index * share(batchDocuments), count: share(batchDocuments) })),
  );
  // The first 10k of each load run on a cold JIT (the driver's CPU per call is about twice its
  // steady cost then); they are printed, and the next 10k, the same load warmed, are the result.
  results.findOneColdPerSecond = await timed('findOne on unique indexed field, 32 in flight, one client process, first 10k (cold)', 10_000, () =>
    loads.findOne(collection, { count: 10_000, inFlightCount: 32, seed: 0 }),
  );
  results.findOnePerSecond = await timed('findOne on unique indexed field, 32 in flight, one client process, next 10k (warm)', 10_000, () =>
    loads.findOne(collection, { count: 10_000, inFlightCount: 32, seed: 10_000 }),
  );
  results.findOneWorkersPerSecond = await timed(`findOne on unique indexed field, 32 in flight over ${clientProcesses} client processes, 10k each after 10k warm-up`, 10_000, undefined, () =>
    inWorkers(server.url, 'findOne', (index) => ({ count: share(10_000), inFlightCount: share(32), seed: index * 1000, warmUp: 10_000 })),
  );
  results.claimsColdPerSecond = await timed('findOneAndUpdate claims, 32 in flight, one client process (fsynced), first 10k (cold)', 10_000, () =>
    loads.claim(collection, { count: 10_000, inFlightCount: 32, seed: 0 }),
  );
  results.claimsPerSecond = await timed('findOneAndUpdate claims, 32 in flight, one client process (fsynced), next 10k (warm)', 10_000, () =>
    loads.claim(collection, { count: 10_000, inFlightCount: 32, seed: 10_000 }),
  );
  results.claimsWorkersPerSecond = await timed(`findOneAndUpdate claims, 32 in flight over ${clientProcesses} client processes (fsynced), 10k after warm-up`, 10_000, undefined, () =>
    inWorkers(server.url, 'claim', (index) => ({ count: share(10_000), inFlightCount: share(32), seed: 100_000 + index * share(10_000), warmUp: 2_000 })),
  );

  for (let loaded = 2 * batchDocuments; loaded < totalDocuments; loaded += batchDocuments) {
    await collection.insertMany(Array.from({ length: batchDocuments }, (_unused, index) => documentOf(loaded + index)), { ordered: false });
  }
  const count = await collection.estimatedDocumentCount();
  results.loaded = memory(server.child.pid);
  console.log(`loaded ${count} documents; server memory ${JSON.stringify(results.loaded)}`);
  await client.close();

  await stopServer(server.child, 'SIGKILL');
  const dataBytes = fs.readdirSync(dataDir).reduce((total, file) => total + fs.statSync(path.join(dataDir, file)).size, 0);
  server = await startServer(dataDir);
  results.restartAfterKillMs = Math.round(server.readyMs);
  results.restartCpuMs = Math.round(processCpuMs(server.child.pid));
  results.afterRestart = memory(server.child.pid);
  console.log(
    `restart after kill -9 with ${count} documents (${Math.round(dataBytes / 2 ** 20)} MB on disk): ${(server.readyMs / 1000).toFixed(2)} s wall, ${(results.restartCpuMs / 1000).toFixed(2)} s CPU (all threads); memory ${JSON.stringify(results.afterRestart)}`,
  );
  client = await new MongoClient(server.url).connect();
  collection = client.db('bench').collection('references');
  const recovered = await collection.estimatedDocumentCount();
  const claimed = 10_000 + 10_000 + 10_000 + clientProcesses * 2_000;
  const claimedAfter = await collection.countDocuments({ status: 'claimed' });
  console.log(`recovered ${recovered} documents, ${claimedAfter} claimed`);
  if (recovered !== count || claimedAfter !== claimed) throw new Error('recovery lost data');
  await client.close();
  await stopServer(server.child, 'SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
  console.log(JSON.stringify(results));
}

(process.argv[2] === '--worker' ? worker() : main()).catch((error) => {
  console.error(error);
  process.exit(1);
});
