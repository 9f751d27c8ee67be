// Whole-pipeline benchmark (issues #7 and #9): a real import into the embedded default, started
// as `npm start` runs it (the built launcher as its own process, with its own data folder and free
// ports), with 20 robots × 5 automations registered, while the bench samples over time how far each
// stage has got: import results recorded, duplicate decisions made, references searchable, pending
// enhancements created by percolation. Then the typical searches of bench/reference-search go
// through the gateway on the store the import built.
// Run from the repository root after building:
//   node node_modules/typescript/bin/tsc -b tsconfig.build.json && node bench/pipeline/pipeline.bench.js [--references 100000]
// Options: --references N (lines imported), --queries N (searches timed), --bus auto|rabbitmq|in-process
// (auto: RabbitMQ when reachable, as `npm start` decides), --interval ms (sampling period);
// --layout embedded|cluster (cluster: `npm run start:cluster`, each service its own process, RabbitMQ);
// --hold F (cluster only: search-request-service and percolator are frozen with SIGSTOP from the
// batch registration; search-request-service is resumed once the import has recorded the fraction F
// of its lines, the percolator once indexing has caught up, so each one's catch-up rate is measured
// on its own while the import goes on);
// BENCH_PROFILE_DIR=<dir> writes a CPU profile of the embedded default.
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');

const root = path.resolve(__dirname, '..', '..');
const { createReferenceGenerator } = require('../support/references');
const { automations } = require('../support/automations');
const { typicalQuery, queryString } = require('../support/queries');
const { cpuSecondsOf, latencySummary, loadAverage } = require('../support/measure');
const { requestDevelopmentToken, resolveIdentityUrl } = require(path.join(root, 'packages/devstack/dist/identity/token.client.js'));
const { MongoClient } = require(require.resolve('mongodb', { paths: [path.join(root, 'services/dedup-service')] }));
const amqplib = require('amqplib');
const { TOPOLOGY } = require(path.join(root, 'packages/contracts/dist/index.js'));
const { createAmqpConnection, createLogger, namespacedBus } = require(path.join(root, 'packages/platform/dist/index.js'));

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const TOTAL = Number(option('references', '100000'));
const QUERIES = Number(option('queries', '300'));
const BUS = option('bus', 'auto');
const INTERVAL_MS = Number(option('interval', '1000'));
const LAYOUT = option('layout', 'embedded');
const HOLD = Number(option('hold', '0'));
// The services whose catch-up `--hold` measures, with the stage each one drives and its queue.
const HELD = [
  { service: 'search-request-service', stage: 'indexed', queue: 'index_queue' },
  { service: 'percolator', stage: 'pending', queue: 'percolate_queue' },
];
const ROBOTS = 20;
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
// A stage is finished once its count has not moved for this long (and, on RabbitMQ, its queue is empty).
const SETTLE_MS = 5000;
const TIMEOUT_MS = Number(option('timeout', '3600')) * 1000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

async function freePorts(count) {
  const servers = await Promise.all(Array.from({ length: count }, () => new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  })));
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

function tcpReachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 5672) });
    const done = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The embedded default as `npm start` runs it (the built launcher in its own process), or with
 * `--layout cluster` as `npm run start:cluster` runs it (stand-ins in the launcher, each service a
 * process of its own; their pids come from the launcher's `cluster started` line).
 */
async function startEmbeddedDefault(dataDir, ports, env) {
  const profile = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const cli = LAYOUT === 'cluster' ? 'cluster.cli.js' : 'launcher.cli.js';
  const child = spawn(process.execPath, ['--max-semi-space-size=64', ...profile, path.join(root, 'packages/devstack/dist/launcher', cli)], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      DESTINY_DATA_DIR: dataDir,
      DESTINY_PORT: String(ports.api),
      DESTINY_MONGO_PORT: String(ports.mongo),
      DESTINY_SEARCH_PORT: String(ports.search),
      DESTINY_BLOB_PORT: String(ports.blob),
      DESTINY_IDENTITY_PORT: String(ports.identity),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const warnings = [];
  const services = {};
  const ready = new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('is running.') && LAYOUT !== 'cluster') resolve();
      if (!line.startsWith('{')) return;
      if (line.includes('"cluster started"')) {
        Object.assign(services, JSON.parse(line).services);
        resolve();
        return;
      }
      // Services log warnings and errors only (the launcher's default level); keep a few to show.
      try {
        const entry = JSON.parse(line);
        if (entry.level >= 40 && warnings.length < 20) {
          warnings.push(`${entry.service ?? ''} ${entry.msg} ${entry.err?.message ?? ''}`.trim());
          console.error(`[embedded default] ${warnings[warnings.length - 1]}`);
        }
      } catch (_error) {
        // Not a log line.
      }
    });
    child.once('exit', (code) => reject(new Error(`the embedded default exited with ${code} before it was ready`)));
  });
  await ready;
  child.removeAllListeners('exit');
  return {
    pid: child.pid,
    // Every process of the system: the launcher and, in the cluster layout, each service.
    pids: [child.pid, ...Object.values(services).map((service) => service.pid)],
    services,
    warnings,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', resolve);
      child.kill('SIGTERM');
    }),
  };
}

