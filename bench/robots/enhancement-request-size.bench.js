// Enhancement requests over many references (§10.1, `POST /v1/enhancement-requests/`): how long
// robot-broker takes to accept one request naming every seeded reference, and how long an unrelated
// call to it (GetRobot, every 100 ms) waits meanwhile. Laid out as deployed: the MongoDB stand-in,
// dedup-service and robot-broker each as its own process (built main.js), on RabbitMQ.
// Run after a build: `node bench/robots/enhancement-request-size.bench.js [--references 100000] [--broker-main PATH]`
// (--broker-main: another build of robot-broker's main.js, e.g. an earlier version copied out of the
// tree; its dependencies resolve from services/robot-broker/node_modules.)
// Phases: N ids of which none exists (422); N existing references the search index has not announced
// (every id looked up in dedup-service); the same once announced (robot-broker's record of
// `references.indexed`, seeded here as search-request-service would leave it).
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { argument } = require('../support/arguments');
const { cpuSecondsOf } = require('../support/measure');
const { seedDecidedReferences } = require('../support/seed-references');
const { spawnService, startStandInProcess } = require('../support/service-processes');

const root = path.resolve(__dirname, '../..');
const req = (p) => require(path.join(root, p));
const platform = req('packages/platform/dist/index.js');
const { loadDestinyProtos } = req('packages/contracts/dist/grpc/proto-files.js');
const { uuidv7 } = req('packages/contracts/dist/index.js');
const { startBlob } = req('packages/devstack/dist/blob/index.js');
const { createTestMessagingNamespace } = req('packages/devstack/dist/testing/index.js');

const referenceCount = Number(argument('--references', '100000'));
const brokerMain = path.resolve(argument('--broker-main', path.join(root, 'services/robot-broker/dist/main.js')));
const childArgs = ['--max-semi-space-size=64'];

const unary = (client, method, request) => platform.callUnary(client, client[method], request, { deadlineMs: 600_000 });

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-request-size-bench-'));
  const mongo = await startStandInProcess('mongo', path.join(dataDir, 'mongo'));
  const blob = await startBlob({ port: 0, host: '127.0.0.1', dataDir: path.join(dataDir, 'blob') });
  const messaging = createTestMessagingNamespace('request-size-bench');
  const env = {
    ...messaging.env,
    MONGODB_URL: mongo.url,
    GRPC_PORT: '0',
    HEALTH_PORT: '0',
    GRPC_HOST: '127.0.0.1',
    BLOB_ENDPOINT: blob.url,
    BLOB_ACCESS_KEY: blob.accessKey,
    BLOB_SECRET_KEY: blob.secretKey,
    ROBOT_SECRET_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex'),
  };
  const dedup = await spawnService('dedup-service', env, { nodeArgs: childArgs });
  const broker = await spawnService('robot-broker', { ...env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}` }, { script: brokerMain, nodeArgs: childArgs });
  const protos = loadDestinyProtos();
  const dedupClient = platform.createGrpcClient(protos.destiny.dedup_service.DedupService, `127.0.0.1:${dedup.grpcPort}`);
  const brokerClient = platform.createGrpcClient(protos.destiny.robot_broker.RobotBroker, `127.0.0.1:${broker.grpcPort}`);
  const mongoClient = new (require(path.join(root, 'services/robot-broker/node_modules/mongodb')).MongoClient)(mongo.url);
  await mongoClient.connect();

  // Seed (not measured): references, their deduplication and the relay of their events.
  let started = performance.now();
  const referenceIds = await seedDecidedReferences(dedupClient, { count: referenceCount, tag: 'request-size', title: 'Request size reference' });
  while (await mongoClient.db('destiny_dedup').collection('references').findOne({ [platform.OUTBOX_PENDING_FIELD]: true }, { projection: { _id: 1 } })) await new Promise((resolve) => setTimeout(resolve, 500));
  console.log(`seeded ${referenceIds.length} references in ${((performance.now() - started) / 1000).toFixed(1)} s; robot-broker: ${brokerMain}`);

  const caller = { subject: 'bench', roles: ['enhancement_request.writer', 'robot.writer'], entitlements: [], robot_id: '' };
  const robot = JSON.parse((await unary(brokerClient, 'RegisterRobot', { caller, json: JSON.stringify({ name: 'request-size-bot', description: 'd', owner: 'o' }) })).json);

  async function measure(label, ids) {
    const probes = [];
    let probing = true;
    const probe = (async () => {
      while (probing) {
        const t = performance.now();
        await unary(brokerClient, 'GetRobot', { id: robot.id });
        probes.push(performance.now() - t);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const cpuBefore = [broker.pid, dedup.pid, mongo.pid].map(cpuSecondsOf);
    const t = performance.now();
    let outcome;
    try {
      const created = JSON.parse((await unary(brokerClient, 'CreateEnhancementRequest', { caller, json: JSON.stringify({ robot_id: robot.id, reference_ids: ids, source: 'bench' }) })).json);
      outcome = `accepted (${created.request_status})`;
    } catch (error) {
      outcome = `refused ${error.httpStatus}`;
    }
    const ms = performance.now() - t;
    const [brokerCpu, dedupCpu, mongoCpu] = [broker.pid, dedup.pid, mongo.pid].map((pid, index) => cpuSecondsOf(pid) - cpuBefore[index]);
    probing = false;
    await probe;
    const sorted = [...probes].sort((a, b) => a - b);
    console.log(
      `${label}: ${ids.length} ids ${(ms / 1000).toFixed(2)} s, ${outcome}; CPU: robot-broker ${brokerCpu.toFixed(2)} s, dedup-service ${dedupCpu.toFixed(2)} s, MongoDB stand-in ${mongoCpu.toFixed(2)} s; unrelated GetRobot meanwhile: ${probes.length} calls, p50 ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms`,
    );
  }

  await measure('none exists', Array.from({ length: referenceCount }, () => uuidv7()));
  await measure('existing, not announced', referenceIds);
  const versions = mongoClient.db('destiny_robot_broker').collection('indexed_reference_versions');
  for (let start = 0; start < referenceIds.length; start += 5000) {
    await versions.bulkWrite(referenceIds.slice(start, start + 5000).map((id) => ({ updateOne: { filter: { _id: id }, update: { $max: { version: 1 } }, upsert: true } })), { ordered: false });
  }
  await measure('existing, announced', referenceIds);

  dedupClient.close();
  brokerClient.close();
  await mongoClient.close();
  await broker.stop();
  await dedup.stop();
  await messaging.remove();
  await blob.stop();
  await mongo.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
