// How the benchmarks lay out the services as the embedded default (`npm start`) does: a young
// generation of 64 MB semi-spaces, and chosen services each on a worker thread of the bench process.
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/**
 * Starts the calling bench again with `--max-semi-space-size=<semiSpace>` unless it runs with one
 * already (V8 reads the size only at start-up) and exits with its status; `default` keeps V8's 16 MB.
 */
function restartWithSemiSpace(semiSpace, script) {
  if (semiSpace === 'default' || process.execArgv.some((flag) => flag.startsWith('--max-semi-space-size'))) return;
  const child = spawnSync(process.execPath, [`--max-semi-space-size=${semiSpace}`, ...process.execArgv, script, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

/** How `semiSpace` reads in a bench's report. */
function semiSpaceLabel(semiSpace) {
  return semiSpace === 'default' ? 'V8 default' : `${semiSpace} MB`;
}

/**
 * Starts a service on a worker thread of its own when `threaded` names it (served `bus`; a thread that
 * fails ends the bench), else in this thread with `starter(env, overrides)`.
 */
function startService({ root, threaded, bus, name, starter, env, overrides }) {
  if (!threaded.includes(name)) return starter(env, overrides);
  const { startServiceThread } = require(path.join(root, 'packages/devstack/dist/launcher/service.thread.js'));
  return startServiceThread(name, { ...env, LOG_LEVEL: 'warn' }, {
    bus,
    logLevel: 'warn',
    onUnexpectedExit: (service, reason) => {
      console.error(`${service} failed: ${reason}`);
      process.exit(1);
    },
  });
}

module.exports = { restartWithSemiSpace, semiSpaceLabel, startService };
