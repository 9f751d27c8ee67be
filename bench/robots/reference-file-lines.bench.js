// What a poll asks of dedup-service, alone: CPU per call of 1,000 references of dedup-service
// (its own process, as deployed) and of the MongoDB stand-in, for GetDeduplicatedViews (the views
// robot-broker used to write the reference file from) and GetReferenceFileLines (the lines, which
// a second call of the same references answers from the lines kept).
// Run after a build: `node bench/robots/reference-file-lines.bench.js [--references 1000] [--calls 40]`
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');

const root = path.resolve(__dirname, '../..');
const req = (p) => require(path.join(root, p));
const platform = req('packages/platform/dist/index.js');
const { loadDestinyProtos } = req('packages/contracts/dist/grpc/proto-files.js');
const { uuidv7 } = req('packages/contracts/dist/index.js');
const { argument } = require('../support/arguments');

const referenceCount = Number(argument('--references', '1000'));
const calls = Number(argument('--calls', '40'));

/** CPU time (user + system) of a process so far, in ms, from /proc (Linux). */
function processCpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** Starts a node process and resolves with it once `ready` picks a value from one of its JSON log lines. */
function startProcess(args, env, ready) {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}`)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const value = ready(JSON.parse(line));
        if (value) {
          child.removeAllListeners('exit');
          resolve({ child, value });
        }
      } catch {
        // not a log line
      }
    });
  });
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-file-lines-bench-'));
  const mongo = await startProcess([path.join(root, 'packages/devstack/dist/devstack.cli.js'), 'mongo', '--port', '0', '--data', dataDir], {}, (entry) => entry.url);
  const messaging = req('packages/devstack/dist/testing/index.js').createTestMessagingNamespace('file-lines-bench');
  const dedup = await startProcess(
    [path.join(root, 'services/dedup-service/dist/main.js')],
    { ...messaging.env, MONGODB_URL: mongo.value, GRPC_PORT: '0', HEALTH_PORT: '0', GRPC_HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    (entry) => entry.msg === 'dedup-service started' && entry.grpc_port,
  );
  const client = platform.createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, `127.0.0.1:${dedup.value}`);
  const unary = (method, request) => platform.callUnary(client, client[method], request, { deadlineMs: 600_000 });

  // The robots bench's references: a DOI and a bibliographic enhancement each.
  const ids = [];
  for (let start = 0; start < referenceCount; start += 500) {
    const lines = [];
    for (let i = start; i < Math.min(referenceCount, start + 500); i += 1) {
      const reference = { visibility: 'public', identifiers: [{ identifier: `10.9999/lines.${i}`, identifier_type: 'doi' }], enhancements: [{ source: 'seed', visibility: 'public', content: { enhancement_type: 'bibliographic', title: `Robot benchmark reference ${i} ${crypto.randomUUID()}`, publication_year: 2000 + (i % 25) } }] };
      lines.push({ line_number: i + 1, import_result_id: uuidv7(), reference_json: JSON.stringify(reference) });
    }
    for (const outcome of (await unary('IngestReferences', { import_batch_id: uuidv7(), collision_strategy: 'fail', lines })).outcomes) ids.push(outcome.reference_id);
  }
  // Decisions and the relay of their events settle first, so only the reads are measured.
  while (!(await unary('GetDeduplicatedViews', { ids })).json.every((text) => JSON.parse(text).duplicate_decision !== null)) await new Promise((resolve) => setTimeout(resolve, 300));
  await new Promise((resolve) => setTimeout(resolve, 3000));

  const measures = [
    ['GetDeduplicatedViews', () => unary('GetDeduplicatedViews', { ids })],
    ['GetReferenceFileLines (lines kept)', () => unary('GetReferenceFileLines', { ids, full_text: false })],
  ];
  for (const [name, call] of measures) {
    await call();
    const dedupAtStart = processCpuMs(dedup.child.pid);
    const mongoAtStart = processCpuMs(mongo.child.pid);
    const started = performance.now();
    for (let i = 0; i < calls; i += 1) await call();
    const per = (ms) => (ms / calls).toFixed(1);
    console.log(`${name}: CPU per call of ${referenceCount} references: dedup-service ${per(processCpuMs(dedup.child.pid) - dedupAtStart)} ms, MongoDB stand-in ${per(processCpuMs(mongo.child.pid) - mongoAtStart)} ms; ${per(performance.now() - started)} ms wall; load average ${os.loadavg().map((value) => value.toFixed(1)).join(' ')}`);
  }

  client.close();
  for (const process of [dedup.child, mongo.child]) {
    const exited = new Promise((resolve) => process.once('exit', resolve));
    process.kill('SIGTERM');
    await exited;
  }
  await messaging.remove();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
