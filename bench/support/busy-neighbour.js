// An artificial neighbour for A/B runs on a faster hour of the machine: it spins `--busy-ms` of
// every `--busy-ms` + `--idle-ms` on one core (default 5 of 10 ms, about half a core) until killed.
// Usage: node bench/support/busy-neighbour.js [--busy-ms 5] [--idle-ms 5] & <bench command>; kill %1
const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const busyMs = argument('--busy-ms', 5);
const idleMs = argument('--idle-ms', 5);

function spin() {
  const end = performance.now() + busyMs;
  while (performance.now() < end);
  setTimeout(spin, idleMs);
}
spin();
