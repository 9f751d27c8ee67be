// Replays a labelled set in the ASySD benchmark's CSV form (columns author, title, year, journal,
// number, pages, volume, record_id, source; `source` is "unique" for the one record each work keeps
// and "duplicate" for every other copy) through the deduplication engine, as
// evaluate-haematology.js does, and counts how the engine's groups sit against those labels.
// Such a file names no groups, only which record of each is kept, so the counts are: groups that
// hold two or more kept records (different works merged, by the labels) and groups that hold none
// (copies left apart from their work). The DOI column is dropped, as the held-back sets carry none.
// Needs a build first (see bench/README.md, "Deduplication").
//   node bench/dedup/evaluate-kept-labels.js --csv <file> [--show 10]
const fs = require('node:fs');
const path = require('node:path');
const { readCsv } = require('./csv-reader');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const engine = require(path.resolve(__dirname, '../../services/dedup-service/dist/domain/deduplication'));
const file = option('csv', null);
const show = Number(option('show', '10'));
if (!file || !fs.existsSync(file)) {
  console.error('Usage: node bench/dedup/evaluate-kept-labels.js --csv <labelled CSV>');
  process.exit(1);
}

const present = (value) => (value === undefined || value === '' || value === 'NA' ? null : value.trim());
const rows = readCsv(file);
const lines = rows.map((row) => ({
  record_id: `r${row.record_id}`,
  title: present(row.title),
  // This export runs the names together ("Adeli K.Lewis G. F."): a name ends at its last initial.
  authors: (present(row.author) ?? '').split(/(?<=\.)(?=[A-Z])/).map((name) => name.trim()).filter(Boolean),
  year: /^\d{4}$/.test(row.year ?? '') ? Number(row.year) : null,
  doi: null,
  journal: present(row.journal),
  volume: present(row.volume),
  issue: present(row.number),
  pages: present(row.pages),
}));
const kept = new Set(rows.filter((row) => row.source === 'unique').map((row) => `r${row.record_id}`));
const lineById = new Map(lines.map((line) => [line.record_id, line]));
const records = lines.map((line) => engine.toDedupRecord(engine.labelledLineToView(line)));

const started = process.hrtime.bigint();
const { decisions } = engine.replayStream(records);
const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
const groups = new Map();
for (const [id, decision] of decisions) {
  const root = decision.determination === 'duplicate' ? decision.canonicalId : id;
  if (!groups.has(root)) groups.set(root, []);
  groups.get(root).push(id);
}
const merged = [...groups.values()].filter((members) => members.filter((id) => kept.has(id)).length >= 2);
const apart = [...groups.values()].filter((members) => !members.some((id) => kept.has(id)));
const duplicates = [...decisions.values()].filter((decision) => decision.determination === 'duplicate').length;

console.log(`${lines.length} records; labels: ${kept.size} works kept, ${lines.length - kept.size} copies`);
console.log(`engine (${elapsedMs.toFixed(0)} ms): ${groups.size} groups, ${duplicates} marked duplicate`);
console.log(`groups holding two or more kept records (works merged, by the labels): ${merged.length} (${merged.reduce((sum, members) => sum + members.length, 0)} records)`);
console.log(`groups holding no kept record (copies left apart from their work): ${apart.length} (${apart.reduce((sum, members) => sum + members.length, 0)} records)`);

const describe = (id) => {
  const line = lineById.get(id);
  return `    ${id} ${kept.has(id) ? 'kept' : 'copy'} ${line.title} | ${line.authors.slice(0, 2).join('; ')} (${line.authors.length}) | ${line.year} | ${line.journal} ${line.volume}(${line.issue}):${line.pages}`;
};
for (const [label, list] of [['Merged', merged], ['Apart', apart]]) {
  for (const members of list.slice(0, show)) {
    console.log(`  ${label}:`);
    for (const id of members) console.log(describe(id));
  }
}
