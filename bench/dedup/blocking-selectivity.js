// Blocking selectivity and decision throughput on a synthetic store: N references with topical
// titles drawn from a skewed vocabulary, many generic titles ("Editorial", "Letter", …), a share of
// title-less records and ~10% perturbed copies (case, punctuation, annotations, truncation,
// abbreviated pages, year + 1). Replayed as a stream; reports candidates met per record, the
// largest key block, speed, and how many copies were found / wrongly merged.
//   node bench/dedup/blocking-selectivity.js [--records 100000] [--seed 7]
const path = require('node:path');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const engine = require(option('engine', path.resolve(__dirname, '../../services/dedup-service/dist/domain/deduplication')));
const total = Number(option('records', '100000'));
let state = Number(option('seed', '7')) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (items) => items[Math.floor(random() * items.length)];
// Zipf-like: low indexes much more frequent (a topical literature reuses the same words).
const skewed = (items) => items[Math.floor(items.length * random() ** 2.5)];
const syllables = ['ka', 'ro', 'mi', 'te', 'lu', 'san', 'dor', 'vel', 'ix', 'pra', 'gen', 'tho', 'qua', 'ne', 'bri', 'sto', 'fa', 'um'];
const word = (parts) => Array.from({ length: parts }, () => pick(syllables)).join('');
const vocabulary = Array.from({ length: 6000 }, () => word(2 + Math.floor(random() * 3)));
const surnames = Array.from({ length: 8000 }, () => word(2 + Math.floor(random() * 2)));
const journals = Array.from({ length: 600 }, () => `Journal of ${word(3)} ${word(2)}`);
const generic = ['Editorial', 'Letter to the editor', 'Reply', 'Erratum', 'Correction', 'Introduction', 'Commentary', 'News', 'In this issue', 'Highlights'];
const cap = (text) => text[0].toUpperCase() + text.slice(1);

const records = [];
const workOf = new Map();
let copies = 0;
let id = 0;
while (records.length < total) {
  const r = random();
  const venueIndex = Math.floor(journals.length * random() ** 1.5);
  const year = 1990 + Math.floor(random() * 35);
  const first = 1 + Math.floor(random() * 2500);
  const record = {
    id: `s${++id}`,
    title: r < 0.06 ? pick(generic) : r < 0.07 ? null : cap(Array.from({ length: 7 + Math.floor(random() * 9) }, () => skewed(vocabulary)).join(' ')),
    authors: r < 0.06 && random() < 0.6 ? [] : Array.from({ length: 1 + Math.floor(random() * 6) }, () => `${cap(skewed(surnames))}, ${String.fromCharCode(65 + Math.floor(random() * 26))}.`),
    year,
    venue: journals[venueIndex],
    volume: String(year - 1985 + (venueIndex % 40)),
    issue: String(1 + Math.floor(random() * 12)),
    pages: r < 0.06 ? String(first) : `${first}-${first + 1 + Math.floor(random() * 14)}`,
    doi: null,
    identifiers: [],
  };
  records.push(record);
  workOf.set(record.id, record.id);
  if (record.title !== null && random() < 0.1 && records.length < total) {
    const pages = record.pages.includes('-') ? record.pages.replace(/-(\d+)$/, (_m, last) => `-${last.slice(-1)}`) : record.pages;
    const copy = {
      ...record,
      id: `s${++id}`,
      title: random() < 0.5 ? `${record.title.toUpperCase()}. [Review]` : `${record.title}.`,
      year: random() < 0.2 ? record.year + 1 : record.year,
      pages: random() < 0.5 ? pages : null,
      authors: record.authors.slice(0, 3).map((name) => name.replace('.', '')),
    };
    records.push(copy);
    workOf.set(copy.id, record.id);
    copies++;
  }
}

// Copies arrive anywhere in the stream.
for (let i = records.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [records[i], records[j]] = [records[j], records[i]];
}

const started = process.hrtime.bigint();
const result = engine.replayStream(records);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const counts = [...result.candidateCounts].sort((a, b) => a - b);
const mean = counts.reduce((sum, count) => sum + count, 0) / counts.length;
let found = 0;
let wrong = 0;
for (const [recordId, decision] of result.decisions) {
  if (decision.determination !== 'duplicate') continue;
  if (workOf.get(recordId) === workOf.get(decision.canonicalId)) found++;
  else wrong++;
}
console.log(`${records.length} records (${copies} perturbed copies), replay ${seconds.toFixed(1)} s (${Math.round(records.length / seconds)} records/s)`);
console.log(`candidates per record: mean ${mean.toFixed(2)}, p50 ${counts[Math.floor(counts.length * 0.5)]}, p99 ${counts[Math.floor(counts.length * 0.99)]}, max ${counts[counts.length - 1]}; largest key block ${result.largestBlock}`);
console.log(`copies merged ${found} of ${copies}; merges across different works ${wrong}`);
