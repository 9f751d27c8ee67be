// The search engine of the stand-in measured in-process, without HTTP or the client: bulk indexing,
// query_string latency and percolation throughput on the same workload as search.bench.js.
// Run from the repository root after building:
//   node node_modules/typescript/bin/tsc -b tsconfig.build.json && node bench/search/search-engine.bench.js [--docs 100000]
const { SearchEngine } = require('../../packages/devstack/dist/search/search.engine');
const { REFERENCE_MAPPINGS, automationQuery, percentile, percolatedDocument, percolatorMappings, queryStrings, referenceDocument, searchRequest, selectiveAutomationQuery } = require('./workload');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const DOCS = option('docs', 100_000);
const QUERIES = option('queries', 300);
const PERCOLATE_DOCS = option('percolate-docs', 2000);
const NO_PARAMS = new URLSearchParams();

function seconds(started) {
  return Number(process.hrtime.bigint() - started) / 1e9;
}

function percolation(engine, queryCount, generate, label) {
  const index = `automations-${label}-${queryCount}`;
  engine.createIndex(index, { mappings: percolatorMappings() });
  const lines = [];
  for (let n = 0; n < queryCount; n += 1) lines.push(JSON.stringify({ index: { _id: `q${n}` } }), JSON.stringify({ robot_id: `robot-${n % 25}`, query: generate() }));
  if (engine.bulk(index, `${lines.join('\n')}\n`, NO_PARAMS).body.errors) throw new Error('percolator registration failed');
  const documents = Array.from({ length: PERCOLATE_DOCS }, (_, n) => percolatedDocument(n));
  let matches = 0;
  const started = process.hrtime.bigint();
  for (const document of documents) {
    const response = engine.search(index, { size: 10_000, track_total_hits: true, _source: ['robot_id'], query: { percolate: { field: 'query', document } } }, NO_PARAMS);
    JSON.stringify(response.body);
    matches += response.body.hits.total.value;
  }
  return { automations: label, queries: queryCount, documents: documents.length, singleDocsPerSecond: Math.round(documents.length / seconds(started)), averageMatchesPerDocument: +(matches / documents.length).toFixed(1) };
}

function main() {
  const engine = new SearchEngine();
  engine.createIndex('reference', { mappings: REFERENCE_MAPPINGS });
  const bodies = [];
  for (let start = 0; start < DOCS; start += 5000) {
    const lines = [];
    for (let n = start; n < Math.min(DOCS, start + 5000); n += 1) {
      const document = referenceDocument(n);
      lines.push(JSON.stringify({ index: { _id: document.id } }), JSON.stringify(document));
    }
    bodies.push(`${lines.join('\n')}\n`);
  }
  let started = process.hrtime.bigint();
  for (const body of bodies) if (engine.bulk('reference', body, NO_PARAMS).body.errors) throw new Error('bulk indexing reported errors');
  const bulkSeconds = seconds(started);
  console.log(JSON.stringify({ phase: 'bulk', documents: DOCS, seconds: +bulkSeconds.toFixed(2), docsPerSecond: Math.round(DOCS / bulkSeconds), heapMb: Math.round(process.memoryUsage().heapUsed / 1e6) }));

  const latencies = [];
  queryStrings(QUERIES).forEach((query, n) => {
    started = process.hrtime.bigint();
    JSON.stringify(engine.search('reference', searchRequest(query, n), NO_PARAMS).body);
    latencies.push(seconds(started) * 1000);
  });
  latencies.sort((a, b) => a - b);
  console.log(JSON.stringify({ phase: 'query_string', queries: QUERIES, p50Ms: +percentile(latencies, 0.5).toFixed(2), p95Ms: +percentile(latencies, 0.95).toFixed(2), maxMs: +latencies[latencies.length - 1].toFixed(2) }));

  for (const queryCount of [1000, 10_000]) {
    console.log(JSON.stringify({ phase: 'percolate', ...percolation(engine, queryCount, automationQuery, 'broad') }));
    console.log(JSON.stringify({ phase: 'percolate', ...percolation(engine, queryCount, selectiveAutomationQuery, 'selective') }));
  }
}

main();
