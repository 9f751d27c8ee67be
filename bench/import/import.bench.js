// End-to-end import benchmark: a JSONL file of realistic references (~1.5 KB a line) imported
// through import-service and dedup-service on the embedded default's components (MongoDB
// stand-in with a data folder, in-process bus; `--bus rabbitmq` for the local broker), from batch
// registration until every result is recorded and every reference has a duplicate decision.
// Run after a build: `node bench/import/import.bench.js [--references 100000] [--warm-up 5000] [--bus in-process|rabbitmq] [--chunk-size 500] [--drain-events]`
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { Writable } = require('node:stream');

const root = path.resolve(__dirname, '../..');
const req = (p) => require(path.join(root, p));
const { argument } = require('../support/arguments');
const { restartWithSemiSpace, semiSpaceLabel, startService } = require('../support/service-layout');
const { startStandInProcess } = require('../support/service-processes');

// The services run with the young generation they get in production (`npm start`, the images:
// 64 MB semi-spaces); `--semi-space default` keeps V8's 16 MB. The MongoDB stand-in gets 64 MB
// too: `npm start` runs it on a thread of the same process, which shares the process's V8 flags
// (BENCH_MONGO_NODE_ARGS replaces its node arguments).
// V8 reads the size only at start-up, so this process starts itself again with it.
const semiSpace = argument('--semi-space', '64');
restartWithSemiSpace(semiSpace, __filename);
const { startMongo } = req('packages/devstack/dist/mongo/index.js');
const platform = req('packages/platform/dist/index.js');
const { loadDestinyProtos } = req('packages/contracts/dist/grpc/proto-files.js');
// BENCH_SERVICES_ROOT: import-service and dedup-service built in another checkout (to compare two
// versions on the same stand-in and packages; its service folders link to this one's node_modules).
const servicesRoot = process.env.BENCH_SERVICES_ROOT ?? root;
const services = (p) => require(path.join(servicesRoot, p));
const { startDedupService } = services('services/dedup-service/dist/index.js');
const { startImportService } = services('services/import-service/dist/index.js');
const { readLines } = services('services/import-service/dist/domain/line-reader.js');
const { validateImportLine } = services('services/import-service/dist/domain/import-line.validator.js');

const total = Number(argument('--references', '100000'));
// References imported (in a batch of their own, other identifiers) before the measured batch, as
// a running system has served imports before: the services' code is compiled and optimised. `0`
// measures a cold start.
const warmUp = Number(argument('--warm-up', '5000'));
const busKind = argument('--bus', 'in-process');
// `process`: the stand-in in its own process (as `npm run devstack -- mongo`); `in-process`: in this one.
const mongoKind = argument('--mongo', 'process');
// `--threads`: the services on worker threads of their own, as the embedded default runs them
// (DESTINY_SERVICE_THREADS); `none` runs both on this process's main thread, where the stage
// times below can be read from their logs.
const threadList = argument('--threads', 'dedup-service,import-service');
// Lines per IngestReferences call (import-service's IMPORT_CHUNK_SIZE); its default when not given.
const chunkSize = argument('--chunk-size', '');
const threaded = threadList === 'none' ? [] : threadList.split(',');
// `--count-commands`: the services reach MongoDB through a counting proxy (costs CPU; diagnostic only).
const countCommands = process.argv.includes('--count-commands');
// `--drain-events`: the search and percolator queues' `reference.changed` events are acknowledged as
// they arrive (in-process bus only), as those services' consumers would take them; without it they
// pile up in this process's memory, which a deployment's broker would hold instead.
const drainEvents = process.argv.includes('--drain-events');

/**
 * A TCP proxy that counts the OP_MSG commands the services send: per command and collection, how
 * many commands, documents written (insert/update/delete statements) and request bytes.
 */
