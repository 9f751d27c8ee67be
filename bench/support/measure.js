// Measuring helpers shared by the benchmarks: latency percentiles and CPU time of other processes.
const fs = require('node:fs');

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

function latencySummary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const round = (value) => Math.round(value * 10) / 10;
  return { n: sorted.length, p50_ms: round(percentile(sorted, 0.5)), p95_ms: round(percentile(sorted, 0.95)), max_ms: round(sorted[sorted.length - 1]) };
}

/** User + system CPU seconds a process has used so far (Linux /proc; NaN once it is gone). */
function cpuSecondsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch (_error) {
    return NaN;
  }
}

const loadAverage = () => require('node:os').loadavg().map((value) => Math.round(value * 10) / 10);

module.exports = { percentile, latencySummary, cpuSecondsOf, loadAverage };
