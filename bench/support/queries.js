// The typical §7.3 reference searches of the reference-search and whole-pipeline benchmarks, as
// the SDK sends them: eight kinds in rotation, words drawn from the benchmark's own vocabulary.

/** Query n: `word()` and `surname()` draw from the indexed data, `random()` picks a page. */
function typicalQuery(n, { word, surname, random }) {
  switch (n % 8) {
    case 0: return { q: word() };
    case 1: return { q: `${word()} ${word()}` };
    case 2: return { q: `${word()} AND ${word()}` };
    case 3: return { q: `"${word()} ${word()}"` };
    case 4: return { q: `title:${word()}`, start_year: 2000, end_year: 2015 };
    case 5: return { q: `${word()} -${word()}`, annotation: ['inclusion:destiny/include'] };
    case 6: return { q: `${word()} OR ${word()}`, sort: ['-publication_year'], page: 1 + Math.floor(random() * 5) };
    default: return { q: `authors:${surname()} AND ${word()}`, annotation: ['inclusion:destiny@0.5'] };
  }
}

/** The query parameters as the gateway reads them (repeated keys for lists). */
function queryString(parameters) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(parameters)) for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  return search.toString();
}

module.exports = { typicalQuery, queryString };
