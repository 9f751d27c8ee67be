#!/usr/bin/env node
// The one entry point behind every `npm run …` script. It installs what is missing (pnpm
// included, fetched from the npm registry because corepack's signature check is unreliable),
// builds, and then runs the requested task. Plain Node.js only: it runs before any install.
'use strict';

const { spawnSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const PNPM_VERSION = '10.34.9';
const bin = (name) => path.join(root, 'node_modules', '.bin', name);

function log(message) {
  process.stderr.write(`[destiny] ${message}\n`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function runOrExit(command, args, options) {
  const status = run(command, args, options);
  if (status !== 0) process.exit(status);
}

// Install and build output goes to stderr so stdout carries only the task's own output
// (`npm run token` prints a token and nothing else).
const toStderr = { stdio: ['inherit', 2, 2] };

function pnpm(args) {
  return run('npx', ['--yes', `pnpm@${PNPM_VERSION}`, ...args], toStderr);
}

function lockfileStamp() {
  const lock = path.join(root, 'pnpm-lock.yaml');
  const manifests = [lock, path.join(root, 'package.json'), path.join(root, 'pnpm-workspace.yaml')];
  for (const dir of ['packages', 'services']) {
    const base = path.join(root, dir);
    if (!fs.existsSync(base)) continue;
    for (const name of fs.readdirSync(base)) manifests.push(path.join(base, name, 'package.json'));
  }
  return manifests
    .filter((file) => fs.existsSync(file))
    .map((file) => `${path.relative(root, file)}:${fs.statSync(file).size}:${fs.readFileSync(file, 'utf8').length}`)
    .join('|');
}

function ensureInstalled() {
  const stampFile = path.join(root, 'node_modules', '.destiny-install-stamp');
  const wanted = lockfileStamp();
  if (fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === wanted) return;
  log(`installing dependencies with pnpm ${PNPM_VERSION}`);
  const frozen = process.env.CI ? ['--frozen-lockfile'] : [];
  const status = pnpm(['install', ...frozen]);
  if (status !== 0) {
    log('dependency installation failed');
    process.exit(status);
  }
  fs.writeFileSync(stampFile, lockfileStamp());
}

function build() {
  runOrExit(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'], toStderr);
}

function portOpen(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (open) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitForPort(host, port, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (await portOpen(host, port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return false;
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

// Tests need a real RabbitMQ on 127.0.0.1:5672: start an installed one, or install it with apt
// when we are root on Debian/Ubuntu; otherwise say exactly how to get one.
async function ensureRabbitMq() {
  if (await portOpen('127.0.0.1', 5672)) return;
  if (!hasCommand('rabbitmq-server')) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    const isDebian = fs.existsSync('/etc/debian_version');
    if (isRoot && isDebian && hasCommand('apt-get')) {
      log('RabbitMQ is not installed: installing rabbitmq-server with apt-get');
      runOrExit('apt-get', ['update', '-q']);
      runOrExit('apt-get', ['install', '-y', '-q', 'rabbitmq-server'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    } else {
      log('RabbitMQ is needed on 127.0.0.1:5672 (guest/guest) and none is installed.');
      log('Install it (Debian/Ubuntu: `sudo apt-get install rabbitmq-server`; macOS: `brew install rabbitmq`)');
      log('or run one with Docker: `docker run -d -p 5672:5672 rabbitmq:4-management`, then run npm test again.');
      process.exit(1);
    }
  }
  log('starting RabbitMQ (rabbitmq-server -detached)');
  run('rabbitmq-server', ['-detached']);
  if (!(await waitForPort('127.0.0.1', 5672, 90))) {
    log('RabbitMQ did not open 127.0.0.1:5672 within 90 s; check its log under /var/log/rabbitmq/');
    process.exit(1);
  }
}

// Runs jest and returns its exit status with the pass/fail counts read from its JSON report.
function jest(args, env = process.env) {
  const report = path.join(require('node:os').tmpdir(), `destiny-jest-${process.pid}-${Date.now()}.json`);
  const status = run(process.execPath, [path.join(root, 'node_modules', 'jest', 'bin', 'jest.js'), '--json', `--outputFile=${report}`, ...args], { env });
  let passed = 0;
  let failed = 0;
  if (fs.existsSync(report)) {
    const summary = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed = summary.numPassedTests;
    failed = summary.numFailedTests + (summary.numRuntimeErrorTestSuites || 0);
    fs.rmSync(report, { force: true });
  }
  return { status, passed, failed };
}

async function main() {
  const [task = 'test', ...rest] = process.argv.slice(2);
  ensureInstalled();
  switch (task) {
    case 'build':
      build();
      return;
    case 'lint':
      // Type-checks tests and benchmarks too (the build leaves them out, and jest only strips types).
      runOrExit(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json', '--noEmit'], toStderr);
      runOrExit(bin('eslint'), ['--max-warnings=0', '.', ...rest]);
      return;
    case 'test': {
      build();
      await ensureRabbitMq();
      const main = jest(['--ci', ...rest]);
      // Tests that restart the shared broker run last and alone (see jest.config.js).
      const restart = rest.length === 0 ? jest(['--ci', '--runInBand', '--passWithNoTests'], { ...process.env, DESTINY_TEST_PHASE: 'broker-restart' }) : { status: 0, passed: 0, failed: 0 };
      process.stdout.write(`\nTests: ${main.passed + restart.passed} passed, ${main.failed + restart.failed} failed\n`);
      process.exit(main.status || restart.status);
      return;
    }
    case 'openapi':
      build();
      runOrExit(process.execPath, [path.join(root, 'packages/contracts/dist/openapi/write-openapi.js')]);
      return;
    case 'start':
    case 'start:cluster':
    case 'devstack':
    case 'token':
    case 'bench': {
      build();
      const entry = {
        start: 'packages/devstack/dist/launcher/launcher.cli.js',
        'start:cluster': 'packages/devstack/dist/launcher/cluster.cli.js',
        devstack: 'packages/devstack/dist/devstack.cli.js',
        token: 'packages/devstack/dist/identity/token.cli.js',
        bench: 'bench/run.js',
      }[task];
      // A larger young generation: the services allocate many short-lived documents per reference,
      // and the default 16 MB semi-space spends ~15% of their CPU in scavenges (bench/README.md, Import).
      // The MongoDB stand-in keeps most of what it allocates (stored documents, index entries), so
      // a larger young generation only lengthens its scavenges: it keeps V8's default (bench/README.md, Robots).
      const youngGeneration = task === 'devstack' && rest[0] === 'mongo' ? [] : ['--max-semi-space-size=64'];
      const child = spawn(process.execPath, [...youngGeneration, path.join(root, entry), ...rest], { cwd: root, stdio: 'inherit' });
      const forward = (signal) => child.kill(signal);
      process.on('SIGINT', forward);
      process.on('SIGTERM', forward);
      child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
      return;
    }
    default:
      log(`unknown task ${task}`);
      process.exit(2);
  }
}

main().catch((error) => {
  log(error.stack || String(error));
  process.exit(1);
});
