// Replays recorded MongoDB wire traffic (see capture-hook.js) against a fresh stand-in process
// and reports the server's CPU time per command, read from /proc/<pid>/stat. The commands are
// sent in their recorded order over one connection with a window of requests in flight (the
// stand-in handles one connection's messages in order); cursor ids of getMore/killCursors are
// mapped to the ones the new server hands out.
//
//   node bench/mongo/workload-mix.bench.js --capture <file> [--messages N] [--window 32] [--profile <dir>] [--memory]
// BENCH_MONGO_NODE_ARGS adds Node.js options to the stand-in process (as in bench/import).
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { deserialize, serialize, Long } = require(require.resolve('bson', { paths: [path.resolve(__dirname, '../../packages/devstack')] }));

const root = path.resolve(__dirname, '../..');
// BENCH_MONGO_CLI runs another build of the stand-in (e.g. a copy of an earlier dist) for before/after runs.
const cli = process.env.BENCH_MONGO_CLI ?? path.join(root, 'packages/devstack/dist/devstack.cli.js');
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : fallback;
};
const captureFile = option('--capture');
const messageLimit = Number(option('--messages', Number.POSITIVE_INFINITY));
const window = Number(option('--window', 32));
const profileDir = option('--profile');
// --memory: no data folder (no journal, no fsync), to separate the cost of durability.
const inMemory = process.argv.includes('--memory');
if (!captureFile) throw new Error('--capture <file> is required (record one with capture-hook.js)');

const OP_MSG = 2013;
const OP_QUERY = 2004;
const CURSOR_COMMANDS = new Set(['find', 'aggregate', 'listCollections', 'listIndexes']);

/** The first section's document of an OP_MSG (or the query of an OP_QUERY). */
function commandOf(message) {
  const opCode = message.readInt32LE(12);
  if (opCode === OP_MSG) {
    if (message[20] !== 0) return undefined;
    const length = message.readInt32LE(21);
    return deserialize(message.subarray(21, 21 + length), { promoteLongs: false });
  }
  if (opCode === OP_QUERY) {
    const nameEnd = message.indexOf(0, 20);
    const length = message.readInt32LE(nameEnd + 9);
    return deserialize(message.subarray(nameEnd + 9, nameEnd + 9 + length), { promoteLongs: false });
  }
  return undefined;
}

/** Splits the recorded streams into whole messages; returns requests in arrival order plus the recorded cursor ids. */
function readCapture(file) {
  const data = fs.readFileSync(file);
  const streams = new Map();
  const requests = [];
  const requestByConnectionAndId = new Map();
  const cursorOwner = new Map();
  let offset = 0;
  while (offset + 9 <= data.length) {
    const direction = data[offset];
    const connection = data.readUInt32LE(offset + 1);
    const length = data.readUInt32LE(offset + 5);
    const chunk = data.subarray(offset + 9, offset + 9 + length);
    offset += 9 + length;
    const key = `${direction}:${connection}`;
    let pending = streams.get(key);
    pending = pending ? Buffer.concat([pending, chunk]) : chunk;
    while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
      const message = pending.subarray(0, pending.readInt32LE(0));
      pending = pending.subarray(message.length);
      if (direction === 0) {
        const flags = message.readInt32LE(12) === OP_MSG ? message.readUInt32LE(16) : 0;
        const name = Object.keys(commandOf(message) ?? {})[0] ?? 'unknown';
        const request = { message: Buffer.from(message), name, expectsReply: (flags & 2) === 0, index: requests.length };
        requests.push(request);
        requestByConnectionAndId.set(`${connection}:${message.readInt32LE(4)}`, request);
      } else {
        const request = requestByConnectionAndId.get(`${connection}:${message.readInt32LE(8)}`);
        if (request && CURSOR_COMMANDS.has(request.name)) {
          const reply = commandOf(message);
          const id = reply?.cursor?.id;
          if (id && !(Long.isLong(id) ? id.isZero() : id === 0)) cursorOwner.set(id.toString(), request.index);
        }
      }
    }
    streams.set(key, pending.length > 0 ? Buffer.from(pending) : undefined);
  }
  return { requests, cursorOwner };
}

