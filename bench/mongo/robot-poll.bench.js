// The MongoDB stand-in's share of a robot poll (issue #8), without the services around it: per poll
// the candidates read (`queue_order` range, sorted, limit, `{_id, reference_id}` projection), the
// batch document insert (two arrays of the ids) and the claim (`updateMany` by `_id $in` setting
// three top-level scalars), as robot-broker's repositories send them. Prints the stand-in's CPU per
// poll, which is what a before/after compares on a shared machine.
// Run after a build: `node bench/mongo/robot-poll.bench.js [--pending 40000] [--robots 4] [--batch 1000]`
// BENCH_MONGO_CLI runs another build of the stand-in (e.g. a copy of an earlier dist); BENCH_MONGO_NODE_ARGS adds
// Node.js options to it (e.g. `--cpu-prof --cpu-prof-dir=DIR`).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { MongoClient } = require('mongodb');
const { argument } = require('../support/arguments');

const root = path.resolve(__dirname, '../..');
const cli = process.env.BENCH_MONGO_CLI ?? path.join(root, 'packages/devstack/dist/devstack.cli.js');
const pendingCount = Number(argument('--pending', 40_000));
const robots = Number(argument('--robots', 4));
const batchSize = Number(argument('--batch', 1000));
const nodeArguments = process.env.BENCH_MONGO_NODE_ARGS ? process.env.BENCH_MONGO_NODE_ARGS.split(' ') : [];

function startServer(dataDir) {
  const child = spawn(process.execPath, [...nodeArguments, cli, 'mongo', '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    lines.on('line', (line) => {
      const parsed = JSON.parse(line);
      if (parsed.url) resolve({ child, url: parsed.url });
    });
  });
}

function processCpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const indexes = [
  { key: { dedup_key: 1 }, name: 'pending_dedup_key', unique: true },
  { key: { queue_order: 1 }, name: 'pending_queue_order' },
  { key: { robot_enhancement_batch_id: 1 }, name: 'pending_batch' },
  { key: { enhancement_request_id: 1 }, name: 'pending_request' },
  { key: { reference_id: 1 }, name: 'pending_reference' },
  { key: { indexing_deadline: 1 }, name: 'pending_indexing_deadline' },
  { key: { index_reference_id: 1 }, name: 'pending_index_reference' },
];

function pendingDocument(robot, index, now) {
  const id = `p-${robot}-${String(index).padStart(8, '0')}-0000-4000-8000-000000000000`;
  return {
    _id: id,
    reference_id: `r-${String(index).padStart(8, '0')}-0000-4000-8000-000000000000`,
    robot_id: `robot-${robot}`,
    enhancement_request_id: `request-${robot}`,
    robot_enhancement_batch_id: null,
    status: 'pending',
    source: 'bench',
    expires_at: null,
    retry_of: null,
    retry_depth: 0,
    created_at: now,
    dedup_key: id,
    queue_order: `robot-${robot}|${id}`,
  };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'robot-poll-bench-'));
  const { child, url } = await startServer(dataDir);
  const client = await MongoClient.connect(url, { maxPoolSize: robots * 2 });
  try {
    const database = client.db('robot_poll_bench');
    const pending = database.collection('pending_enhancements');
    const batches = database.collection('robot_enhancement_batches');
    await pending.createIndexes(indexes);
    await batches.createIndexes([{ key: { status: 1 }, name: 'batch_status' }, { key: { lease_expiry: 1 }, name: 'batch_lease_expiry' }]);
    const now = new Date();
    const perRobot = Math.floor(pendingCount / robots);
    for (let robot = 0; robot < robots; robot += 1) {
      for (let start = 0; start < perRobot; start += 10_000) {
        const documents = [];
        for (let index = start; index < Math.min(perRobot, start + 10_000); index += 1) documents.push(pendingDocument(robot, index, now));
        await pending.insertMany(documents, { ordered: false });
      }
    }
    const pollsPerRobot = Math.floor(perRobot / batchSize);
    const poll = async (robot, round) => {
      const robotId = `robot-${robot}`;
      const candidates = await pending
        .find({ queue_order: { $gte: `${robotId}|`, $lt: `${robotId}}` } }, { projection: { _id: 1, reference_id: 1 } })
        .sort({ queue_order: 1 })
        .limit(batchSize)
        .toArray();
      const batchId = `batch-${robot}-${round}`;
      await batches.insertOne({
        _id: batchId,
        robot_id: robotId,
        status: 'processing',
        lease_expiry: new Date(Date.now() + 60_000),
        pending_enhancement_ids: candidates.map((candidate) => candidate._id),
        reference_ids: candidates.map((candidate) => candidate.reference_id),
        created_at: new Date(),
      });
      const result = await pending.updateMany(
        { _id: { $in: candidates.map((candidate) => candidate._id) }, status: 'pending', robot_enhancement_batch_id: null },
        { $set: { status: 'processing', robot_enhancement_batch_id: batchId, queue_order: null } },
      );
      if (result.modifiedCount !== candidates.length) throw new Error(`claimed ${result.modifiedCount} of ${candidates.length}`);
    };
    const cpuBefore = processCpuMs(child.pid);
    const started = process.hrtime.bigint();
    for (let round = 0; round < pollsPerRobot; round += 1) {
      await Promise.all(Array.from({ length: robots }, (_, robot) => poll(robot, round)));
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const polls = pollsPerRobot * robots;
    const cpuPerPoll = (processCpuMs(child.pid) - cpuBefore) / polls;
    const remaining = await pending.countDocuments({ status: 'pending' });
    console.log(
      `${polls} polls of ${batchSize} (${robots} robots at once, ${pendingCount} pending, ${remaining} left): ${seconds.toFixed(2)} s, ` +
        `stand-in CPU ${cpuPerPoll.toFixed(1)} ms per poll, load ${os.loadavg()[0].toFixed(1)}`,
    );
  } finally {
    await client.close();
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