/** VmHWM (peak resident set) of a process in MB. */
function peakRssMb(pid) {
  try {
    return Math.round(Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024);
  } catch (_error) {
    return NaN;
  }
}

/** The RabbitMQ server process on this machine, when there is one (its CPU is part of the pipeline's). */
function rabbitMqPid() {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'beam.smp') return Number(entry);
    } catch (_error) {
      // Gone meanwhile.
    }
  }
  return undefined;
}

/** First sample time (ms) at which `key` reached `fraction` of its final value. */
function reachedAt(samples, key, final, fraction) {
  const target = Math.ceil(final * fraction);
  return samples.find((sample) => sample[key] >= target)?.ms;
}

function stageSummary(samples, key, final, importSamples) {
  const at = (fraction) => reachedAt(samples, key, final, fraction);
  const importAt = (fraction) => reachedAt(importSamples, 'recorded', TOTAL, fraction);
  const done = at(1);
  const steady = at(0.9) !== undefined && at(0.1) !== undefined && at(0.9) > at(0.1) ? (0.8 * final) / ((at(0.9) - at(0.1)) / 1000) : undefined;
  const importDone = importAt(1);
  const whileImporting = importDone === undefined ? undefined : [...samples].reverse().find((sample) => sample.ms <= importDone)?.[key];
  return {
    final,
    done_s: done === undefined ? null : round(done / 1000),
    per_s_overall: done === undefined ? null : Math.round(final / (done / 1000)),
    per_s_between_10_and_90_percent: steady === undefined ? null : Math.round(steady),
    // How far behind the import each fraction of the stage's work was finished.
    lag_s: Object.fromEntries([0.5, 0.9, 1].map((fraction) => [`${fraction * 100}%`, at(fraction) === undefined || importAt(fraction) === undefined ? null : round((at(fraction) - importAt(fraction)) / 1000)])),
    done_when_import_finished: whileImporting === undefined ? null : whileImporting,
  };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-bench-pipeline-'));
  const file = path.join(dataDir, 'references.jsonl');
  // Each line's enhancements come from one of the providers the robots' automations watch.
  const generator = createReferenceGenerator({ source: (i) => `provider-${i % ROBOTS}` });
  const bytes = generator.writeFile(file, TOTAL);
  console.error(`file: ${TOTAL} references, ${round(bytes / 1024 / 1024)} MB`);

  const useRabbitMq = BUS === 'rabbitmq' || (BUS === 'auto' && (await tcpReachable(AMQP_URL)));
  if (LAYOUT === 'cluster' && !useRabbitMq) throw new Error('--layout cluster needs RabbitMQ');
  if (HOLD > 0 && LAYOUT !== 'cluster') throw new Error('--hold needs --layout cluster (a frozen service must be a process of its own)');
  const namespace = `bench-pipeline-${crypto.randomBytes(4).toString('hex')}`;
  // An unreachable broker address makes the launcher fall back to its in-process bus.
  const busEnv = useRabbitMq ? { AMQP_URL, AMQP_NAMESPACE: namespace } : { AMQP_URL: 'amqp://guest:guest@127.0.0.1:1' };
  const [api, mongo, search, blob, identity] = await freePorts(5);
  const ports = { api, mongo, search, blob, identity };
  const systemDir = path.join(dataDir, 'destiny');
  const launchStarted = process.hrtime.bigint();
  const system = await startEmbeddedDefault(systemDir, ports, busEnv);
  const startupSeconds = Number(process.hrtime.bigint() - launchStarted) / 1e9;
  console.error(`embedded default up in ${round(startupSeconds)} s (bus: ${useRabbitMq ? 'RabbitMQ' : 'in-process'})`);

  const fileServer = http.createServer((_request, response) => fs.createReadStream(file).pipe(response));
  await new Promise((resolve) => fileServer.listen(0, '127.0.0.1', resolve));
  const mongoClient = await MongoClient.connect(`mongodb://127.0.0.1:${ports.mongo}/?directConnection=true`);
  const amqp = useRabbitMq ? await amqplib.connect(AMQP_URL) : undefined;
  // The broker closes a channel whose passive check failed; the next check opens a new one.
  let channel;
  const openChannel = async () => {
    channel = await amqp.createChannel();
    channel.on('error', () => undefined);
    channel.on('close', () => (channel = undefined));
    return channel;
  };
  if (amqp) await openChannel();
  try {
    // `npm run token` logic: the identity server found through the data folder, the admin client.
    const identityUrl = resolveIdentityUrl({ DESTINY_DATA_DIR: systemDir }, root);
    const adminToken = await requestDevelopmentToken(identityUrl, 'admin');
    const readerToken = await requestDevelopmentToken(identityUrl, 'reader');
    const apiUrl = `http://127.0.0.1:${ports.api}/v1`;
    const send = async (method, route, body, token = adminToken) => {
      const response = await fetch(`${apiUrl}${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      if (response.status >= 300) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
      return text ? JSON.parse(text) : undefined;
    };

    const robots = [];
    for (let n = 0; n < ROBOTS; n += 1) robots.push((await send('POST', '/robots/', { name: `pipeline-robot-${n}`, description: 'bench', owner: 'bench' })).id);
    const registerStarted = process.hrtime.bigint();
    for (const automation of automations(robots)) await send('POST', '/enhancement-requests/automations/', automation);
    const registerMs = Number(process.hrtime.bigint() - registerStarted) / 1e6;

    const importDb = mongoClient.db('destiny_import');
    const dedupDb = mongoClient.db('destiny_dedup');
    const pendingCollection = mongoClient.db('destiny_robot_broker').collection('pending_enhancements');
    const decisions = dedupDb.collection('duplicate_decisions');
    const searchable = async () => {
      const response = await fetch(`http://127.0.0.1:${ports.search}/reference/_count`);
      return response.status === 200 ? (await response.json()).count : 0;
    };
    const queueDepth = async (queue) => (amqp ? (await (channel ?? (await openChannel())).checkQueue(`${namespace}.${queue}`)).messageCount : 0);

    const record = await send('POST', '/imports/records/', { processor_name: 'pipeline-bench', processor_version: '1', expected_reference_count: TOTAL, source_name: 'bench' });
    const rabbitPid = useRabbitMq ? rabbitMqPid() : undefined;
    const systemCpu = () => system.pids.reduce((total, pid) => total + cpuSecondsOf(pid), 0);
    const cpuBefore = { system: systemCpu(), rabbitmq: rabbitPid ? cpuSecondsOf(rabbitPid) : NaN, bench: process.cpuUsage() };
    const started = process.hrtime.bigint();
    const held = HOLD > 0 ? HELD.map((entry) => ({ ...entry, pid: system.services[entry.service]?.pid })) : [];
    for (const entry of held) process.kill(entry.pid, 'SIGSTOP');
    const batch = await send('POST', `/imports/records/${record.id}/batches/`, { storage_url: `http://127.0.0.1:${fileServer.address().port}/references.jsonl` });

    const samples = [];
    let expectedSearchable;
    let settledSince;
    for (;;) {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      let reads;
      try {
        reads = await Promise.all([
          importDb.collection('import_batches').findOne({ _id: batch.id }, { projection: { next_line: 1 } }),
          decisions.estimatedDocumentCount(),
          decisions.countDocuments({ duplicate_determination: 'pending' }),
          dedupDb.collection('references').countDocuments({ outbox_pending: true }),
          searchable(),
          pendingCollection.estimatedDocumentCount(),
          queueDepth('search-request-service.reference-changed'),
          queueDepth('percolator.reference-changed'),
        ]);
      } catch (error) {
        // A failed read (e.g. a kept-alive connection the stand-in closed meanwhile) costs one sample, not the run.
        console.error(`${round(ms / 1000)} s: sample skipped (${error.cause?.code ?? error.message})`);
        await sleep(INTERVAL_MS);
        continue;
      }
      const [progress, total, undecided, unpublished, indexed, pending, indexQueue, percolateQueue] = reads;
      const sample = { ms, recorded: Math.max(0, (progress?.next_line ?? 1) - 1), decided: total - undecided, unpublished, indexed, pending, index_queue: indexQueue, percolate_queue: percolateQueue, system_cpu_s: systemCpu() - cpuBefore.system };
      samples.push(sample);
      // One at a time, so that neither catch-up competes with the other, only with the import.
      const next = held.find((entry) => !entry.resumed);
      const released = held[held.indexOf(next) - 1];
      // Queue depth leaves out the prefetched events (up to 4,000 for indexing): empty means nearly caught up.
      if (next && (released ? sample[released.queue] === 0 && ms - released.resumed.ms > 2000 : sample.recorded >= HOLD * TOTAL)) {
        process.kill(next.pid, 'SIGCONT');
        next.resumed = sample;
        console.error(`${round(ms / 1000)} s: resumed ${next.service} with ${sample[next.queue]} events queued`);
      }
      if (samples.length % Math.max(1, Math.round(5000 / INTERVAL_MS)) === 0) {
        console.error(`${round(ms / 1000)} s: recorded ${sample.recorded}, decided ${sample.decided}, references with unpublished events ${unpublished}, searchable ${indexed}, pending enhancements ${pending}${amqp ? `, queued for indexing ${indexQueue} / percolation ${percolateQueue}` : ''}; load ${loadAverage().join(' ')}`);
      }
      if (expectedSearchable === undefined && sample.recorded >= TOTAL && sample.decided >= TOTAL) {
        // Every reference but the duplicates is searchable once indexing has caught up.
        expectedSearchable = TOTAL - (await decisions.countDocuments({ duplicate_determination: 'duplicate' }));
      }
      const previous = samples[samples.length - 2];
      const still = previous && previous.pending === sample.pending && previous.indexed === sample.indexed && indexQueue === 0 && percolateQueue === 0;
      if (expectedSearchable !== undefined && indexed >= expectedSearchable && still) {
        settledSince ??= ms;
        if (ms - settledSince >= SETTLE_MS) break;
      } else {
        settledSince = undefined;
      }
      if (ms > TIMEOUT_MS) throw new Error(`the pipeline did not settle within ${TIMEOUT_MS / 1000} s: ${JSON.stringify(sample)}`);
      await sleep(INTERVAL_MS);
    }
    const benchCpu = process.cpuUsage(cpuBefore.bench);
    const last = samples[samples.length - 1];
    const cpu = {
      embedded_default: last.system_cpu_s,
      rabbitmq: rabbitPid ? cpuSecondsOf(rabbitPid) - cpuBefore.rabbitmq : null,
      bench_process: (benchCpu.user + benchCpu.system) / 1e6,
    };
    const determinations = await decisions.aggregate([{ $group: { _id: '$duplicate_determination', count: { $sum: 1 } } }]).toArray();
    const importSamples = samples;
    const stages = {
      import_results_recorded: stageSummary(samples, 'recorded', TOTAL, importSamples),
      duplicate_decisions: stageSummary(samples, 'decided', last.decided, importSamples),
      searchable: stageSummary(samples, 'indexed', last.indexed, importSamples),
      pending_enhancements: stageSummary(samples, 'pending', last.pending, importSamples),
    };
    // Ten points of the timeline, for the README.
    const timeline = Array.from({ length: 10 }, (_, k) => samples[Math.min(samples.length - 1, Math.round(((k + 1) * samples.length) / 10) - 1)]).map((sample) => ({
      s: round(sample.ms / 1000),
      recorded: sample.recorded,
      decided: sample.decided,
      unpublished: sample.unpublished,
      searchable: sample.indexed,
      pending_enhancements: sample.pending,
      ...(amqp ? { queued_index: sample.index_queue, queued_percolate: sample.percolate_queue } : {}),
      system_cpu_s: round(sample.system_cpu_s),
    }));
    const loadAfterImport = loadAverage();
    // From the resume until a held service has worked off the backlog it had then (its final count
    // scaled to the lines recorded by then; prefetched events are not in the queue depth): all that
    // time it had work waiting, so its rate is its capacity while the import goes on.
    const catchUp = held.length > 0
      ? Object.fromEntries(
          held.map(({ service, stage, resumed }) => {
            if (!resumed) return [service, null];
            const levelAtResume = Math.floor((resumed.recorded * last[stage]) / TOTAL);
            const caughtUp = samples.find((sample) => sample.ms > resumed.ms && sample[stage] >= levelAtResume);
            if (!caughtUp || levelAtResume <= resumed[stage]) return [service, null];
            const seconds = (caughtUp.ms - resumed.ms) / 1000;
            return [
              service,
              {
                backlog_at_resume: levelAtResume - resumed[stage],
                seconds: round(seconds),
                per_s: Math.round((caughtUp[stage] - resumed[stage]) / seconds),
                import_per_s_meanwhile: Math.round((caughtUp.recorded - resumed.recorded) / seconds),
                import_still_running: caughtUp.recorded < TOTAL,
              },
            ];
          }),
        )
      : undefined;

    // Typical searches through the gateway on the store the import built.
    const word = () => generator.pick(generator.vocabulary);
    const surname = () => generator.pick(generator.surnames);
    const latencies = [];
    const byKind = Array.from({ length: 8 }, () => []);
    let hits = 0;
    let answerBytes = 0;
    const searchVia = async (parameters) => {
      const response = await fetch(`${apiUrl}/references/search/?${queryString(parameters)}`, { headers: { authorization: `Bearer ${readerToken}` } });
      const text = await response.text();
      if (response.status !== 200) throw new Error(`search answered ${response.status}: ${text}`);
      return { body: JSON.parse(text), bytes: text.length };
    };
    for (let n = 0; n < 20; n += 1) await searchVia(typicalQuery(n, { word, surname, random: generator.random }));
    const searchCpuBefore = systemCpu();
    for (let n = 0; n < QUERIES; n += 1) {
      const parameters = typicalQuery(n, { word, surname, random: generator.random });
      const queryStarted = process.hrtime.bigint();
      const { body, bytes: size } = await searchVia(parameters);
      const ms = Number(process.hrtime.bigint() - queryStarted) / 1e6;
      latencies.push(ms);
      byKind[n % 8].push(ms);
      hits += body.total.count;
      answerBytes += size;
    }
    const searchCpu = systemCpu() - searchCpuBefore;

    const perReference = (seconds) => round((seconds * 1000) / TOTAL, 2);
    console.log(JSON.stringify({
      references: TOTAL,
      file_mb: round(bytes / 1024 / 1024),
      bus: useRabbitMq ? 'rabbitmq' : 'in-process',
      layout: LAYOUT,
      ...(catchUp ? { held_until_fraction_recorded: HOLD, catch_up: catchUp } : {}),
      robots: ROBOTS,
      automations: robots.length * 5,
      startup_s: round(startupSeconds),
      register_automation_ms_each: round(registerMs / (robots.length * 5)),
      determinations: Object.fromEntries(determinations.map((row) => [row._id, row.count])),
      stages,
      cpu_seconds_during_pipeline: Object.fromEntries(Object.entries(cpu).map(([key, value]) => [key, value === null ? null : round(value)])),
      cpu_ms_per_reference: Object.fromEntries(Object.entries(cpu).filter(([, value]) => value !== null).map(([key, value]) => [key, perReference(value)])),
      peak_rss_mb: LAYOUT === 'cluster' ? Object.fromEntries([['launcher', peakRssMb(system.pid)], ...Object.entries(system.services).map(([name, service]) => [name, peakRssMb(service.pid)])]) : { embedded_default: peakRssMb(system.pid) },
      load_average_after_pipeline: loadAfterImport,
      timeline,
      search_via_gateway: { ...latencySummary(latencies), by_kind: byKind.map((kind, index) => ({ kind: index, ...latencySummary(kind) })), average_total_hits: Math.round(hits / QUERIES), average_answer_kb: Math.round(answerBytes / QUERIES / 1024), system_cpu_ms_per_search: round((searchCpu * 1000) / QUERIES) },
      load_average_at_end: loadAverage(),
      service_warnings: system.warnings,
    }, null, 2));
  } finally {
    // A frozen process would not act on SIGTERM.
    for (const pid of system.pids) process.kill(pid, 'SIGCONT');
    await mongoClient.close();
    fileServer.close();
    await system.stop();
    if (amqp) {
      await amqp.close().catch(() => undefined);
      // The services declared their queues in this run's namespace: leave nothing on the shared broker.
      const connection = await createAmqpConnection({ url: AMQP_URL, logger: createLogger({ service: 'bench', level: 'warn' }), name: 'pipeline-bench' });
      await namespacedBus(connection, namespace).deleteTopology(TOPOLOGY).catch(() => undefined);
      await connection.close();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