async function startCommandCounter(targetUrl) {
  const net = require('node:net');
  const { BSON } = require(require.resolve('bson', { paths: [path.dirname(require.resolve('mongodb', { paths: [path.join(root, 'packages/platform')] }))] }));
  const target = new URL(targetUrl);
  const counts = new Map();
  // Request id -> counted row, so a reply's bytes (what the driver decodes) go to its command.
  const awaiting = new Map();
  // Cursor id -> the find that opened it.
  const cursorRows = new Map();
  const countReply = (message) => {
    const row = awaiting.get(message.readInt32LE(8));
    if (!row) return;
    awaiting.delete(message.readInt32LE(8));
    row.replyBytes += message.length;
    if (row.kind === 'find' && message.readInt32LE(12) === 2013 && message[20] === 0) {
      const reply = BSON.deserialize(message.subarray(21), { promoteLongs: false });
      const cursorId = reply.cursor?.id?.toString();
      if (cursorId && cursorId !== '0') cursorRows.set(cursorId, row);
    }
  };
  const count = (message) => {
    if (message.readInt32LE(12) !== 2013) return;
    let offset = 20;
    let body;
    let statements = 0;
    while (offset < message.length) {
      const kind = message[offset];
      if (kind === 0) {
        const size = message.readInt32LE(offset + 1);
        body = BSON.deserialize(message.subarray(offset + 1, offset + 1 + size), { promoteBuffers: true });
        offset += 1 + size;
      } else {
        const size = message.readInt32LE(offset + 1);
        let inner = offset + 5;
        inner += message.indexOf(0, inner) - inner + 1;
        while (inner < offset + 1 + size) {
          statements += 1;
          inner += message.readInt32LE(inner);
        }
        offset += 1 + size;
      }
    }
    if (!body) return;
    const command = Object.keys(body)[0];
    if (['hello', 'isMaster', 'ismaster', 'ping', 'endSessions'].includes(command)) return;
    // getMore names its collection in a field of its own.
    const collection = typeof body[command] === 'string' ? body[command] : typeof body.collection === 'string' ? body.collection : '';
    for (const field of ['documents', 'updates', 'deletes']) if (Array.isArray(body[field])) statements += body[field].length;
    // A find is told apart by its filter's fields, and its getMores count with it.
    const key = command === 'find' ? `find ${collection} ${Object.keys(body.filter ?? {}).join(',')}` : `${command} ${collection}`;
    const continued = command === 'getMore' ? cursorRows.get(body.getMore.toString()) : undefined;
    if (continued) {
      continued.getMores += 1;
      awaiting.set(message.readInt32LE(4), continued);
      return;
    }
    const row = counts.get(key) ?? { kind: command, commands: 0, statements: 0, bytes: 0, replyBytes: 0, getMores: 0 };
    row.commands += 1;
    row.statements += statements;
    row.bytes += message.length;
    counts.set(key, row);
    awaiting.set(message.readInt32LE(4), row);
  };
  const server = net.createServer((socket) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    let pending = Buffer.alloc(0);
    socket.on('data', (data) => {
      upstream.write(data);
      pending = Buffer.concat([pending, data]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        count(pending.subarray(0, length));
        pending = pending.subarray(length);
      }
    });
    let replies = Buffer.alloc(0);
    upstream.on('data', (data) => {
      socket.write(data);
      replies = Buffer.concat([replies, data]);
      while (replies.length >= 4 && replies.length >= replies.readInt32LE(0)) {
        const length = replies.readInt32LE(0);
        countReply(replies.subarray(0, length));
        replies = replies.subarray(length);
      }
    });
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(targetUrl);
  url.port = String(server.address().port);
  return { url: url.toString(), counts, reset: () => counts.clear(), stop: () => new Promise((resolve) => server.close(resolve)) };
}

async function startMongoStandIn(dataDir) {
  if (mongoKind === 'in-process') return startMongo({ port: 0, dataDir });
  const standIn = await startStandInProcess('mongo', dataDir, (process.env.BENCH_MONGO_NODE_ARGS ?? '--max-semi-space-size=64').split(' ').filter(Boolean));
  return { ...standIn, scanStatistics: () => 'n/a (stand-in in its own process)' };
}

/** User + system CPU time of another process in ms (clock ticks of /proc/<pid>/stat). */
function cpuMsOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** CPU milliseconds of every thread of this process by Linux thread id. */
function allThreadsCpu() {
  const threads = new Map();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      threads.set(Number(tid), { cpuMs: threadCpuMsOf(tid) });
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return threads;
}

/** CPU milliseconds of one thread of this process (Linux). */
function threadCpuMsOf(tid) {
  const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function rssOf(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}
// Every 10,000 references (and the end), so the rate's fall as the store grows is visible.
const checkpoints = [...Array.from({ length: Math.floor(total / 10_000) }, (_, index) => (index + 1) * 10_000), ...(total % 10_000 === 0 ? [] : [total])];

// Deterministic references shared with the whole-pipeline benchmark.
const { createReferenceGenerator } = require('../support/references');

async function parseOnly(file) {
  const started = performance.now();
  let lines = 0;
  for await (const line of readLines(fs.createReadStream(file), 10 * 1024 * 1024)) {
    const validated = validateImportLine(line.text, line.number);
    if (validated.kind === 'valid') JSON.stringify(validated.reference);
    lines += 1;
  }
  return { lines, ms: performance.now() - started };
}

/** Sums the services' per-chunk debug timings. */
function timingLogger() {
  const totals = { results_ms: 0, validate_ms: 0, ingest_ms: 0, dedup_ms: 0, chunks: 0, dedupJobs: 0 };
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      for (const text of chunk.toString('utf8').split('\n')) {
        if (text === '') continue;
        const entry = JSON.parse(text);
        if (entry.level >= 40) console.error(`${entry.service ?? ''} ${entry.msg} ${entry.err?.message ?? entry.reason ?? ''}`);
        if (entry.msg === 'import chunk recorded') {
          totals.results_ms += entry.results_ms;
          totals.validate_ms += entry.validate_ms;
          totals.ingest_ms += entry.ingest_ms;
          totals.chunks += 1;
        } else if (entry.msg === 'deduplication job processed') {
          totals.dedup_ms += entry.dedup_ms;
          totals.dedupJobs += 1;
        }
      }
      callback();
    },
  });
  return { totals, logger: (service) => platform.createLogger({ service, level: 'debug', destination }) };
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-import-bench-'));
  const file = path.join(dir, 'references.jsonl');
  const bytes = createReferenceGenerator().writeFile(file, total);
  console.log(`file: ${total} references, ${(bytes / 1024 / 1024).toFixed(1)} MB, ${Math.round(bytes / total)} bytes/line`);
  const parse = await parseOnly(file);
  console.log(`parse+validate only (one core): ${Math.round(parse.ms)} ms (${Math.round((parse.lines / parse.ms) * 1000)} lines/s)`);

  const mongo = await startMongoStandIn(path.join(dir, 'mongo'));
  const warmUpFile = path.join(dir, 'warm-up.jsonl');
  if (warmUp > 0) createReferenceGenerator({ seed: 7 }).writeFile(warmUpFile, warmUp, total);
  const server = http.createServer((request, response) => fs.createReadStream(request.url === '/warm-up.jsonl' ? warmUpFile : file).pipe(response));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const timing = timingLogger();
  const namespace = `import-bench-${process.pid}`;
  const bus = busKind === 'rabbitmq' ? undefined : platform.createInProcessBus();
  const shared = bus && new Proxy(bus, { get: (target, property) => (property === 'close' ? async () => undefined : Reflect.get(target, property, target)) });
  const counter = countCommands ? await startCommandCounter(mongo.url) : undefined;
  const env = { MONGODB_URL: counter ? counter.url : mongo.url, GRPC_PORT: '0', HEALTH_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'debug', AMQP_NAMESPACE: namespace };
  const overrides = (name) => ({ logger: timing.logger(name), ...(shared ? { createBus: async () => shared } : {}) });
  const start = (name, starter, serviceEnv) => startService({ root, threaded, bus: shared, name, starter, env: serviceEnv, overrides: overrides(name) });
  const dedup = await start('dedup-service', startDedupService, env);
  const imports = await start('import-service', startImportService, { ...env, DEDUP_SERVICE_GRPC_URL: `127.0.0.1:${dedup.grpcPort}`, OUTBOUND_ALLOWLIST: '127.0.0.0/8', ...(chunkSize ? { IMPORT_CHUNK_SIZE: chunkSize } : {}) });
  if (drainEvents && shared) {
    const { QUEUES } = req('packages/contracts/dist/index.js');
    for (const queue of [QUEUES.searchRequestServiceReferenceChanged, QUEUES.percolatorReferenceChanged]) {
      await shared.consume(`${namespace}.${queue}`, async () => ({ outcome: 'ack' }), { prefetch: 500 });
    }
  }
  const reader = await new (require('mongodb').MongoClient)(mongo.url).connect();
  const protos = loadDestinyProtos();
  const client = platform.createGrpcClient(protos.destiny.import_service.ImportService, `127.0.0.1:${imports.grpcPort}`);
  const unary = (method, request) => platform.callUnary(client, client[method], request);
  const db = (name) => reader.db(name);

  const decisions = db('destiny_dedup').collection('duplicate_decisions');
  const decidedCount = async () => (await decisions.estimatedDocumentCount()) - (await decisions.countDocuments({ duplicate_determination: 'pending' }));
  const createRecord = async (count) => JSON.parse((await unary('CreateImportRecord', { json: JSON.stringify({ processor_name: 'bench', processor_version: '1', expected_reference_count: count, source_name: 'bench' }) })).json);
  const registerBatch = async (importRecord, name) => JSON.parse((await unary('RegisterImportBatch', { import_record_id: importRecord.id, batch_json: JSON.stringify({ storage_url: `http://127.0.0.1:${server.address().port}/${name}` }) })).json);
  if (warmUp > 0) {
    const warming = performance.now();
    const warmUpBatch = await registerBatch(await createRecord(warmUp), 'warm-up.jsonl');
    for (;;) {
      const progress = await db('destiny_import').collection('import_batches').findOne({ _id: warmUpBatch.id }, { projection: { next_line: 1 } });
      if (progress.next_line - 1 >= warmUp && (await decidedCount()) >= warmUp) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.log(`warm-up (not measured): ${warmUp} other references imported and decided in ${((performance.now() - warming) / 1000).toFixed(1)} s`);
  }
  // The stage times below are the measured batch's alone.
  for (const name of Object.keys(timing.totals)) timing.totals[name] = 0;
  const decidedBefore = await decidedCount();
  const record = await createRecord(total);
  counter?.reset();
  const started = performance.now();
  const cpuStart = { services: process.cpuUsage(), mongo: mongo.pid ? cpuMsOf(mongo.pid) : 0 };
  const threadIds = [['main thread', process.pid], ...[['dedup-service', dedup], ['import-service', imports]].filter(([, service]) => service.osThreadId).map(([name, service]) => [`${name} thread`, service.osThreadId])];
  const threadCpuStart = threadIds.map(([, tid]) => threadCpuMsOf(tid));
  const allThreadsStart = allThreadsCpu();
  const batch = await registerBatch(record, 'references.jsonl');
  const marks = {};
  let importedMs;
  let peakRss = 0;
  for (;;) {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    // Progress from the batch document (every line before next_line has its terminal result).
    const progress = await db('destiny_import').collection('import_batches').findOne({ _id: batch.id }, { projection: { next_line: 1 } });
    const recorded = progress.next_line - 1;
    const decided = (await decidedCount()) - decidedBefore;
    for (const checkpoint of checkpoints) {
      if (!marks[checkpoint] && recorded >= checkpoint && decided >= checkpoint) {
        const servicesSoFar = process.cpuUsage(cpuStart.services);
        marks[checkpoint] = { ms: performance.now() - started, servicesCpuMs: (servicesSoFar.user + servicesSoFar.system) / 1000, mongoCpuMs: mongo.pid ? cpuMsOf(mongo.pid) - cpuStart.mongo : 0 };
      }
    }
    if (importedMs === undefined && recorded >= total) importedMs = performance.now() - started;
    if (recorded >= total && decided >= total) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const totalMs = performance.now() - started;
  const servicesCpu = process.cpuUsage(cpuStart.services);
  const cpu = { services: (servicesCpu.user + servicesCpu.system) / 1000, mongo: mongo.pid ? cpuMsOf(mongo.pid) - cpuStart.mongo : 0 };
  const threadCpu = threadIds.map(([name, tid], index) => `${name} ${Math.round(threadCpuMsOf(tid) - threadCpuStart[index])} ms`);
  // The other threads: V8's platform workers (concurrent compilation, parallel and concurrent GC)
  // and libuv's pool; on Node 20 they all carry the name "node", so only their CPU is told apart.
  const knownThreads = new Set(threadIds.map(([, tid]) => Number(tid)));
  const otherThreadsCpu = [...allThreadsCpu()].filter(([tid]) => !knownThreads.has(tid)).map(([tid, thread]) => thread.cpuMs - (allThreadsStart.get(tid)?.cpuMs ?? 0));
  const summaryReads = [];
  let summary;
  for (let read = 0; read < 2; read += 1) {
    const reading = performance.now();
    summary = JSON.parse((await unary('GetImportBatchSummary', { import_record_id: record.id, import_batch_id: batch.id })).json);
    summaryReads.push(Math.round(performance.now() - reading));
  }
  const determinations = await db('destiny_dedup').collection('duplicate_decisions').aggregate([{ $group: { _id: '$duplicate_determination', count: { $sum: 1 } } }]).toArray();

  console.log(`threads: ${threaded.length ? threaded.join(', ') : 'none'}; bus: ${busKind}${drainEvents ? ' (events drained)' : ''}; semi-space: ${semiSpaceLabel(semiSpace)}; batch ${summary.import_batch_status}; results ${JSON.stringify(summary.results)}`);
  console.log(`batch summary read through ImportService: ${summaryReads.join(' ms, then ')} ms`);
  console.log(`determinations${warmUp > 0 ? ' (warm-up included)' : ''}: ${determinations.map((row) => `${row._id}=${row.count}`).join(', ')}`);
  // Checkpoints are read every 500 ms, so each interval's figures are good to about that.
  console.log('recorded and decided: first N at T s; since the line before: wall s, references/s, CPU ms per reference (services + stand-in)');
  let previous = { count: 0, ms: 0, servicesCpuMs: 0, mongoCpuMs: 0 };
  for (const checkpoint of checkpoints) {
    const mark = marks[checkpoint];
    const count = checkpoint - previous.count;
    const wall = mark.ms - previous.ms;
    const cpuPerReference = (ms) => (ms / count).toFixed(2);
    console.log(
      `  first ${String(checkpoint).padStart(6)} at ${(mark.ms / 1000).toFixed(1).padStart(5)} s; last ${count}: ${(wall / 1000).toFixed(1)} s, ${Math.round((count / wall) * 1000)}/s, CPU ${cpuPerReference(mark.servicesCpuMs - previous.servicesCpuMs)} + ${cpuPerReference(mark.mongoCpuMs - previous.mongoCpuMs)} ms`,
    );
    previous = { count: checkpoint, ...mark };
  }
  console.log(`all results recorded: ${(importedMs / 1000).toFixed(1)} s; all decided: ${(totalMs / 1000).toFixed(1)} s => ${Math.round((total / totalMs) * 1000)} references/s end to end`);
  const perReference = (ms) => `${(ms / total).toFixed(2)} ms/reference`;
  if (mongo.pid) console.log(`CPU time: services process (all its threads) ${Math.round(cpu.services)} ms (${perReference(cpu.services)}), MongoDB stand-in ${Math.round(cpu.mongo)} ms (${perReference(cpu.mongo)}); load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  else console.log(`CPU time (services + MongoDB stand-in): ${Math.round(cpu.services)} ms (${perReference(cpu.services)}); load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  console.log(`CPU time by thread (JavaScript threads; V8's helper threads make up the rest): ${threadCpu.join(', ')}`);
  console.log(`other threads (V8's platform workers, libuv's pool): ${Math.round(otherThreadsCpu.reduce((sum, ms) => sum + ms, 0))} ms over ${otherThreadsCpu.filter((ms) => ms > 0).length} busy threads: ${otherThreadsCpu.filter((ms) => ms > 0).map((ms) => Math.round(ms)).join(', ')} ms`);
  if (counter) {
    console.log(`MongoDB commands per reference from the services (command collection: commands, statements, request KB, reply KB):`);
    const rows = [...counter.counts].sort((a, b) => b[1].bytes - a[1].bytes);
    for (const [key, row] of rows) console.log(`  ${key.padEnd(70)} ${(row.commands / total).toFixed(3).padStart(7)} ${(row.statements / total).toFixed(2).padStart(6)} ${(row.bytes / total / 1024).toFixed(2).padStart(7)} ${(row.replyBytes / total / 1024).toFixed(2).padStart(7)}`);
    const sum = rows.reduce((acc, [, row]) => ({ commands: acc.commands + row.commands, statements: acc.statements + row.statements, bytes: acc.bytes + row.bytes, replyBytes: acc.replyBytes + row.replyBytes }), { commands: 0, statements: 0, bytes: 0, replyBytes: 0 });
    console.log(`  ${'total'.padEnd(70)} ${(sum.commands / total).toFixed(3).padStart(7)} ${(sum.statements / total).toFixed(2).padStart(6)} ${(sum.bytes / total / 1024).toFixed(2).padStart(7)} ${(sum.replyBytes / total / 1024).toFixed(2).padStart(7)}`);
  }
  const t = timing.totals;
  const share = (ms) => `${Math.round(ms)} ms (${Math.round((ms / totalMs) * 100)}% of wall time)`;
  if (threaded.length === 0) {
    console.log(`stage time (summed over ${t.chunks} chunks / ${t.dedupJobs} dedup jobs; stages overlap):`);
    console.log(`  download, line split and waiting (wall time minus validation and ingest): ${share(importedMs - t.validate_ms - t.ingest_ms)}`);
    console.log(`  validate lines: ${share(t.validate_ms)}`);
    console.log(`  ingest (IngestReferences round trips): ${share(t.ingest_ms)}`);
    console.log(`  record results (overlaps the next chunk's ingest): ${share(t.results_ms)}`);
    console.log(`  deduplication jobs: ${share(t.dedup_ms)}`);
  }
  const servicesRss = Math.round(Math.max(peakRss, process.resourceUsage().maxRSS * 1024) / 1024 / 1024);
  if (mongo.pid) console.log(`peak RSS: services ${servicesRss} MB, MongoDB stand-in process ${Math.round(rssOf(mongo.pid))} MB`);
  else console.log(`peak RSS (services + MongoDB stand-in in one process): ${servicesRss} MB`);

  if (process.argv.includes('--scans')) {
    for (const [database, names] of [['destiny_import', ['import_results', 'import_batches']], ['destiny_dedup', ['references', 'identifiers', 'duplicate_decisions', 'blocking_keys', 'ingest_outcomes']]]) {
      for (const name of names) console.log(`scan ${database}.${name}: ${JSON.stringify(mongo.scanStatistics(database, name))}`);
    }
  }
  client.close();
  await reader.close();
  await imports.stop();
  await dedup.stop();
  await bus?.close();
  await counter?.stop();
  await mongo.stop();
  server.close();
  await new Promise((resolve) => setTimeout(resolve, 100));
  fs.rmSync(dir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
