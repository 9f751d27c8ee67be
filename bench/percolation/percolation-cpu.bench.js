// CPU per `reference.changed` event of percolation's own steps, in-process (no broker, no HTTP), so
// the numbers hold on a shared machine better than the end-to-end rate: the percolator's message
// decoding, contract validation, percolation plan and request body, and the search stand-in
// decoding that body, percolating it against the 100 automations and encoding the answer.
// Run from the repository root after building:
//   node node_modules/typescript/bin/tsc -b tsconfig.build.json && node bench/percolation/percolation-cpu.bench.js [--events 20000] [--batch 500] [--rounds 5]
// BENCH_ROOT=<another checkout, built> measures that checkout's code with the same workload.
const os = require('node:os');
const path = require('node:path');
const { argument } = require('../support/arguments');
const { automations } = require('../support/automations');
const { ROBOTS, referenceChanged } = require('./events');

const root = path.resolve(process.env.BENCH_ROOT ?? path.join(__dirname, '..', '..'));
const req = (file) => require(path.join(root, file));
const { ReferenceChangedEvent, uuidv7, validate } = req('packages/contracts/dist/index.js');
const { planPercolation, PERCOLATION_ALIAS, PERCOLATION_INDEX_MAPPINGS } = req('services/percolator/dist/index.js');
const { SearchEngine } = req('packages/devstack/dist/search/search.engine.js');

const EVENTS = Number(argument('--events', 20_000));
const BATCH = Number(argument('--batch', 500));
const ROUNDS = Number(argument('--rounds', 5));
const NO_PARAMS = new URLSearchParams();

/** CPU microseconds `work` takes per event. */
function cpuPerEvent(work) {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / EVENTS;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function main() {
  const robots = Array.from({ length: ROBOTS }, () => uuidv7());
  const messages = Array.from({ length: EVENTS }, () => Buffer.from(JSON.stringify(referenceChanged(robots))));
  const engine = new SearchEngine();
  const index = `${PERCOLATION_ALIAS}-bench`;
  engine.createIndex(index, { mappings: PERCOLATION_INDEX_MAPPINGS });
  const lines = automations(robots).flatMap((automation, n) => [JSON.stringify({ index: { _id: `automation-${n}` } }), JSON.stringify(automation)]);
  if (engine.bulk(index, `${lines.join('\n')}\n`, NO_PARAMS).body.errors) throw new Error('registering the automations failed');
  engine.refresh(index);

  const steps = { decode: [], validate: [], plan: [], request_body: [], search_stand_in: [] };
  let matches = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    let events;
    steps.decode.push(cpuPerEvent(() => (events = messages.map((message) => JSON.parse(message.toString('utf8'))))));
    steps.validate.push(cpuPerEvent(() => events.forEach((event) => {
      if (!validate(ReferenceChangedEvent, event, 'body').ok) throw new Error('an event of the workload is invalid');
    })));
    let documents;
    steps.plan.push(cpuPerEvent(() => (documents = events.map((event) => planPercolation(event)).filter((plan) => plan.percolate).map((plan) => plan.task.document))));
    const bodies = [];
    steps.request_body.push(cpuPerEvent(() => {
      for (let start = 0; start < documents.length; start += BATCH) {
        bodies.push(JSON.stringify({ size: 10_000, _source: ['robot_id'], track_total_hits: true, query: { percolate: { field: 'query', documents: documents.slice(start, start + BATCH) } } }));
      }
    }));
    matches = 0;
    steps.search_stand_in.push(cpuPerEvent(() => {
      for (const body of bodies) {
        const response = engine.search(index, JSON.parse(body), NO_PARAMS);
        JSON.stringify(response.body);
        for (const hit of response.body.hits.hits) matches += hit.fields._percolator_document_slot.length;
      }
    }));
  }
  const perEvent = Object.fromEntries(Object.entries(steps).map(([step, values]) => [step, Math.round(median(values) * 10) / 10]));
  const percolatorSteps = perEvent.decode + perEvent.validate + perEvent.plan + perEvent.request_body;
  console.log(JSON.stringify({
    code: root,
    events: EVENTS,
    batch: BATCH,
    automations: lines.length / 2,
    automation_matches_per_event: Math.round((matches / EVENTS) * 100) / 100,
    cpu_us_per_event_median_of_rounds: perEvent,
    percolator_steps_us: Math.round(percolatorSteps * 10) / 10,
    load_average: os.loadavg().map((value) => Math.round(value * 10) / 10),
  }, null, 2));
}

main();
