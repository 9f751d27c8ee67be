// Scores labelled record pairs one by one with the engine's pairwise verdict, as bib-dedupe's
// tests/test_cases.json holds them ({"cases":[{id, note, record_a, record_b, expected_duplicate}]},
// BibTeX-style fields). DOIs are dropped as in the held-back sets unless --doi is given. Needs a build
// first (see bench/README.md, "Deduplication").
//   node bench/dedup/evaluate-pair-cases.js --file <test_cases.json> [--doi]
const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const fileIndex = args.indexOf('--file');
if (fileIndex < 0 || !args[fileIndex + 1]) {
  console.error('Usage: node bench/dedup/evaluate-pair-cases.js --file <test_cases.json> [--doi]');
  process.exit(1);
}
const keepDoi = args.includes('--doi');
const engine = require(path.resolve(__dirname, '../../services/dedup-service/dist/domain/deduplication'));
const { cases } = JSON.parse(fs.readFileSync(args[fileIndex + 1], 'utf8'));
const present = (value) => (value === undefined || value === null || String(value).trim() === '' ? null : String(value).trim());

let counter = 0;
function recordOf(fields) {
  const year = Number.parseInt(fields.year ?? '', 10);
  const authors = present(fields.author);
  counter += 1;
  const line = {
    record_id: `case_${counter}`,
    title: present(fields.title),
    authors: authors ? authors.split(' and ').map((name) => name.trim()) : [],
    year: Number.isNaN(year) ? null : year,
    doi: keepDoi ? present(fields.doi) : null,
    journal: present(fields.journal) ?? present(fields.booktitle),
    volume: present(fields.volume),
    issue: present(fields.number),
    pages: present(fields.pages),
  };
  return engine.toDedupRecord(engine.labelledLineToView(line));
}

let agreed = 0;
for (const pair of cases) {
  const score = engine.scorePair(recordOf(pair.record_a), recordOf(pair.record_b));
  const ok = (score.verdict === 'duplicate') === pair.expected_duplicate;
  if (ok) agreed += 1;
  console.log(`${ok ? 'agrees  ' : 'DIFFERS '} expected ${pair.expected_duplicate ? 'duplicate' : 'distinct '}  got ${score.verdict.padEnd(9)}  ${pair.id}`);
  if (!ok) console.log(`         ${pair.note}\n         ${score.reasons.join(' | ')}`);
}
console.log(`${agreed} of ${cases.length} pairs agree with their labels`);
