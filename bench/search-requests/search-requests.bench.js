// Search-request benchmark (contract §11): a search enhancement request over 100,000 matching
// references, timed from registration (CreateSearchEnhancementRequest) until the read reports
// `search_status: completed`, with one pending enhancement per match created by the real
// robot-broker. The search and MongoDB stand-ins run as their own processes; search-request-service
// and robot-broker (with the blob stand-in it needs) run in this process; RabbitMQ is the real
// broker, in a namespace of its own. The references are bulk-loaded straight into the `reference`
// alias (the scan, not indexing, is measured).
// Run from the repository root after building:
//   node node_modules/typescript/bin/tsc -b tsconfig.build.json && node bench/search-requests/search-requests.bench.js [--matches 100000] [--others 10000] [--page 10000]
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

const root = path.resolve(__dirname, '..', '..');
const req = (p) => require(path.join(root, p));
const { TOPOLOGY, uuidv7 } = req('packages/contracts/dist/index.js');
const { loadDestinyProtos } = req('packages/contracts/dist/grpc/proto-files.js');
const { callUnary, createAmqpConnection, createGrpcClient, createLogger, namespacedBus } = req('packages/platform/dist/index.js');
const { startBlob } = req('packages/devstack/dist/blob/index.js');
const { startRobotBroker } = req('services/robot-broker/dist/index.js');
const { startSearchRequestService } = req('services/search-request-service/dist/index.js');
const { Client } = require(require.resolve('@elastic/elasticsearch', { paths: [path.join(root, 'services/search-request-service')] }));
const { MongoClient } = require(require.resolve('mongodb', { paths: [path.join(root, 'services/search-request-service')] }));

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const MATCHES = option('matches', 100_000);
const OTHERS = option('others', 10_000);
const PAGE = option('page', 10_000);
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

function spawnLogged(args, ready) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const message = JSON.parse(line);
        if (ready(message)) resolve({ child, message, stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }) });
      } catch (_error) {
        // Non-JSON output is ignored.
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
  });
}

const standIn = (kind, dataDir) => spawnLogged([path.join(root, 'packages/devstack/dist/devstack.cli.js'), kind, '--port', '0', ...(dataDir ? ['--data', dataDir] : [])], (message) => Boolean(message.url));

function referenceDocument(id, title) {
  return { id, visibility: 'public', duplicate_determination: 'canonical', title, view: { id, visibility: 'public', identifiers: [], enhancements: [] } };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-bench-search-requests-'));
  const search = await standIn('search');
  const mongo = await standIn('mongo', path.join(dataDir, 'mongo'));
  const blob = await startBlob({ port: 0, host: '127.0.0.1', dataDir: path.join(dataDir, 'blob') });
  const namespace = `bench-search-requests-${crypto.randomBytes(4).toString('hex')}`;
  const common = { AMQP_URL, AMQP_NAMESPACE: namespace, MONGODB_URL: mongo.message.url, GRPC_PORT: '0', HEALTH_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'silent' };
  const broker = await startRobotBroker({ ...common, BLOB_ENDPOINT: blob.url, BLOB_ACCESS_KEY: blob.accessKey, BLOB_SECRET_KEY: blob.secretKey, ROBOT_SECRET_ENCRYPTION_KEY: crypto.randomBytes(32).toString('hex') });
  const service = await startSearchRequestService({ ...common, ELASTICSEARCH_URL: search.message.url, ROBOT_BROKER_GRPC_URL: `127.0.0.1:${broker.grpcPort}`, SEARCH_SCAN_PAGE_SIZE: String(PAGE) });
  const protos = loadDestinyProtos().destiny;
  const client = createGrpcClient(protos.search_request_service.SearchRequestService, `127.0.0.1:${service.grpcPort}`);
  const robots = createGrpcClient(protos.robot_broker.RobotBroker, `127.0.0.1:${broker.grpcPort}`);
  const es = new Client({ node: search.message.url, requestTimeout: 600_000 });
  try {
    const loadStarted = Date.now();
    for (let start = 0; start < MATCHES + OTHERS; start += 5000) {
      const operations = [];
      for (let n = start; n < Math.min(MATCHES + OTHERS, start + 5000); n += 1) {
        const id = uuidv7();
        operations.push({ index: { _index: 'reference', _id: id } }, referenceDocument(id, n < MATCHES ? `Peatland hydrology study ${n}` : `Coral bleaching survey ${n}`));
      }
      const result = await es.bulk({ operations });
      if (result.errors) throw new Error('bulk load failed');
    }
    await es.indices.refresh({ index: 'reference' });
    console.log(`loaded ${MATCHES + OTHERS} references (${MATCHES} matching) in ${((Date.now() - loadStarted) / 1000).toFixed(1)} s`);

    const registered = await callUnary(robots, robots.RegisterRobot.bind(robots), {
      caller: { subject: 'bench', roles: ['robot.writer'], entitlements: [], robot_id: '' },
      json: JSON.stringify({ name: 'bench-robot', description: 'benchmark robot', owner: 'bench' }),
    });
    const robotId = JSON.parse(registered.json).id;
    const call = async (method, request) => JSON.parse((await callUnary(client, client[method].bind(client), request, { deadlineMs: 600_000 })).json);

    const countStarted = Date.now();
    const counted = await call('CountReferences', { search_query: 'peatland', robot_id: robotId });
    console.log(`dry run: ${counted.count} matches in ${Date.now() - countStarted} ms`);

    const started = Date.now();
    const created = await call('CreateSearchEnhancementRequest', { json: JSON.stringify({ robot_id: robotId, search_query: 'peatland' }) });
    let read = created;
    while (read.search_status === 'pending' || read.search_status === 'searching') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      read = await call('GetSearchEnhancementRequest', { id: created.id });
    }
    const seconds = (Date.now() - started) / 1000;
    const mongoClient = await MongoClient.connect(mongo.message.url);
    const pending = await mongoClient.db('destiny_robot_broker').collection('pending_enhancements').countDocuments({ enhancement_request_id: created.id });
    await mongoClient.close();
    console.log(`request ${read.search_status}: n_matched ${read.n_matched}, n_enhancements_requested ${read.n_enhancements_requested}, pending enhancements stored ${pending}`);
    console.log(`registration → completed: ${seconds.toFixed(1)} s (${Math.round(MATCHES / seconds)} matches/s, page size ${PAGE})`);
    if (read.search_status !== 'completed' || pending !== MATCHES) process.exitCode = 1;
  } finally {
    client.close();
    robots.close();
    await es.close();
    await service.stop();
    await broker.stop();
    const logger = createLogger({ service: 'bench', level: 'silent' });
    const connection = await createAmqpConnection({ url: AMQP_URL, logger, name: 'bench-cleanup' });
    await namespacedBus(connection, namespace).deleteTopology(TOPOLOGY);
    await connection.close();
    await blob.stop();
    await search.stop();
    await mongo.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
