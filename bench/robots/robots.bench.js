// Robot round-trip benchmark: pending enhancements served to concurrent robots that poll batches,
// download the reference file, upload an abstract per reference, submit, and wait for robot-broker
// to store the enhancements through dedup-service. Components as in the embedded default: the
// MongoDB stand-in as its own process, the blob stand-in in this process, dedup-service and
// robot-broker each on a worker thread of this process, on an in-process bus, all over their real
// protocols (gRPC, S3 HTTP, MongoDB wire).
// Run after a build: `node bench/robots/robots.bench.js [--references 25000] [--robots 4] [--batch 1000] [--warm-up 2] [--poll-only] [--processes] [--threads dedup-service,robot-broker|none] [--semi-space 64|default] [--prepare-ahead SECONDS] [--profile DIR] [--print-latencies] [--fresh-robots]`
// (--profile: the spawned processes write CPU profiles into DIR; in-process, this process's main
// thread also writes measured.cpuprofile there, covering only the measured phase: with --threads none
// it holds the services too.)
// Pending enhancements = references × robots (each robot has its own request over all references).
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { argument } = require('../support/arguments');
const { seedDecidedReferences } = require('../support/seed-references');
const { restartWithSemiSpace, semiSpaceLabel, startService } = require('../support/service-layout');
const { spawnService: spawnServiceProcess, startStandInProcess: startStandIn } = require('../support/service-processes');

// In this process the services get the young generation they get in production (`npm start`, the
// images: 64 MB semi-spaces); `--semi-space default` keeps V8's 16 MB.
const semiSpace = argument('--semi-space', '64');
restartWithSemiSpace(semiSpace, __filename);

const root = path.resolve(__dirname, '../..');
const req = (p) => require(path.join(root, p));
const platform = req('packages/platform/dist/index.js');
const { loadDestinyProtos } = req('packages/contracts/dist/grpc/proto-files.js');
const { startBlob, DEVELOPMENT_BLOB_ACCESS_KEY, DEVELOPMENT_BLOB_SECRET_KEY } = req('packages/devstack/dist/blob/index.js');
const { startDedupService } = req('services/dedup-service/dist/index.js');
const { startRobotBroker } = req('services/robot-broker/dist/index.js');

const referenceCount = Number(argument('--references', '25000'));
const robotCount = Number(argument('--robots', '4'));
const batchSize = Number(argument('--batch', '1000'));
// Poll and download only (no results): poll latency without the imports competing for the CPU.
const pollOnly = process.argv.includes('--poll-only');
// dedup-service and robot-broker as their own processes (built main.js) on RabbitMQ, as deployed.
const separateProcesses = process.argv.includes('--processes');
// Without --processes: dedup-service and robot-broker each on a worker thread of this process, as
// the embedded default runs them (DESTINY_SERVICE_THREADS); `none` runs them on the main thread
// beside the robots and the blob stand-in (where --profile sees them).
const threadList = argument('--threads', 'dedup-service,robot-broker');
const threaded = separateProcesses || threadList === 'none' ? [] : threadList.split(',');
const profileDir = argument('--profile', '');
// Every poll's latency in the order the polls finished (where the slow ones fall: the first polls meet cold processes).
const printLatencies = process.argv.includes('--print-latencies');
const freshRobots = process.argv.includes('--fresh-robots');
// Batches each of as many other robots poll and return before the measured phase (0: measure from cold).
const warmUpBatches = Number(argument('--warm-up', '2'));
// robot-broker's ROBOT_PREPARE_AHEAD_SECONDS (0: every poll claims and writes its own batch); its default when absent.
const prepareAhead = argument('--prepare-ahead', '');
// The spawned services get the production young generation (64 MB semi-spaces), as `npm start`
// and the images run them (NODE_OPTIONS in the Dockerfile); the MongoDB stand-in V8's default, as
// `npm run devstack -- mongo` runs it.
const childArgs = ['--max-semi-space-size=64', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];

const spawnService = (name, env) => spawnServiceProcess(name, env, { nodeArgs: childArgs });
// The MongoDB stand-in keeps V8's default young generation, as `npm run devstack -- mongo` runs it.
const startStandInProcess = (kind, dataDir) => startStandIn(kind, dataDir, kind === 'mongo' ? childArgs.filter((arg) => !arg.startsWith('--max-semi-space-size')) : childArgs);

