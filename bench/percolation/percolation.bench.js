// Percolation benchmark: `reference.changed` events percolated by the percolator against 100
// registered automations, pending enhancements created by the real robot-broker. The search and
// MongoDB stand-ins and the percolator run as their own processes; robot-broker (with the blob
// stand-in it needs) runs in this process; RabbitMQ is the real broker, in a namespace of its own.
// The events wait in the percolator's queue while it is stopped, so the measured time is
// percolation alone: from the restarted percolator's start to the last pending enhancement.
// Run from the repository root after building:
//   node node_modules/typescript/bin/tsc -b tsconfig.build.json && node bench/percolation/percolation.bench.js [--events 20000] [--batch 500]
// BENCH_PERCOLATOR_NODE_ARGS replaces the percolator's node arguments (default: the images' --max-semi-space-size=64).
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

const root = path.resolve(__dirname, '..', '..');
const req = (p) => require(path.join(root, p));
const { EVENTS_EXCHANGE, ROUTING_KEYS, TOPOLOGY, uuidv7 } = req('packages/contracts/dist/index.js');
const { loadDestinyProtos } = req('packages/contracts/dist/grpc/proto-files.js');
const { callUnary, createAmqpConnection, createGrpcClient, createGrpcServer, createLogger, namespacedBus } = req('packages/platform/dist/index.js');
const { startBlob } = req('packages/devstack/dist/blob/index.js');
const { startRobotBroker } = req('services/robot-broker/dist/index.js');
const { MongoClient } = require(require.resolve('mongodb', { paths: [path.join(root, 'services/percolator')] }));
const { automations } = require('../support/automations');
const { ROBOTS, referenceChanged } = require('./events');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const EVENTS = option('events', 20_000);
// --stub-broker: a gRPC stand-in that only counts CreatePendingEnhancementItems calls replaces
// robot-broker, to measure the percolator without robot-broker's MongoDB writes.
const STUB_BROKER = process.argv.includes('--stub-broker');
const BATCH = option('batch', 500);
// --consume-only: the percolator runs with percolation disabled (PERCOLATION_ENABLED=false), so it
// only receives, decodes, validates and acknowledges the events: the cost of consuming them.
const CONSUME_ONLY = process.argv.includes('--consume-only');
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
// The service images and `npm start` run Node.js with a 64 MB young generation (Dockerfile NODE_OPTIONS).
const PERCOLATOR_NODE_ARGS = (process.env.BENCH_PERCOLATOR_NODE_ARGS ?? '--max-semi-space-size=64').split(' ').filter(Boolean);

