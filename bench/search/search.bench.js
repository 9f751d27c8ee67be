// Benchmark of the search stand-in through the official client over HTTP:
//   bulk indexing of reference-like documents, query_string latency, percolation throughput.
// Run from the repository root after building:
//   node node_modules/typescript/bin/tsc -b tsconfig.build.json && node bench/search/search.bench.js [--docs 100000] [--queries 300]
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const { Client } = require('@elastic/elasticsearch');
const { REFERENCE_MAPPINGS, automationQuery, percentile, percolatedDocument, percolatorMappings, queryStrings, referenceDocument, searchRequest, selectiveAutomationQuery } = require('./workload');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const DOCS = option('docs', 100_000);
const QUERIES = option('queries', 300);
const PERCOLATE_DOCS = option('percolate-docs', 2000);
const PERCOLATE_BATCH = option('percolate-batch', 100);

// Resident memory of the stand-in process (Linux /proc), to show what 100k documents cost.
function residentMb(pid) {
  try {
    const status = require('node:fs').readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmRSS:\s+(\d+) kB/.exec(status);
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch (_error) {
    return null;
  }
}

async function benchPercolation(client, queryCount, generate = automationQuery, label = 'broad') {
  const index = `automations-${label}-${queryCount}`;
  await client.indices.create({ index, mappings: percolatorMappings() });
  for (let start = 0; start < queryCount; start += 1000) {
    const operations = [];
    for (let n = start; n < Math.min(queryCount, start + 1000); n += 1) operations.push({ index: { _index: index, _id: `q${n}` } }, { robot_id: `robot-${n % 25}`, query: generate() });
    const result = await client.bulk({ operations });
    if (result.errors) throw new Error('percolator registration failed');
  }
  const documents = Array.from({ length: PERCOLATE_DOCS }, (_, n) => percolatedDocument(n));
  // One document per request (a single decision) and batches through `documents` (robot results come in chunks).
  let matches = 0;
  let started = process.hrtime.bigint();
  for (const document of documents) {
    const result = await client.search({ index, size: 10_000, track_total_hits: true, _source: ['robot_id'], query: { percolate: { field: 'query', document } } });
    matches += result.hits.total.value;
  }
  const singleSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  // The same documents with four requests in flight, as a consumer with prefetch would percolate.
  let concurrentMatches = 0;
  let next = 0;
  started = process.hrtime.bigint();
  const worker = async () => {
    while (next < documents.length) {
      const document = documents[next];
      next += 1;
      const result = await client.search({ index, size: 10_000, track_total_hits: true, _source: ['robot_id'], query: { percolate: { field: 'query', document } } });
      concurrentMatches += result.hits.total.value;
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  const concurrentSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (concurrentMatches !== matches) throw new Error(`concurrent percolation found ${concurrentMatches} matches, sequential ${matches}`);
  let batchedMatches = 0;
  started = process.hrtime.bigint();
  for (let start = 0; start < documents.length; start += PERCOLATE_BATCH) {
    const result = await client.search({ index, size: 10_000, _source: ['robot_id'], query: { percolate: { field: 'query', documents: documents.slice(start, start + PERCOLATE_BATCH) } } });
    for (const hit of result.hits.hits) batchedMatches += hit.fields._percolator_document_slot.length;
  }
  const batchedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (batchedMatches !== matches) throw new Error(`batched percolation found ${batchedMatches} matches, single ${matches}`);
  return {
    automations: label,
    queries: queryCount,
    documents: documents.length,
    singleDocsPerSecond: Math.round(documents.length / singleSeconds),
    singleFourInFlightDocsPerSecond: Math.round(documents.length / concurrentSeconds),
    batchedDocsPerSecond: Math.round(documents.length / batchedSeconds),
    batchSize: PERCOLATE_BATCH,
    averageMatchesPerDocument: +(matches / documents.length).toFixed(1),
  };
}

// The stand-in runs as its own process (as in development), so client and server use separate cores.
function startStandIn() {
  const cli = path.join(__dirname, '../../packages/devstack/dist/devstack.cli.js');
  const child = spawn(process.execPath, [cli, 'search', '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      try {
        const message = JSON.parse(line);
        if (message.url) resolve({ url: message.url, pid: child.pid, stop: () => new Promise((done) => { child.once('exit', done); child.kill('SIGTERM'); }) });
      } catch (_error) {
        // Non-JSON output is ignored.
      }
    });
    child.once('exit', (code) => reject(new Error(`search stand-in exited with ${code}`)));
  });
}

