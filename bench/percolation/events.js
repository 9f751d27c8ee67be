// The `reference.changed` events of the percolation benchmarks, contract-shaped as dedup-service
// emits them (deterministic): 70% first decisions of fresh imports, 10% duplicates joining a
// canonical, 20% robot enhancements (200 consecutive results of a robot share a batch id).
const path = require('node:path');

const { uuidv7 } = require(path.resolve(__dirname, '..', '..', 'packages/contracts/dist/index.js'));

const ROBOTS = 20;

let seed = 11;
function random() {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
}
const pick = (items) => items[Math.floor(random() * items.length)];
const SCHEMES = ['inclusion:destiny', ...Array.from({ length: 20 }, (_, n) => `scheme-${n}`)];

function enhancement(referenceId, content, source) {
  return { id: uuidv7(), reference_id: referenceId, source, visibility: 'public', robot_version: '1.0.0', derived_from: null, content, created_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(random() * 1e9)).toISOString() };
}

function bibliographic(id, provider = `provider-${Math.floor(random() * ROBOTS)}`) {
  return enhancement(id, { enhancement_type: 'bibliographic', title: `Study ${id}`, publication_year: 2000 + Math.floor(random() * 25), pagination: { volume: '3', issue: null, first_page: '10', last_page: '19' }, authorship: [{ display_name: 'Ann Smith', orcid: null, position: 'first' }] }, provider);
}

function doc(id, identifiers, enhancements, determination) {
  const out = { visibility: 'public', identifiers: identifiers.map((item) => ({ reference_id: id, identifier: String(item.identifier), identifier_type: item.identifier_type })) };
  const kept = enhancements.filter((item) => item.content.enhancement_type !== 'raw').map(({ derived_from: _d, ...item }) => ({ ...item, content: item.content.enhancement_type === 'bibliographic' ? (({ pagination: _p, ...rest }) => rest)(item.content) : item.content }));
  if (kept.length > 0) out.enhancements = kept;
  if (determination) out.duplicate_determination = determination;
  return out;
}

// A robot's results arrive in batches: 200 consecutive enhancements of a robot share a batch id.
const robotBatches = new Map();
function batchOf(robot) {
  const current = robotBatches.get(robot);
  if (current && current.left > 0) {
    current.left -= 1;
    return current.id;
  }
  const next = { id: uuidv7(), left: 199 };
  robotBatches.set(robot, next);
  return next.id;
}

/** 70% first decisions of fresh imports, 10% duplicates joining a canonical, 20% robot enhancements. */
function referenceChanged(robots) {
  const id = uuidv7();
  const identifiers = [{ identifier: `10.5555/${id}`, identifier_type: 'doi' }, ...(random() < 0.5 ? [{ identifier: Math.floor(random() * 1e8) + 1, identifier_type: 'pm_id' }] : [])];
  const enhancements = [bibliographic(id), ...(random() < 0.5 ? [enhancement(id, { enhancement_type: 'abstract', process: 'other', abstract: 'Background and methods.' }, 'openalex')] : [])];
  const roll = random();
  const canonical = { duplicate_determination: 'canonical', canonical_reference_id: null };
  const base = { event_id: uuidv7(), reference_id: id, version: 2, occurred_at: new Date().toISOString() };
  if (roll < 0.7) {
    return { ...base, kind: 'duplicate_decision_changed', reference: { visibility: 'public', id, identifiers, enhancements, duplicate_decision: canonical }, changeset: doc(id, identifiers, enhancements, 'canonical'), duplicate_decision: canonical, origin: {} };
  }
  if (roll < 0.8) {
    const duplicateId = uuidv7();
    const duplicateIdentifiers = [{ identifier: `10.5555/${duplicateId}`, identifier_type: 'doi' }];
    const duplicateEnhancements = [bibliographic(duplicateId)];
    const view = { visibility: 'public', id, identifiers: [...identifiers, ...duplicateIdentifiers], enhancements: [...enhancements, ...duplicateEnhancements], duplicate_decision: canonical };
    return { ...base, kind: 'duplicate_decision_changed', reference: view, changeset: doc(duplicateId, duplicateIdentifiers, duplicateEnhancements, 'duplicate'), duplicate_decision: canonical, origin: {} };
  }
  const origin = Math.floor(random() * ROBOTS);
  const added = random() < 0.5
    ? enhancement(id, { enhancement_type: 'abstract', process: 'closed_api', abstract: 'Found abstract.' }, `robot-${origin}`)
    : enhancement(id, { enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: pick(SCHEMES), label: 'include', value: random() < 0.6, score: 0.8, data: {} }] }, `robot-${origin}`);
  return {
    ...base,
    kind: 'enhanced',
    reference: { visibility: 'public', id, identifiers, enhancements: [...enhancements, added], duplicate_decision: canonical },
    changeset: { visibility: 'public', enhancements: doc(id, [], [added], null).enhancements },
    duplicate_decision: canonical,
    origin: { robot_id: robots[origin], robot_enhancement_batch_id: batchOf(origin) },
  };
}

module.exports = { ROBOTS, referenceChanged };
