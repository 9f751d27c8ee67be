// Deterministic synthetic workload shared by the search benchmarks: reference-like documents,
// typical query strings, and {reference, changeset} percolation documents with automation queries.

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

/** Typical `q` values: single words, OR pairs, AND, phrases, prefix + year range, groups with negation. */
function queryStrings(count) {
  const list = [];
  for (let n = 0; n < count; n += 1) {
    const kind = n % 6;
    if (kind === 0) list.push(word());
    else if (kind === 1) list.push(`${word()} ${word()}`);
    else if (kind === 2) list.push(`${word()} AND ${word()}`);
    else if (kind === 3) list.push(`"${word()} ${word()}"`);
    else if (kind === 4) list.push(`${word().slice(0, 4)}* AND publication_year:[2000 TO 2020]`);
    else list.push(`(${word()} OR ${word()}) -${word()} authors:smith`);
  }
  return list;
}

/** The search request the benchmark sends for the n-th query string (as the search service shapes it). */
function searchRequest(query, n) {
  return {
    from: (n % 5) * 20,
    size: 20,
    query: { bool: { must: [{ query_string: { query, fields: ['title', 'abstract'] } }], filter: [{ range: { publication_year: { gte: 1995 } } }] } },
    // As the search service sorts (contract §7.3): relevance or a field, then id descending.
    sort: n % 3 === 0 ? [{ publication_year: 'desc' }, { _score: 'desc' }, { id: 'desc' }] : [{ _score: 'desc' }, { id: 'desc' }],
  };
}

const REFERENCE_MAPPINGS = {
  properties: {
    id: { type: 'keyword' }, visibility: { type: 'keyword' }, title: { type: 'text' }, abstract: { type: 'text' }, authors: { type: 'text' },
    publication_year: { type: 'integer' }, publication_date: { type: 'date' }, annotations: { type: 'keyword' }, inclusion_destiny: { type: 'scaled_float', scaling_factor: 10000 },
  },
};

function percolatorMappings() {
  return { properties: { query: { type: 'percolator' }, robot_id: { type: 'keyword' }, reference: referenceDocMapping(), changeset: referenceDocMapping() } };
}

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

module.exports = {
  REFERENCE_MAPPINGS,
  automationQuery,
  percentile,
  percolatedDocument,
  percolatorMappings,
  queryStrings,
  referenceDocument,
  searchRequest,
  selectiveAutomationQuery,
};