async function main() {
  const standIn = await startStandIn();
  const client = new Client({ node: standIn.url });
  try {
    await client.indices.create({
      index: 'reference-bench',
      aliases: { reference: {} },
      mappings: REFERENCE_MAPPINGS,
    });
    const documents = Array.from({ length: DOCS }, (_, n) => referenceDocument(n));
    // Pre-serialized NDJSON bodies of 5,000 documents, two requests in flight (as a loader replaying a
    // file would send them): measures the stand-in rather than the client's JSON encoding.
    const bodies = [];
    for (let start = 0; start < documents.length; start += 5000) {
      bodies.push(documents.slice(start, start + 5000).map((document) => `{"index":{"_id":${JSON.stringify(document.id)}}}\n${JSON.stringify(document)}\n`).join(''));
    }
    let started = process.hrtime.bigint();
    let next = 0;
    const worker = async () => {
      while (next < bodies.length) {
        const body = bodies[next];
        next += 1;
        const result = await client.transport.request({ method: 'POST', path: '/reference/_bulk', querystring: { filter_path: 'errors' }, bulkBody: body });
        if (result.errors) throw new Error('bulk indexing reported errors');
      }
    };
    await Promise.all([worker(), worker()]);
    const bulkSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(JSON.stringify({ phase: 'bulk', mode: 'ndjson bodies of 5000 docs, 2 in flight', documents: DOCS, seconds: +bulkSeconds.toFixed(2), docsPerSecond: Math.round(DOCS / bulkSeconds), standInRssMb: residentMb(standIn.pid) }));

    // The official bulk helper (client-side encoding of every document included), on a fresh index.
    const helperDocuments = documents.slice(0, Math.min(DOCS, 20_000));
    started = process.hrtime.bigint();
    const stats = await client.helpers.bulk({
      datasource: helperDocuments,
      onDocument: (document) => ({ index: { _index: 'reference-helper', _id: document.id } }),
      flushBytes: 5_000_000,
      concurrency: 3,
    });
    if (stats.failed > 0) throw new Error('bulk helper reported failures');
    const helperSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    console.log(JSON.stringify({ phase: 'bulk', mode: 'client.helpers.bulk, 5 MB flushes, concurrency 3', documents: helperDocuments.length, seconds: +helperSeconds.toFixed(2), docsPerSecond: Math.round(helperDocuments.length / helperSeconds) }));
    await client.indices.delete({ index: 'reference-helper' });

    const queries = queryStrings(QUERIES);
    const latencies = [];
    for (const [n, query] of queries.entries()) {
      const begin = process.hrtime.bigint();
      await client.search({ index: 'reference', ...searchRequest(query, n) });
      latencies.push(Number(process.hrtime.bigint() - begin) / 1e6);
    }
    latencies.sort((a, b) => a - b);
    console.log(JSON.stringify({ phase: 'query_string', queries: QUERIES, p50Ms: +percentile(latencies, 0.5).toFixed(2), p95Ms: +percentile(latencies, 0.95).toFixed(2), maxMs: +latencies[latencies.length - 1].toFixed(2) }));

    for (const queryCount of [1000, 10_000]) {
      console.log(JSON.stringify({ phase: 'percolate', ...(await benchPercolation(client, queryCount)) }));
      console.log(JSON.stringify({ phase: 'percolate', ...(await benchPercolation(client, queryCount, selectiveAutomationQuery, 'selective')) }));
    }
  } finally {
    await client.close();
    await standIn.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