function unary(client, method, request) {
  return platform.callUnary(client, client[method], request, { deadlineMs: 600_000 });
}

/** CPU time (user + system) of another process so far, in ms, from /proc (Linux). */
function processCpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

/** CPU time of one thread of this process so far, in ms (Linux); NaN without a thread id. */
function threadCpuMs(tid) {
  return tid ? processCpuMs(`${process.pid}/task/${tid}`) : NaN;
}

const ownCpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A CPU profile of this process from now until `stop` (the seeding phases left out). */
async function startMeasuredProfile() {
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  const post = (method, params) => new Promise((resolve, reject) => session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await post('Profiler.stop');
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-robots-bench-'));
  const mongo = await startStandInProcess('mongo', path.join(dataDir, 'mongo'));
  // With --processes the blob stand-in is its own process too, as S3 or MinIO would be, instead of
  // sharing the bench process's event loop with the four robots.
  const blob = separateProcesses
    ? { ...(await startStandInProcess('blob', path.join(dataDir, 'blob'))), accessKey: DEVELOPMENT_BLOB_ACCESS_KEY, secretKey: DEVELOPMENT_BLOB_SECRET_KEY }
    : await startBlob({ port: 0, host: '127.0.0.1', dataDir: path.join(dataDir, 'blob') });
  const bus = platform.createInProcessBus();
  const shared = new Proxy(bus, { get: (target, property) => (property === 'close' ? async () => undefined : Reflect.get(target, property, target)) });
  const env = {
    MONGODB_URL: mongo.url,
    GRPC_PORT: '0',
    HEALTH_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    BLOB_ENDPOINT: blob.url,
    BLOB_ACCESS_KEY: blob.accessKey,
    BLOB_SECRET_KEY: blob.secretKey,
    ROBOT_SECRET_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
    ...(prepareAhead === '' ? {} : { ROBOT_PREPARE_AHEAD_SECONDS: prepareAhead }),
  };
  const overrides = { createBus: async () => shared };
  const messaging = separateProcesses ? req('packages/devstack/dist/testing/index.js').createTestMessagingNamespace('robots-bench') : undefined;
  const startInProcess = (name, starter, serviceEnv) => startService({ root, threaded, bus: shared, name, starter, env: serviceEnv, overrides });
  const dedup = separateProcesses ? await spawnService('dedup-service', { ...env, ...messaging.env }) : await startInProcess('dedup-service', startDedupService, env);
  const brokerEnv = { ...env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}` };
  const broker = separateProcesses ? await spawnService('robot-broker', { ...brokerEnv, ...messaging.env }) : await startInProcess('robot-broker', startRobotBroker, brokerEnv);
  const protos = loadDestinyProtos();
  const dedupClient = platform.createGrpcClient(protos.destiny.dedup_service.DedupService, `127.0.0.1:${dedup.grpcPort}`);
  const brokerClient = platform.createGrpcClient(protos.destiny.robot_broker.RobotBroker, `127.0.0.1:${broker.grpcPort}`);
  const caller = { subject: 'bench', roles: [], entitlements: [], robot_id: '' };

  // Seed: references (not measured).
  let started = performance.now();
  const referenceIds = await seedDecidedReferences(dedupClient, { count: referenceCount, tag: 'robots', title: 'Robot benchmark reference' });
  // The seeding's reference.changed events leave dedup-service's outbox in the background: let
  // them go first, so their relay is not counted as poll CPU.
  const mongoClient = new (require(path.join(root, 'services/robot-broker/node_modules/mongodb')).MongoClient)(mongo.url);
  await mongoClient.connect();
  while (await mongoClient.db('destiny_dedup').collection('references').findOne({ [platform.OUTBOX_PENDING_FIELD]: true }, { projection: { _id: 1 } })) await new Promise((resolve) => setTimeout(resolve, 500));
  console.log(`seeded and deduplicated ${referenceIds.length} references in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  // Seed: one request per robot over every reference (not measured).
  started = performance.now();
  const robots = [];
  for (let r = 0; r < robotCount; r += 1) {
    const robot = JSON.parse((await unary(brokerClient, 'RegisterRobot', { caller, json: JSON.stringify({ name: `bench-bot-${r}`, description: 'd', owner: 'o' }) })).json);
    // A deployed robot polls in a loop, so it has polled (and got nothing) before work arrives for
    // it; `--fresh-robots` measures robots whose first poll ever is a measured one.
    if (!freshRobots && (await unary(brokerClient, 'PollRobotEnhancementBatch', { caller, robot_id: robot.id, limit: batchSize, lease: 'PT10M' })).json !== '') throw new Error('an idle poll got a batch');
    for (let start = 0; start < referenceIds.length; start += 10000) {
      await unary(brokerClient, 'CreatePendingEnhancements', { robot_id: robot.id, reference_ids: referenceIds.slice(start, start + 10000), enhancement_request_id: '', source: `bench-${r}`, chunk_key: `bench-${r}-${start}` });
    }
    robots.push(robot);
  }
  const total = referenceIds.length * robotCount;
  console.log(`created ${total} pending enhancements for ${robotCount} robots in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const brokerDb = mongoClient.db('destiny_robot_broker');
  const pending = brokerDb.collection('pending_enhancements');
  const batches = brokerDb.collection('robot_enhancement_batches');
  let pollLatencies = [];
  let stepTotals = { poll: 0, download: 0, upload: 0, submit: 0 };

  async function robotLoop(robot) {
    for (;;) {
      let t = performance.now();
      const document = await unary(brokerClient, 'PollRobotEnhancementBatch', { caller, robot_id: robot.id, limit: batchSize, lease: 'PT10M' });
      const pollMs = performance.now() - t;
      if (document.json === '') return;
      pollLatencies.push(pollMs);
      stepTotals.poll += pollMs;
      const batch = JSON.parse(document.json);
      t = performance.now();
      const text = await (await fetch(batch.reference_storage_url)).text();
      const ids = text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line).id);
      stepTotals.download += performance.now() - t;
      if (pollOnly) continue;
      t = performance.now();
      const results = ids
        .map((id) => `${JSON.stringify({ reference_id: id, source: `bench-bot-${robot.name}`, visibility: 'public', robot_version: '1.0.0', content: { enhancement_type: 'abstract', process: 'other', abstract: `An abstract for ${id} written by ${robot.name}.` } })}\n`)
        .join('');
      const put = await fetch(batch.result_storage_url, { method: 'PUT', body: results });
      if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
      stepTotals.upload += performance.now() - t;
      t = performance.now();
      await unary(brokerClient, 'SubmitRobotEnhancementBatchResult', { caller, id: batch.id, json: JSON.stringify({ request_id: batch.id, error: null }) });
      stepTotals.submit += performance.now() - t;
    }
  }
  // Warm-up (not measured): as many other robots poll `--warm-up` batches each over the first
  // references and return results, stored before the clock starts, so the measured polls meet
  // processes whose code the JIT has compiled, as in a service that has been running.
  if (warmUpBatches > 0) {
    started = performance.now();
    const warmUpRobots = [];
    for (let r = 0; r < robotCount; r += 1) {
      const robot = JSON.parse((await unary(brokerClient, 'RegisterRobot', { caller, json: JSON.stringify({ name: `bench-warm-up-${r}`, description: 'd', owner: 'o' }) })).json);
      const ids = referenceIds.slice(0, warmUpBatches * batchSize);
      await unary(brokerClient, 'CreatePendingEnhancements', { robot_id: robot.id, reference_ids: ids, enhancement_request_id: '', source: `bench-warm-up-${r}`, chunk_key: `bench-warm-up-${r}` });
      warmUpRobots.push(robot);
    }
    await Promise.all(warmUpRobots.map((robot) => robotLoop(robot)));
    while (!pollOnly && (await batches.findOne({ status: 'importing' }, { projection: { _id: 1 } }))) await new Promise((resolve) => setTimeout(resolve, 200));
    while (await mongoClient.db('destiny_dedup').collection('references').findOne({ [platform.OUTBOX_PENDING_FIELD]: true }, { projection: { _id: 1 } })) await new Promise((resolve) => setTimeout(resolve, 200));
    const warmUpLatencies = pollLatencies.map((value) => Math.round(value));
    console.log(`warm-up: ${warmUpLatencies.length} polls by ${robotCount} other robots in ${((performance.now() - started) / 1000).toFixed(1)} s (latencies ${warmUpLatencies.join(' ')} ms; not counted below)`);
    pollLatencies = [];
    stepTotals = { poll: 0, download: 0, upload: 0, submit: 0 };
  }

  // Measured: the robots' loop until every enhancement is stored.
  const measuredProfile = profileDir && !separateProcesses ? await startMeasuredProfile() : null;
  // CPU profiles time their samples on the monotonic clock: the window lets a reader of the spawned
  // processes' profiles keep only the measured phase.
  const windowStart = process.hrtime.bigint() / 1000n;
  const threadsAtStart = { dedup: threadCpuMs(dedup.osThreadId), broker: threadCpuMs(broker.osThreadId) };
  const cpuAtStart = { bench: ownCpuMs(), mongo: processCpuMs(mongo.pid), dedup: processCpuMs(dedup.pid), broker: processCpuMs(broker.pid), blob: separateProcesses ? processCpuMs(blob.pid) : 0 };
  started = performance.now();
  await Promise.all(robots.map((robot) => robotLoop(robot)));
  const servedAt = performance.now();
  // Waits on the indexed batch status, reading one id (pending enhancements have no status index,
  // and a count decodes every large batch document: either competes with what is measured).
  while (!pollOnly && (await batches.findOne({ status: 'importing' }, { projection: { _id: 1 } }))) await new Promise((resolve) => setTimeout(resolve, 200));
  const seconds = (performance.now() - started) / 1000;
  if (measuredProfile) await measuredProfile.stop(path.join(profileDir, 'measured.cpuprofile'));
  if (profileDir) console.log(`measured phase on the monotonic clock: ${windowStart} to ${process.hrtime.bigint() / 1000n} µs`);
  const cpu = { bench: ownCpuMs() - cpuAtStart.bench, mongo: processCpuMs(mongo.pid) - cpuAtStart.mongo, dedup: processCpuMs(dedup.pid) - cpuAtStart.dedup, broker: processCpuMs(broker.pid) - cpuAtStart.broker, blob: separateProcesses ? processCpuMs(blob.pid) - cpuAtStart.blob : 0 };
  if (!pollOnly) {
    const stored = await pending.countDocuments({ status: 'indexing' });
    if (stored < total) throw new Error(`only ${stored} of ${total} pending enhancements reached indexing: ${JSON.stringify(await pending.aggregate([{ $group: { _id: '$status', n: { $sum: 1 } } }]).toArray())}`);
  }
  console.log(`served every batch after ${((servedAt - started) / 1000).toFixed(1)} s; all ${total} enhancements stored after ${seconds.toFixed(1)} s`);
  console.log(`end to end: ${Math.round(total / seconds)} references/s`);
  console.log(`poll latency (batch of ${batchSize}): p50 ${percentile(pollLatencies, 50).toFixed(0)} ms, p95 ${percentile(pollLatencies, 95).toFixed(0)} ms, max ${Math.max(...pollLatencies).toFixed(0)} ms over ${pollLatencies.length} polls`);
  if (printLatencies) console.log(`poll latencies in the order the polls finished (ms): ${pollLatencies.map((value) => Math.round(value)).join(' ')}`);
  const perThousand = (ms) => ((ms / total) * 1000).toFixed(0);
  const where = separateProcesses ? 'bench process (robots)' : `bench process (robots, blob stand-in, dedup-service, robot-broker; threads: ${threaded.length ? threaded.join(', ') : 'none'}; semi-space: ${semiSpaceLabel(semiSpace)})`;
  const services = separateProcesses ? `, blob stand-in ${perThousand(cpu.blob)} ms, dedup-service ${perThousand(cpu.dedup)} ms, robot-broker ${perThousand(cpu.broker)} ms` : '';
  console.log(`CPU per 1,000 references: ${where} ${perThousand(cpu.bench)} ms${services}, MongoDB stand-in ${perThousand(cpu.mongo)} ms; load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}`);
  if (threaded.length > 0) console.log(`CPU per 1,000 references by thread: dedup-service ${perThousand(threadCpuMs(dedup.osThreadId) - threadsAtStart.dedup)} ms, robot-broker ${perThousand(threadCpuMs(broker.osThreadId) - threadsAtStart.broker)} ms (NaN: on the main thread)`);
  console.log(`robot time per batch: ${Object.entries(stepTotals).map(([step, ms]) => `${step} ${(ms / pollLatencies.length).toFixed(0)} ms`).join(', ')}`);

  await mongoClient.close();
  dedupClient.close();
  brokerClient.close();
  await broker.stop();
  await dedup.stop();
  await bus.close();
  await messaging?.remove();
  await blob.stop();
  await mongo.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
