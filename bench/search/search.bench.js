// Benchmark of the search stand-in through the official client over HTTP:
//   bulk indexing of reference-like documents, query_string latency, percolation throughput.
// Run from the repository root after building:
//   node node_modules/typescript/bin/tsc -b tsconfig.build.json && node bench/search/search.bench.js [--docs 100000] [--queries 300]
const { spawn } = require('node:child_process');
const path = require('node:path');
const readline = require('node:readline');
const { Client } = require('@elastic/elasticsearch');

function option(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const DOCS = option('docs', 100_000);
const QUERIES = option('queries', 300);
const PERCOLATE_DOCS = option('percolate-docs', 2000);
const PERCOLATE_BATCH = option('percolate-batch', 100);

// Deterministic pseudo-random numbers so runs are comparable.
let seed = 42;
function random() {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}

const SYLLABLES = ['ma', 'la', 'ri', 'a', 'pre', 'ven', 'tion', 'cli', 'mate', 'nu', 'tri', 'chil', 'dren', 'vac', 'cine', 'health', 'edu', 'ca', 'po', 'ver', 'ty', 'wa', 'ter', 'sa', 'ni', 'food', 'se', 'cu', 'gen', 'der', 'in', 'come', 'mar', 'ket', 'school', 'trial', 'co', 'hort', 'rural', 'ur', 'ban'];
const VOCABULARY = [];
for (let index = 0; index < 20_000; index += 1) {
  const length = 2 + Math.floor(random() * 3);
  let word = '';
  for (let part = 0; part < length; part += 1) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  VOCABULARY.push(word);
}
// Zipf-like choice: frequent words dominate, as in real abstracts.
function word() {
  return VOCABULARY[Math.floor(VOCABULARY.length * Math.pow(random(), 3))];
}
function words(count) {
  const list = [];
  for (let index = 0; index < count; index += 1) list.push(word());
  return list.join(' ');
}
const FIRST = ['Ann', 'Bob', 'Carla', 'Dmitri', 'Emeka', 'Fatima', 'Gao', 'Hana', 'Ivan', 'Jane'];
const LAST = ['Smith', 'Okafor', 'Patel', 'Garcia', 'Nguyen', 'Kowalski', 'Ahmed', 'Silva', 'Müller', 'Tanaka'];

function referenceDocument(index) {
  const authors = [];
  const authorCount = 1 + Math.floor(random() * 4);
  for (let a = 0; a < authorCount; a += 1) authors.push(`${FIRST[Math.floor(random() * FIRST.length)]} ${LAST[Math.floor(random() * LAST.length)]}`);
  const year = 1990 + Math.floor(random() * 36);
  return {
    id: `ref-${index}`,
    visibility: 'public',
    title: words(10 + Math.floor(random() * 5)),
    abstract: words(130 + Math.floor(random() * 40)),
    authors,
    publication_year: year,
    publication_date: `${year}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}`,
    annotations: random() < 0.3 ? ['inclusion:destiny/include'] : [],
    inclusion_destiny: Math.round(random() * 10000) / 10000,
  };
}

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

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

function referenceDocMapping() {
  const keyword = { type: 'keyword' };
  return {
    properties: {
      visibility: keyword,
      duplicate_determination: keyword,
      identifiers: { type: 'nested', properties: { reference_id: keyword, identifier: keyword, identifier_type: keyword, other_identifier_name: keyword } },
      enhancements: {
        type: 'nested',
        properties: {
          id: keyword, reference_id: keyword, visibility: keyword, source: keyword, robot_version: keyword, created_at: { type: 'date' },
          content: { type: 'object', dynamic: true, properties: { enhancement_type: keyword, annotations: { type: 'nested', dynamic: true, properties: { scheme: keyword, label: keyword, annotation_type: keyword, value: { type: 'boolean' } } } } },
        },
      },
    },
  };
}

const IDENTIFIER_TYPES = ['doi', 'pm_id', 'open_alex', 'eric', 'pro_quest', 'other'];
const ENHANCEMENT_TYPES = ['bibliographic', 'abstract', 'annotation', 'location', 'reference_association', 'full_text'];
const SCHEMES = Array.from({ length: 50 }, (_, index) => `scheme-${index}:x`).concat(['inclusion:destiny']);
const SOURCES = Array.from({ length: 20 }, (_, index) => `source-${index}`);

function automationQuery() {
  const side = random() < 0.8 ? 'changeset' : 'reference';
  const kind = Math.floor(random() * 4);
  if (kind === 0) {
    return {
      bool: {
        must: [{ nested: { path: `${side}.identifiers`, query: { term: { [`${side}.identifiers.identifier_type`]: IDENTIFIER_TYPES[Math.floor(random() * IDENTIFIER_TYPES.length)] } } } }],
        must_not: [{ nested: { path: 'reference.enhancements', query: { term: { 'reference.enhancements.content.enhancement_type': ENHANCEMENT_TYPES[Math.floor(random() * ENHANCEMENT_TYPES.length)] } } } }],
      },
    };
  }
  if (kind === 1) {
    return {
      nested: {
        path: `${side}.enhancements.content.annotations`,
        query: { bool: { must: [{ term: { [`${side}.enhancements.content.annotations.scheme`]: SCHEMES[Math.floor(random() * SCHEMES.length)] } }, { term: { [`${side}.enhancements.content.annotations.value`]: true } }] } },
      },
    };
  }
  if (kind === 2) {
    return {
      bool: {
        filter: [
          { term: { [`${side}.visibility`]: 'public' } },
          { nested: { path: `${side}.enhancements`, query: { bool: { must: [{ term: { [`${side}.enhancements.source`]: SOURCES[Math.floor(random() * SOURCES.length)] } }, { terms: { [`${side}.enhancements.content.enhancement_type`]: [ENHANCEMENT_TYPES[Math.floor(random() * 6)], ENHANCEMENT_TYPES[Math.floor(random() * 6)]] } }] } } } },
        ],
      },
    };
  }
  return { bool: { must: [{ term: { [`${side}.duplicate_determination`]: random() < 0.5 ? 'canonical' : 'duplicate' } }], must_not: [{ exists: { field: `${side}.enhancements.robot_version` } }] } };
}

// Selective automations: a source and an annotation scheme must both be present (~1% of documents).
function selectiveAutomationQuery() {
  const side = random() < 0.8 ? 'changeset' : 'reference';
  return {
    bool: {
      must: [
        { nested: { path: `${side}.enhancements`, query: { term: { [`${side}.enhancements.source`]: SOURCES[Math.floor(random() * SOURCES.length)] } } } },
        { nested: { path: `${side}.enhancements.content.annotations`, query: { bool: { must: [{ term: { [`${side}.enhancements.content.annotations.scheme`]: SCHEMES[Math.floor(random() * SCHEMES.length)] } }, { term: { [`${side}.enhancements.content.annotations.value`]: true } }] } } } },
      ],
      must_not: [{ nested: { path: 'reference.identifiers', query: { term: { 'reference.identifiers.identifier_type': 'other' } } } }],
    },
  };
}

function percolatedDocument(index) {
  const identifiers = [];
  for (let i = 0; i < 1 + Math.floor(random() * 3); i += 1) identifiers.push({ reference_id: `r-${index}`, identifier: `10.1/${index}-${i}`, identifier_type: IDENTIFIER_TYPES[Math.floor(random() * IDENTIFIER_TYPES.length)] });
  const enhancements = [];
  for (let i = 0; i < Math.floor(random() * 4); i += 1) {
    const type = ENHANCEMENT_TYPES[Math.floor(random() * ENHANCEMENT_TYPES.length)];
    const content = { enhancement_type: type };
    if (type === 'annotation') content.annotations = Array.from({ length: 1 + Math.floor(random() * 4) }, () => ({ annotation_type: 'boolean', scheme: SCHEMES[Math.floor(random() * SCHEMES.length)], label: 'x', value: random() < 0.5 }));
    if (type === 'abstract') content.abstract = words(120);
    enhancements.push({ id: `e-${index}-${i}`, reference_id: `r-${index}`, visibility: 'public', source: SOURCES[Math.floor(random() * SOURCES.length)], robot_version: '1.0.0', created_at: '2026-01-31T12:00:00Z', content });
  }
  const half = { visibility: 'public', identifiers, enhancements, duplicate_determination: 'canonical' };
  return { reference: half, changeset: half };
}

async function benchPercolation(client, queryCount, generate = automationQuery, label = 'broad') {
  const index = `automations-${label}-${queryCount}`;
  await client.indices.create({ index, mappings: { properties: { query: { type: 'percolator' }, robot_id: { type: 'keyword' }, reference: referenceDocMapping(), changeset: referenceDocMapping() } } });
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
      mappings: {
        properties: {
          id: { type: 'keyword' }, visibility: { type: 'keyword' }, title: { type: 'text' }, abstract: { type: 'text' }, authors: { type: 'text' },
          publication_year: { type: 'integer' }, publication_date: { type: 'date' }, annotations: { type: 'keyword' }, inclusion_destiny: { type: 'scaled_float', scaling_factor: 10000 },
        },
      },
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

    const queryStrings = [];
    for (let n = 0; n < QUERIES; n += 1) {
      const kind = n % 6;
      if (kind === 0) queryStrings.push(word());
      else if (kind === 1) queryStrings.push(`${word()} ${word()}`);
      else if (kind === 2) queryStrings.push(`${word()} AND ${word()}`);
      else if (kind === 3) queryStrings.push(`"${word()} ${word()}"`);
      else if (kind === 4) queryStrings.push(`${word().slice(0, 4)}* AND publication_year:[2000 TO 2020]`);
      else queryStrings.push(`(${word()} OR ${word()}) -${word()} authors:smith`);
    }
    const latencies = [];
    for (const [n, query] of queryStrings.entries()) {
      const begin = process.hrtime.bigint();
      await client.search({
        index: 'reference',
        from: (n % 5) * 20,
        size: 20,
        query: { bool: { must: [{ query_string: { query, fields: ['title', 'abstract'] } }], filter: [{ range: { publication_year: { gte: 1995 } } }] } },
        // As the search service sorts (contract §7.3): relevance or a field, then id descending.
        sort: n % 3 === 0 ? [{ publication_year: 'desc' }, { _score: 'desc' }, { id: 'desc' }] : [{ _score: 'desc' }, { id: 'desc' }],
      });
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
