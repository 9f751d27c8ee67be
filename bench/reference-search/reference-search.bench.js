// Benchmark of search-request-service: indexing throughput from `reference.changed` events and
// search latency through its gRPC `SearchReferences`, on the stand-ins and the real RabbitMQ.
// The search and MongoDB stand-ins and the service each run as their own process.
// Run from the repository root after building:
//   node node_modules/typescript/bin/tsc -b tsconfig.build.json && node bench/reference-search/reference-search.bench.js [--refs 100000] [--queries 300]
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const { createRequire } = require('node:module');
const path = require('node:path');
const http = require('node:http');
const readline = require('node:readline');
const jwt = require('jsonwebtoken');
const { typicalQuery, queryString } = require('../support/queries');
const { cpuSecondsOf, latencySummary } = require('../support/measure');

const root = path.resolve(__dirname, '..', '..');
// The workspace packages resolve from the service's own dependencies (the root has none of them).
const serviceRequire = createRequire(path.join(root, 'services/search-request-service/package.json'));
const { EVENTS_EXCHANGE, QUEUES, ROUTING_KEYS, TOPOLOGY, uuidv7 } = serviceRequire('@destiny/contracts');
const { loadDestinyProtos } = serviceRequire('@destiny/contracts/grpc/proto-files');
const { callUnary, createAmqpConnection, createGrpcClient, createLogger, namespacedBus } = serviceRequire('@destiny/platform');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const REFS = option('refs', 100_000);
const QUERIES = option('queries', 300);
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

// Deterministic pseudo-random numbers so runs are comparable.
let seed = 7;
function random() {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
const SYLLABLES = ['ma', 'la', 'ri', 'a', 'pre', 'ven', 'tion', 'cli', 'mate', 'nu', 'tri', 'chil', 'dren', 'vac', 'cine', 'health', 'edu', 'ca', 'po', 'ver', 'ty', 'wa', 'ter', 'sa', 'ni', 'food', 'se', 'cu', 'gen', 'der', 'in', 'come', 'mar', 'ket', 'school', 'trial', 'co', 'hort', 'rural', 'ur', 'ban'];
const VOCABULARY = [];
for (let index = 0; index < 20_000; index += 1) {
  const length = 2 + Math.floor(random() * 3);
  let word = '';
  for (let part = 0; part < length; part += 1) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  VOCABULARY.push(word);
}
// Zipf-like choice: frequent words dominate, as in real abstracts.
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * Math.pow(random(), 3))];
const words = (count) => Array.from({ length: count }, word).join(' ');
const FIRST = ['Ann', 'Bob', 'Carla', 'Dmitri', 'Emeka', 'Fatima', 'Gao', 'Hana', 'Ivan', 'Jane'];
const LAST = ['Smith', 'Okafor', 'Patel', 'Garcia', 'Nguyen', 'Kowalski', 'Ahmed', 'Silva', 'Müller', 'Tanaka'];
const POSITIONS = ['first', 'middle', 'middle', 'last'];

function enhancement(referenceId, content, createdAt) {
  return { id: uuidv7(), reference_id: referenceId, source: 'bench', visibility: 'public', robot_version: null, derived_from: null, content, created_at: createdAt };
}

/** A contract-shaped event: a canonical reference with bibliographic, abstract and (for 30%) an annotation. */
function referenceChanged() {
  const id = uuidv7();
  const year = 1990 + Math.floor(random() * 36);
  const authorCount = 1 + Math.floor(random() * 4);
  const authorship = Array.from({ length: authorCount }, (_, n) => ({ display_name: `${FIRST[Math.floor(random() * 10)]} ${LAST[Math.floor(random() * 10)]}`, orcid: null, position: authorCount === 1 ? 'first' : n === authorCount - 1 ? 'last' : POSITIONS[Math.min(n, 1)] }));
  const createdAt = new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 1e9)).toISOString();
  const enhancements = [
    enhancement(id, { enhancement_type: 'bibliographic', title: words(10 + Math.floor(random() * 5)), publication_year: year, publication_date: `${year}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`, authorship }, createdAt),
    enhancement(id, { enhancement_type: 'abstract', process: 'other', abstract: words(130 + Math.floor(random() * 40)) }, createdAt),
  ];
  if (random() < 0.3) {
    enhancements.push(enhancement(id, { enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 'inclusion:destiny', label: 'include', value: random() < 0.7, score: Math.round(random() * 1000) / 1000, data: {} }] }, createdAt));
  }
  const decision = { duplicate_determination: 'canonical', canonical_reference_id: null };
  return {
    event_id: uuidv7(),
    reference_id: id,
    version: 1,
    kind: 'imported',
    reference: { visibility: 'public', id, identifiers: [{ identifier: `10.5555/${id}`, identifier_type: 'doi' }], enhancements, duplicate_decision: decision },
    changeset: { visibility: 'public' },
    duplicate_decision: decision,
    origin: {},
    occurred_at: new Date().toISOString(),
  };
}

