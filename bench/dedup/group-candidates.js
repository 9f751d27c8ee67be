// What-if for the lead: the service compares a new reference with canonicals only, so a merge that
// rests on a cross-reference carried by one duplicate (an erratum note, a "(multiple letters)"
// record) depends on the arrival order. This replays the haematology sample comparing each record
// with every decided member of a group instead (a match decides for the group's canonical) and
// prints the TP spread over shuffled orders. Not what the service does; needs a build first.
//   node bench/dedup/group-candidates.js [--seeds 100] [--file <jsonl>]
const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const engine = require(option('engine', path.resolve(__dirname, '../../services/dedup-service/dist/domain/deduplication')));
const file = option('file', path.resolve(__dirname, '../../../shared/data/dedup/haematology.jsonl'));
const seeds = Number(option('seeds', '100'));

const lines = fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
const groupOf = new Map(lines.map((line) => [line.record_id, line.dup_group]));
const records = lines.map((line) => engine.toDedupRecord(engine.labelledLineToView(line)));

function replayAgainstGroups(ordered) {
  const index = new Map();
  const canonicalOf = new Map();
  const decisions = new Map();
  for (const record of ordered) {
    const keys = engine.blockingKeys(record);
    const seen = new Set();
    const matches = [];
    for (const key of keys) {
      for (const member of index.get(key) ?? []) {
        if (seen.has(member.id)) continue;
        seen.add(member.id);
        const pair = engine.scorePair(record, member);
        if (pair.verdict === 'duplicate') matches.push({ canonicalId: canonicalOf.get(member.id), linked: pair.linked });
      }
    }
    const direct = new Set(matches.filter((match) => !match.linked).map((match) => match.canonicalId));
    const linked = new Set(matches.filter((match) => match.linked).map((match) => match.canonicalId));
    const chosen = [...(direct.size > 0 ? direct : linked)];
    const determination = !engine.isSearchable(record) ? 'unsearchable' : chosen.length === 1 ? 'duplicate' : chosen.length > 1 ? 'decoupled' : 'canonical';
    const canonicalId = determination === 'duplicate' ? chosen[0] : null;
    decisions.set(record.id, { determination, canonicalId, candidateIds: chosen, detail: '' });
    if (determination === 'canonical' || determination === 'duplicate') {
      canonicalOf.set(record.id, canonicalId ?? record.id);
      for (const key of keys) {
        const block = index.get(key);
        if (block) block.push(record);
        else index.set(key, [record]);
      }
    }
  }
  return decisions;
}

const fileOrder = engine.scoreAgainstKey(replayAgainstGroups(records), groupOf);
console.log(`file order: TP ${fileOrder.truePositives} FP ${fileOrder.falsePositives} recall ${fileOrder.recall.toFixed(4)}`);
const histogram = {};
let falsePositives = 0;
for (let seed = 1; seed <= seeds; seed++) {
  const score = engine.scoreAgainstKey(replayAgainstGroups(engine.seededShuffle(records, seed)), groupOf);
  histogram[score.truePositives] = (histogram[score.truePositives] ?? 0) + 1;
  falsePositives += score.falsePositives;
}
console.log(`${seeds} shuffled orders: TP histogram ${JSON.stringify(histogram)}, false positives in all ${falsePositives}`);