function startServer(dataDir) {
  const nodeArgs = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(process.env.BENCH_MONGO_NODE_ARGS?.split(' ').filter(Boolean) ?? [])];
  const child = spawn(process.execPath, [...nodeArgs, cli, 'mongo', '--port', '0', ...(inMemory ? [] : ['--data', dataDir])], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: child.stdout });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    lines.on('line', (line) => {
      // Other output (e.g. --trace-gc) goes to stderr.
      if (!line.startsWith('{')) return void process.stderr.write(`${line}\n`);
      const parsed = JSON.parse(line);
      if (parsed.port) resolve({ child, port: parsed.port });
      else if (parsed.url) resolve({ child, port: Number(new URL(parsed.url).port) });
    });
  });
}

/** User and system CPU milliseconds of a process so far. */
function processCpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

function withCommand(message, command) {
  const body = serialize(command, { checkKeys: false });
  const header = Buffer.alloc(21);
  header.writeInt32LE(21 + body.length, 0);
  header.writeInt32LE(message.readInt32LE(4), 4);
  header.writeInt32LE(OP_MSG, 12);
  return Buffer.concat([header, body]);
}

async function main() {
  const loaded = readCapture(captureFile);
  const requests = loaded.requests.slice(0, messageLimit);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mongo-mix-'));
  const server = await startServer(dataDir);
  const socket = net.connect(server.port, '127.0.0.1');
  socket.setNoDelay(true);
  await new Promise((resolve) => socket.once('connect', resolve));

  const cursorMap = new Map();
  const waiting = new Map();
  let inFlight = 0;
  let wake;
  let incoming = Buffer.alloc(0);
  socket.on('data', (chunk) => {
    incoming = incoming.length > 0 ? Buffer.concat([incoming, chunk]) : chunk;
    while (incoming.length >= 4 && incoming.length >= incoming.readInt32LE(0)) {
      const reply = incoming.subarray(0, incoming.readInt32LE(0));
      incoming = incoming.subarray(reply.length);
      const request = waiting.get(reply.readInt32LE(8));
      waiting.delete(reply.readInt32LE(8));
      inFlight -= 1;
      if (request && CURSOR_COMMANDS.has(request.name)) {
        const id = commandOf(reply)?.cursor?.id;
        for (const [recorded, owner] of loaded.cursorOwner) if (owner === request.index && id) cursorMap.set(recorded, id);
      }
      wake?.();
    }
  });
  const until = async (condition) => {
    while (!condition()) await new Promise((resolve) => (wake = resolve));
  };

  const counts = new Map();
  let sent = 0;
  const cpuBefore = processCpuMs(server.child.pid);
  const started = process.hrtime.bigint();
  for (const request of requests) {
    let message = request.message;
    if (request.name === 'getMore' || request.name === 'killCursors') {
      await until(() => inFlight === 0);
      const command = commandOf(message);
      if (request.name === 'getMore') {
        const mapped = cursorMap.get(command.getMore.toString());
        if (!mapped) continue;
        command.getMore = mapped;
      } else {
        command.cursors = command.cursors.map((id) => cursorMap.get(id.toString())).filter(Boolean);
        if (command.cursors.length === 0) continue;
      }
      message = withCommand(message, command);
    }
    await until(() => inFlight < window);
    const requestId = sent + 1;
    message = Buffer.from(message);
    message.writeInt32LE(requestId, 4);
    if (request.expectsReply) {
      waiting.set(requestId, request);
      inFlight += 1;
    }
    socket.write(message);
    sent += 1;
    counts.set(request.name, (counts.get(request.name) ?? 0) + 1);
  }
  await until(() => inFlight === 0);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuAfter = processCpuMs(server.child.pid);
  const user = cpuAfter.user - cpuBefore.user;
  const system = cpuAfter.system - cpuBefore.system;
  const cpuMs = user + system;
  socket.destroy();
  const summary = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([name, count]) => `${name} ${count}`).join(', ');
  console.log(`replayed ${sent} commands (${summary}) in ${seconds.toFixed(1)} s`);
  console.log(`server CPU ${cpuMs.toFixed(0)} ms = ${((cpuMs * 1000) / sent).toFixed(1)} µs/command (user ${user} ms, system ${system} ms); load average ${os.loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGINT');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
