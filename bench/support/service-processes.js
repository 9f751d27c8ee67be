// Services and stand-ins as their own processes, as deployed: a built service's main.js, or a
// stand-in through the devstack CLI (`npm run devstack -- <kind>`). Shared by the benchmarks.
const path = require('node:path');
const readline = require('node:readline');
const { spawn } = require('node:child_process');

const root = path.resolve(__dirname, '../..');

function stopper(child) {
  return () =>
    new Promise((done) => {
      child.removeAllListeners('exit');
      child.once('exit', done);
      child.kill('SIGTERM');
    });
}

/**
 * Starts a service (`script`, by default its built main.js) and resolves once it logs "<name> started",
 * with its gRPC port. Its dependencies resolve from services/<name>/node_modules, so a build copied
 * out of the tree runs too.
 */
function spawnService(name, env, options = {}) {
  const script = options.script ?? path.join(root, 'services', name, 'dist', 'main.js');
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script], {
    env: { ...process.env, ...env, LOG_LEVEL: 'info', NODE_PATH: path.join(root, 'services', name, 'node_modules') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      try {
        const entry = JSON.parse(line);
        if (entry.msg === `${name} started`) {
          child.removeAllListeners('exit');
          resolve({ grpcPort: entry.grpc_port, pid: child.pid, stop: stopper(child) });
        }
      } catch {
        // not a log line
      }
    });
  });
}

/**
 * Starts a stand-in (`mongo`, `blob`, `search`) on a free port with a data folder and resolves with
 * its URL. Its other output (e.g. --trace-gc asked for through `nodeArgs`) goes to stderr.
 */
function startStandInProcess(kind, dataDir, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'packages/devstack/dist/devstack.cli.js'), kind, '--port', '0', '--data', dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${kind} stand-in exited with ${code}`)));
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return void process.stderr.write(`${kind} stand-in: ${line}\n`);
      const parsed = JSON.parse(line);
      if (parsed.url) resolve({ url: parsed.url, pid: child.pid, stop: stopper(child) });
    });
  });
}

module.exports = { spawnService, startStandInProcess };
