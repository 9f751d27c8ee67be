// The search stand-in's CPU per percolated document over HTTP, alone: its own process, the 100
// automations registered, then the same `_search` bodies of `percolate.documents` (the percolator's
// requests for the benchmark's events) sent one after the other, CPU read from /proc per round.
// Run from the repository root after building:
//   node node_modules/typescript/bin/tsc -b tsconfig.build.json && node bench/percolation/percolate-stand-in.bench.js [--events 20000] [--batch 500] [--rounds 3]
// BENCH_ROOT=<another checkout, built> runs that checkout's stand-in on the same requests.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const readline = require('node:readline');
const { argument } = require('../support/arguments');
const { automations } = require('../support/automations');
const { ROBOTS, referenceChanged } = require('./events');

const here = path.resolve(__dirname, '..', '..');
const root = path.resolve(process.env.BENCH_ROOT ?? here);
const { uuidv7 } = require(path.join(here, 'packages/contracts/dist/index.js'));
const { planPercolation, PERCOLATION_INDEX_MAPPINGS } = require(path.join(here, 'services/percolator/dist/index.js'));

const EVENTS = Number(argument('--events', 20_000));
const BATCH = Number(argument('--batch', 500));
const ROUNDS = Number(argument('--rounds', 3));

/** CPU seconds of a process so far (Linux /proc). */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function send(port, method, target, body) {
  const data = typeof body === 'string' ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path: target, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data) } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
    });
    request.on('error', reject);
    request.end(data);
  });
}

async function main() {
  const child = spawn(process.execPath, [path.join(root, 'packages/devstack/dist/devstack.cli.js'), 'search', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve) => readline.createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      const message = JSON.parse(line);
      if (message.url) resolve(message.url);
    } catch (_error) {
      // Non-JSON output is ignored.
    }
  }));
  const port = Number(new URL(url).port);
  try {
    const robots = Array.from({ length: ROBOTS }, () => uuidv7());
    await send(port, 'PUT', '/automations', { mappings: PERCOLATION_INDEX_MAPPINGS });
    const lines = automations(robots).flatMap((automation, n) => [JSON.stringify({ index: { _id: `automation-${n}` } }), JSON.stringify(automation)]);
    await send(port, 'POST', '/automations/_bulk?refresh=true', `${lines.join('\n')}\n`);
    const documents = Array.from({ length: EVENTS }, () => planPercolation(JSON.parse(JSON.stringify(referenceChanged(robots))))).filter((plan) => plan.percolate).map((plan) => plan.task.document);
    const bodies = [];
    for (let start = 0; start < documents.length; start += BATCH) {
      bodies.push(JSON.stringify({ size: 10_000, _source: ['robot_id'], track_total_hits: true, query: { percolate: { field: 'query', documents: documents.slice(start, start + BATCH) } } }));
    }
    const rounds = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const before = cpuSeconds(child.pid);
      let matches = 0;
      for (const body of bodies) {
        const response = await send(port, 'POST', '/automations/_search', body);
        for (const hit of response.hits.hits) matches += hit.fields._percolator_document_slot.length;
      }
      rounds.push({ cpu_us_per_event: Math.round(((cpuSeconds(child.pid) - before) / EVENTS) * 1e6), matches });
    }
    console.log(JSON.stringify({ code: root, events: EVENTS, batch: BATCH, requests: bodies.length, rounds, load_average: os.loadavg().map((value) => Math.round(value * 10) / 10) }, null, 2));
  } finally {
    child.kill();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
