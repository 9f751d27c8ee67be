// Deterministic, realistic import lines (ReferenceFileInput JSONL, ~1.6 KB each) shared by the
// import and whole-pipeline benchmarks: 60% with a DOI, 30% with a PubMed id, a bibliographic
// enhancement (title of 8–15 words from a 6,000-word vocabulary, 2–6 authors, year, venue,
// volume/issue/pages) and an abstract of 60–90 words; about 5% of the lines repeat an earlier
// line's bibliographic record under another identifier (expected to be found as duplicates).
const fs = require('node:fs');

const SYLLABLES = ['ca', 'ro', 'mi', 'ten', 'gra', 'lo', 'vus', 'phe', 'dri', 'nal', 'ko', 'sta', 'ber', 'qui', 'zen', 'tor', 'bil', 'mor', 'sen', 'dac'];
const DUPLICATE_SHARE = 0.05;

/**
 * `source(i)` names the source of line i's enhancements (default `bench-importer`); the pipeline
 * benchmark spreads lines over the providers its automations watch. Same seed, same lines.
 */
function createReferenceGenerator({ seed = 42, source = () => 'bench-importer' } = {}) {
  // mulberry32: a full-period 32-bit generator (a float LCG would lose precision and repeat titles).
  let state = seed;
  const random = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const word = () => Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(SYLLABLES)).join('');
  const vocabulary = Array.from({ length: 6000 }, word);
  const surnames = Array.from({ length: 3000 }, () => word().replace(/^./, (c) => c.toUpperCase()));
  const venues = Array.from({ length: 400 }, () => `Journal of ${pick(vocabulary)} ${pick(vocabulary)}`);
  const recent = [];

  function freshReference(i) {
    const title = Array.from({ length: 8 + Math.floor(random() * 8) }, () => pick(vocabulary)).join(' ');
    const authors = Array.from({ length: 2 + Math.floor(random() * 5) }, (_, k) => ({ display_name: `${pick(surnames)} ${String.fromCharCode(65 + Math.floor(random() * 26))}.`, position: k === 0 ? 'first' : 'middle' }));
    authors[authors.length - 1].position = authors.length > 1 ? 'last' : 'first';
    const year = 1990 + Math.floor(random() * 35);
    const volume = String(1 + Math.floor(random() * 80));
    const first = 1 + Math.floor(random() * 900);
    const identifiers = [];
    if (random() < 0.6) identifiers.push({ identifier: `10.${4000 + (i % 900)}/bench.${i}`, identifier_type: 'doi' });
    if (random() < 0.3 || identifiers.length === 0) identifiers.push({ identifier: 10_000_000 + i, identifier_type: 'pm_id' });
    const abstract = Array.from({ length: 60 + Math.floor(random() * 30) }, () => pick(vocabulary)).join(' ');
    return {
      visibility: 'public',
      identifiers,
      enhancements: [
        {
          source: source(i),
          visibility: 'public',
          processor_version: '1.0',
          content: {
            enhancement_type: 'bibliographic',
            title,
            authorship: authors,
            publication_year: year,
            publication_venue: { display_name: pick(venues), venue_type: 'journal' },
            pagination: { volume, issue: String(1 + Math.floor(random() * 12)), first_page: String(first), last_page: String(first + 5 + Math.floor(random() * 20)) },
          },
        },
        { source: source(i), visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract } },
      ],
    };
  }

  /** Line i (call in order: the duplicates draw on the lines generated before). */
  function reference(i) {
    if (recent.length > 100 && random() < DUPLICATE_SHARE) {
      const original = pick(recent);
      return { visibility: 'public', identifiers: [{ identifier: `dup-${i}`, identifier_type: 'other', other_identifier_name: 'bench-catalogue' }], enhancements: original.enhancements };
    }
    const fresh = freshReference(i);
    recent.push(fresh);
    if (recent.length > 2000) recent.shift();
    return fresh;
  }

  /**
   * Writes `total` lines to `file`; answers the file's size in bytes. Lines are numbered from
   * `firstIndex`, which their identifiers carry: files written from disjoint ranges share none.
   */
  function writeFile(file, total, firstIndex = 0) {
    const out = fs.openSync(file, 'w');
    let bytes = 0;
    let buffer = [];
    for (let i = firstIndex; i < firstIndex + total; i += 1) {
      const line = `${JSON.stringify(reference(i))}\n`;
      bytes += Buffer.byteLength(line);
      buffer.push(line);
      if (buffer.length === 1000) {
        fs.writeSync(out, buffer.join(''));
        buffer = [];
      }
    }
    fs.writeSync(out, buffer.join(''));
    fs.closeSync(out);
    return bytes;
  }

  return { random, pick, vocabulary, surnames, venues, reference, writeFile };
}

module.exports = { createReferenceGenerator, DUPLICATE_SHARE };
