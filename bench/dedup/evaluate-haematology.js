// Replays the hand-labelled haematology sample through the deduplication engine as a stream
// (file order, then shuffled orders) and prints precision, recall, TP/FP/FN and blocking
// selectivity. Needs a build first (see bench/README.md, "Deduplication").
//   node bench/dedup/evaluate-haematology.js [--file <jsonl>] [--seeds 5] [--verbose]
const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? args[index + 1] : fallback;
};
const engineDir = option('engine', path.resolve(__dirname, '../../services/dedup-service/dist/domain/deduplication'));
const engine = require(engineDir);
const file = option('file', path.resolve(__dirname, '../../../shared/data/dedup/haematology.jsonl'));
const seeds = Number(option('seeds', '5'));
const verbose = args.includes('--verbose');

if (!fs.existsSync(file)) {
  console.error(`Labelled sample not found: ${file}`);
  process.exit(1);
}
const lines = fs.readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line));
const groupOf = new Map(lines.map((line) => [line.record_id, line.dup_group]));
const records = lines.map((line) => engine.toDedupRecord(engine.labelledLineToView(line)));
const byId = new Map(records.map((record) => [record.id, record]));
const lineById = new Map(lines.map((line) => [line.record_id, line]));

function run(label, ordered) {
  const started = process.hrtime.bigint();
  const result = engine.replayStream(ordered);
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  const score = engine.scoreAgainstKey(result.decisions, groupOf);
  const counts = result.candidateCounts;
  const mean = counts.reduce((sum, count) => sum + count, 0) / counts.length;
  console.log(
    `${label.padEnd(14)} precision ${score.precision.toFixed(4)}  recall ${score.recall.toFixed(4)}  TP ${score.truePositives}  FP ${score.falsePositives}  FN ${score.falseNegatives}` +
      `  (per-record FN ${score.falseNegativesPerRecord}, recall ${score.recallPerRecord.toFixed(4)})` +
      `  candidates/record mean ${mean.toFixed(2)} max ${Math.max(...counts)}  largest block ${result.largestBlock}  ${JSON.stringify(score.determinations)}  ${elapsedMs.toFixed(0)} ms`,
  );
  return { score, result };
}

console.log(`${lines.length} records, ${[...new Set(lines.map((l) => l.dup_group))].filter((g) => !g.startsWith('s:')).length} gold groups`);
const { score, result } = run('file order', records);
for (let seed = 1; seed <= seeds; seed++) run(`shuffle ${seed}`, engine.seededShuffle(records, seed));

const show = (id) => {
  const l = lineById.get(id);
  return `    ${id} [${result.decisions.get(id).determination}] ${l.title} | ${(l.authors || []).slice(0, 3).join('; ')} (${(l.authors || []).length}) | ${l.year} | ${l.journal} ${l.volume}(${l.issue}):${l.pages}`;
};
if (score.falseMerges.length > 0) {
  console.log('\nFalse merges (file order):');
  for (const merge of score.falseMerges) {
    console.log(show(merge.recordId));
    console.log(show(merge.canonicalId));
    console.log(`      ${engine.scorePair(byId.get(merge.recordId), byId.get(merge.canonicalId)).reasons.join(' | ')}`);
  }
}
if (verbose) {
  console.log('\nMissed merges (file order):');
  for (const miss of score.missed) {
    console.log(`  ${miss.group}`);
    const members = lines.filter((l) => l.dup_group === miss.group).map((l) => l.record_id);
    for (const id of members) console.log(show(id));
    for (let i = 0; i < members.length; i++)
      for (let j = i + 1; j < members.length; j++) {
        const pair = engine.scorePair(byId.get(members[i]), byId.get(members[j]));
        console.log(`      ${members[i]} ~ ${members[j]}: ${pair.verdict} ${pair.score} ${pair.reasons.join(' | ')}`);
      }
  }
}

if (args.includes('--pairs')) {
  // Every pair, regardless of blocking: are pairwise verdicts precise, and does blocking reach
  // every pair the rules would merge?
  const keysOf = new Map(records.map((record) => [record.id, { filed: new Set(engine.blockingKeys(record)), probed: engine.probeKeys(record) }]));
  // Whichever arrives second must find the first: its probed keys meet the other's filed ones.
  const meets = (later, earlier) => keysOf.get(later).probed.some((key) => keysOf.get(earlier).filed.has(key));
  let duplicatePairs = 0;
  let wrongPairs = 0;
  let unblocked = 0;
  let uncertainPairs = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < records.length; i++) {
    for (let j = i + 1; j < records.length; j++) {
      const verdict = engine.scorePair(records[i], records[j]).verdict;
      if (verdict === 'uncertain') uncertainPairs++;
      if (verdict !== 'duplicate') continue;
      duplicatePairs++;
      const a = records[i].id;
      const b = records[j].id;
      if (groupOf.get(a) !== groupOf.get(b)) {
        wrongPairs++;
        console.log(`  pairwise false merge: ${a} ~ ${b}`);
      }
      if (!meets(a, b) || !meets(b, a)) {
        unblocked++;
        console.log(`  duplicate pair sharing no blocking key: ${a} ~ ${b}`);
      }
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`\nall ${((records.length * (records.length - 1)) / 2).toLocaleString('en')} pairs (${seconds.toFixed(1)} s): ${duplicatePairs} scored duplicate, ${wrongPairs} of them across gold groups, ${unblocked} not reachable through a shared blocking key; ${uncertainPairs} uncertain`);
}