function spawnLogged(args, env, ready, onMessage = () => undefined) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const message = JSON.parse(line);
        onMessage(message);
        if (ready(message)) resolve({ child, message, stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }) });
      } catch (_error) {
        // Non-JSON output is ignored.
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

const standIn = (kind, dataDir) => spawnLogged([...(process.env.BENCH_STAND_IN_NODE_ARGS ? process.env.BENCH_STAND_IN_NODE_ARGS.split(' ') : []), path.join(root, 'packages/devstack/dist/devstack.cli.js'), kind, '--port', '0', ...(dataDir ? ['--data', dataDir] : [])], {}, (message) => Boolean(message.url));


/** Plays robot-broker's two rpcs the percolator uses: every robot exists, pending enhancements are counted. */
async function startStubBroker(logger) {
  const server = createGrpcServer({ host: '127.0.0.1', port: 0, logger });
  const stub = { created: 0, grpcPort: 0, robots: 0, stop: () => server.stop(100) };
  server.addService(loadDestinyProtos().destiny.robot_broker.RobotBroker.service, {
    RegisterRobot: async () => ({ json: JSON.stringify({ id: uuidv7() }) }),
    GetRobot: async (request) => ({ json: JSON.stringify({ id: request.id }) }),
    CreatePendingEnhancementItems: async (request) => {
      stub.created += request.items.length;
      return { created: request.items.length };
    },
  });
  stub.grpcPort = await server.start();
  return stub;
}

/** CPU seconds a child process has used so far (Linux /proc). */
function cpuSeconds(child) {
  try {
    const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch (_error) {
    return NaN;
  }
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-bench-percolation-'));
  const search = await standIn('search');
  const mongo = await standIn('mongo', path.join(dataDir, 'mongo'));
  const blob = await startBlob({ port: 0, host: '127.0.0.1', dataDir: path.join(dataDir, 'blob') });
  const namespace = `bench-percolation-${crypto.randomBytes(4).toString('hex')}`;
  const logger = createLogger({ service: 'bench', level: 'warn' });
  const connection = await createAmqpConnection({ url: AMQP_URL, logger, name: 'percolation-bench' });
  const bus = namespacedBus(connection, namespace);
  const common = { AMQP_URL, AMQP_NAMESPACE: namespace, MONGODB_URL: mongo.message.url, GRPC_PORT: '0', HEALTH_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const broker = STUB_BROKER ? await startStubBroker(logger) : await startRobotBroker({ ...common, BLOB_ENDPOINT: blob.url, BLOB_ACCESS_KEY: blob.accessKey, BLOB_SECRET_KEY: blob.secretKey, BLOB_BUCKET: 'destiny', ROBOT_SECRET_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex') });
  const mongoClient = await MongoClient.connect(mongo.message.url);
  const pendingCollection = mongoClient.db('destiny_robot_broker').collection('pending_enhancements');
  const env = { ...common, LOG_LEVEL: 'debug', ELASTICSEARCH_URL: search.message.url, ROBOT_BROKER_GRPC_URL: `127.0.0.1:${broker.grpcPort}`, PERCOLATION_BATCH_SIZE: String(BATCH), ...(CONSUME_ONLY ? { PERCOLATION_ENABLED: 'false' } : {}) };
  // The percolator logs each batch once its pending enhancements exist: the bench sums them.
  const batches = [];
  let percolatedEvents = 0;
  let allPercolated;
  const everything = new Promise((resolve) => { allPercolated = resolve; });
  const onMessage = (message) => {
    if (message.msg !== 'percolated a batch') return;
    batches.push(message);
    percolatedEvents += message.events;
    if (percolatedEvents >= EVENTS) allPercolated();
  };
  // BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of the percolator process there.
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const startPercolator = () => spawnLogged([...PERCOLATOR_NODE_ARGS, ...profile, path.join(root, 'services/percolator/dist/main.js')], env, (message) => message.msg === 'percolator started', onMessage);
  let percolator;
  try {
    await bus.declareTopology(TOPOLOGY);
    const protos = loadDestinyProtos().destiny;
    const robotClient = createGrpcClient(protos.robot_broker.RobotBroker, `127.0.0.1:${broker.grpcPort}`);
    const robots = [];
    for (let n = 0; n < ROBOTS; n += 1) {
      const response = await callUnary(robotClient, robotClient.RegisterRobot, { caller: { subject: 'bench', roles: ['robot.writer'], entitlements: [], robot_id: '' }, json: JSON.stringify({ name: `bench-robot-${n}`, description: 'bench', owner: 'bench' }) });
      robots.push(JSON.parse(response.json).id);
    }
    percolator = await startPercolator();
    const client = createGrpcClient(protos.percolator.Percolator, `127.0.0.1:${percolator.message.grpc_port}`);
    const registerStarted = process.hrtime.bigint();
    for (const automation of automations(robots)) await callUnary(client, client.CreateAutomation, { json: JSON.stringify(automation) });
    const registerMs = Number(process.hrtime.bigint() - registerStarted) / 1e6;
    client.close();
    await percolator.stop();

    const events = Array.from({ length: EVENTS }, () => referenceChanged(robots));
    for (let start = 0; start < EVENTS; start += 1000) {
      await Promise.all(events.slice(start, start + 1000).map((event) => bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referenceChanged, event, { messageId: event.event_id })));
    }
    percolator = await startPercolator();
    const started = process.hrtime.bigint();
    const loadBefore = os.loadavg();
    const cpuBefore = { search: cpuSeconds(search.child), mongo: cpuSeconds(mongo.child), percolator: cpuSeconds(percolator.child), bench: process.cpuUsage() };
    await everything;
    const benchCpu = process.cpuUsage(cpuBefore.bench);
    const cpu = {
      percolator: cpuSeconds(percolator.child) - cpuBefore.percolator,
      search_stand_in: cpuSeconds(search.child) - cpuBefore.search,
      mongo_stand_in: cpuSeconds(mongo.child) - cpuBefore.mongo,
      robot_broker_and_bench: (benchCpu.user + benchCpu.system) / 1e6,
    };
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const pending = STUB_BROKER ? broker.created : await pendingCollection.countDocuments({});
    const sum = (key) => batches.reduce((total, batch) => total + batch[key], 0);
    console.log(JSON.stringify({
      events: EVENTS,
      automations: 100,
      robots: ROBOTS,
      robot_broker: STUB_BROKER ? 'stub (counts only)' : 'robot-broker (in the bench process)',
      batch: BATCH,
      percolation: CONSUME_ONLY ? 'disabled (--consume-only)' : 'enabled',
      register_automations_ms_each: Math.round((registerMs / 100) * 10) / 10,
      percolation_seconds: Math.round(seconds * 100) / 100,
      references_per_second: Math.round(EVENTS / seconds),
      pending_enhancements_created: pending,
      pending_per_event: Math.round((pending / EVENTS) * 100) / 100,
      batches: batches.length,
      robot_broker_calls: sum('calls'),
      percolate_ms_total: sum('percolate_ms'),
      dispatch_ms_total: sum('dispatch_ms'),
      cpu_seconds: Object.fromEntries(Object.entries(cpu).map(([key, value]) => [key, Math.round(value * 10) / 10])),
      cpu_us_per_event: Object.fromEntries(Object.entries(cpu).map(([key, value]) => [key, Math.round((value / EVENTS) * 1e6)])),
      percolator_node_args: PERCOLATOR_NODE_ARGS.join(' '),
      load_average_before: loadBefore.map((value) => Math.round(value * 10) / 10),
      load_average: os.loadavg().map((value) => Math.round(value * 10) / 10),
    }, null, 2));
    robotClient.close();
  } finally {
    await percolator?.stop().catch(() => undefined);
    await broker.stop();
    await bus.deleteTopology(TOPOLOGY).catch(() => undefined);
    await connection.close();
    await mongoClient.close();
    await blob.stop();
    await mongo.stop();
    await search.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