/** The typical searches (bench/support/queries.js) over this benchmark's vocabulary and authors. */
const typical = (n) => typicalQuery(n, { word, surname: () => LAST[Math.floor(random() * 10)], random });

function spawnLogged(args, env, ready) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const message = JSON.parse(line);
        if (ready(message)) resolve({ child, message, stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }) });
      } catch (_error) {
        // Non-JSON output is ignored.
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

// BENCH_SEARCH_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=<dir>") is given to the search stand-in's process.
const standInArguments = (kind) => (kind === 'search' && process.env.BENCH_SEARCH_NODE_ARGS ? process.env.BENCH_SEARCH_NODE_ARGS.split(' ') : []);
const standIn = (kind) => spawnLogged([...standInArguments(kind), path.join(root, 'packages/devstack/dist/devstack.cli.js'), kind, '--port', '0'], {}, (message) => Boolean(message.url));

/** A JWKS endpoint and a reader token, so searches go through the gateway's real bearer auth. */
async function startIssuer() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = crypto.randomUUID();
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' }] }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${server.address().port}/realms/bench`;
  const audience = 'destiny-bench';
  const now = Math.floor(Date.now() / 1000);
  const token = jwt.sign({ iss: issuer, aud: audience, sub: 'bench', iat: now, exp: now + 3600, resource_access: { [audience]: { roles: ['reference.reader'] } } }, privateKey, { algorithm: 'RS256', keyid: kid });
  return { issuer, jwksUrl: `${issuer}/protocol/openid-connect/certs`, audience, token, stop: () => new Promise((resolve) => server.close(resolve)) };
}

