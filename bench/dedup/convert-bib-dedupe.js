// Converts one data set of the bib-dedupe benchmark (a folder with records_pre_merged.csv and
// merged_record_ids.csv, as in bib_dedupe/data/<name>/ of CoLRev-Environment/bib-dedupe's history)
// into the labelled JSON lines evaluate-haematology.js reads, the shape of the haematology sample:
// authors split on " and ", DOIs dropped (the held-back sets carry none), a proceedings title
// standing in for a missing journal name, dup_group from the merged ids.
//   node bench/dedup/convert-bib-dedupe.js <folder> > set.jsonl
const path = require('node:path');
const { readCsv } = require('./csv-reader');

const folder = process.argv[2];
if (!folder) {
  console.error('Usage: node bench/dedup/convert-bib-dedupe.js <folder with records_pre_merged.csv and merged_record_ids.csv>');
  process.exit(1);
}
const present = (value) => (value === undefined || value.trim() === '' ? null : value.trim());
const groupOf = new Map();
readCsv(path.join(folder, 'merged_record_ids.csv')).forEach((row, index) => {
  const ids = row.merged_ids.split(';').filter(Boolean);
  if (ids.length > 1) for (const id of ids) groupOf.set(id, `g${String(index).padStart(5, '0')}`);
});
for (const row of readCsv(path.join(folder, 'records_pre_merged.csv'))) {
  const year = Number.parseInt(row.year ?? '', 10);
  const authors = present(row.author);
  const line = {
    record_id: row.ID,
    dup_group: groupOf.get(row.ID) ?? `s:${row.ID}`,
    title: present(row.title),
    authors: authors ? authors.split(' and ').map((name) => name.trim()) : [],
    year: Number.isNaN(year) ? null : year,
    doi: null,
    journal: present(row.journal) ?? present(row.booktitle),
    volume: present(row.volume),
    issue: present(row.number),
    pages: present(row.pages),
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