async function main() {
  const search = await standIn('search');
  const mongo = await standIn('mongo');
  const namespace = `bench-search-${crypto.randomBytes(4).toString('hex')}`;
  const logger = createLogger({ service: 'bench', level: 'warn' });
  const connection = await createAmqpConnection({ url: AMQP_URL, logger, name: 'reference-search-bench' });
  const bus = namespacedBus(connection, namespace);
  let service;
  try {
    await bus.declareTopology(TOPOLOGY);
    const indexed = new Set();
    let allIndexed;
    const everything = new Promise((resolve) => { allIndexed = resolve; });
    await bus.consume(QUEUES.robotBrokerReferencesIndexed, async (message) => {
      for (const item of message.items) indexed.add(item.reference_id);
      if (indexed.size >= REFS) allIndexed();
      return { outcome: 'ack' };
    }, { prefetch: 100 });

    // The events wait in the service's queue before it starts, so the indexing rate is measured alone.
    const publishStarted = process.hrtime.bigint();
    for (let start = 0; start < REFS; start += 1000) {
      const events = Array.from({ length: Math.min(1000, REFS - start) }, referenceChanged);
      await Promise.all(events.map((event) => bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referenceChanged, event, { messageId: event.event_id })));
    }
    const publishSeconds = Number(process.hrtime.bigint() - publishStarted) / 1e9;

    const env = {
      AMQP_URL, AMQP_NAMESPACE: namespace, MONGODB_URL: mongo.message.url, ELASTICSEARCH_URL: search.message.url,
      GRPC_PORT: '0', HEALTH_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'info',
    };
    // BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of the service process there.
    const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
    const searchCpuBefore = cpuSecondsOf(search.child.pid);
    service = await spawnLogged([...profile, path.join(root, 'services/search-request-service/dist/main.js')], env, (message) => message.msg === 'search-request-service started');
    const serviceCpuBefore = cpuSecondsOf(service.child.pid);
    const indexStarted = process.hrtime.bigint();
    await everything;
    const indexSeconds = Number(process.hrtime.bigint() - indexStarted) / 1e9;
    // CPU per reference while indexing: the service (from its start) and the search stand-in.
    const indexingCpuMicros = {
      service: Math.round(((cpuSecondsOf(service.child.pid) - serviceCpuBefore) * 1e6) / REFS),
      search_stand_in: Math.round(((cpuSecondsOf(search.child.pid) - searchCpuBefore) * 1e6) / REFS),
    };

    const protos = loadDestinyProtos().destiny;
    const client = createGrpcClient(protos.search_request_service.SearchRequestService, `127.0.0.1:${service.message.grpc_port}`);
    const viaGrpc = async (parameters) => JSON.parse((await callUnary(client, client.SearchReferences, { json: JSON.stringify(parameters) })).json);
    const issuer = await startIssuer();
    const gateway = await spawnLogged([path.join(root, 'services/api-gateway/dist/main.js')], {
      PORT: '0', HEALTH_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info',
      AUTH_ISSUER: issuer.issuer, AUTH_JWKS_URL: issuer.jwksUrl, AUTH_AUDIENCE: issuer.audience,
      SEARCH_REQUEST_SERVICE_GRPC_URL: `127.0.0.1:${service.message.grpc_port}`,
    }, (message) => message.msg === 'api-gateway listening');
    const viaGateway = async (parameters) => {
      const response = await fetch(`http://127.0.0.1:${gateway.message.port}/v1/references/search/?${queryString(parameters)}`, { headers: { authorization: `Bearer ${issuer.token}` } });
      if (response.status !== 200) throw new Error(`gateway answered ${response.status}: ${await response.text()}`);
      return response.json();
    };
    // Each query goes both ways, in alternating order, so machine load weighs on both alike.
    const grpcSamples = [];
    const gatewaySamples = [];
    const byKind = Array.from({ length: 8 }, () => []);
    let hits = 0;
    let bytes = 0;
    const timed = async (fn, parameters) => {
      const started = process.hrtime.bigint();
      const result = await fn(parameters);
      return { result, ms: Number(process.hrtime.bigint() - started) / 1e6 };
    };
    try {
      for (let n = 0; n < 20; n += 1) {
        await viaGrpc(typical(n));
        await viaGateway(typical(n));
      }
      for (let n = 0; n < QUERIES; n += 1) {
        const parameters = typical(n);
        const order = n % 2 === 0 ? [viaGrpc, viaGateway] : [viaGateway, viaGrpc];
        const first = await timed(order[0], parameters);
        const second = await timed(order[1], parameters);
        const [grpcRun, gatewayRun] = n % 2 === 0 ? [first, second] : [second, first];
        grpcSamples.push(grpcRun.ms);
        gatewaySamples.push(gatewayRun.ms);
        byKind[n % 8].push(gatewayRun.ms);
        hits += grpcRun.result.total.count;
        bytes += JSON.stringify(gatewayRun.result).length;
      }
    } finally {
      client.close();
      await gateway.stop();
      await issuer.stop();
    }
    console.log(JSON.stringify({
      references: REFS,
      publish_events_per_s: Math.round(REFS / publishSeconds),
      indexing: { seconds: +indexSeconds.toFixed(1), references_per_s: Math.round(REFS / indexSeconds), cpu_us_per_reference: indexingCpuMicros },
      search_via_gateway_http: latencySummary(gatewaySamples),
      search_via_grpc: latencySummary(grpcSamples),
      gateway_search_by_kind: byKind.map(latencySummary).map((summary, kind) => ({ kind, ...summary })),
      average_total_hits: Math.round(hits / QUERIES),
      average_response_kb: Math.round(bytes / QUERIES / 1024),
    }, null, 2));
  } finally {
    await service?.stop();
    await bus.deleteTopology(TOPOLOGY).catch(() => undefined);
    await connection.close();
    await mongo.stop();
    await search.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
