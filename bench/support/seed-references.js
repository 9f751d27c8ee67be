// Seeding shared by the robot benches (not measured): bibliographic references ingested through
// dedup-service's IngestReferences, 1,000 per call, then waited on until each has a decision.
const crypto = require('node:crypto');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');
const platform = require(path.join(root, 'packages/platform/dist/index.js'));
const { uuidv7 } = require(path.join(root, 'packages/contracts/dist/index.js'));

/** `count` references with DOIs `10.9999/<tag>.<i>` and titles `<title> <i> <random>`; returns their ids in order. */
async function seedDecidedReferences(dedupClient, { count, tag, title }) {
  const unary = (method, request) => platform.callUnary(dedupClient, dedupClient[method], request, { deadlineMs: 600_000 });
  const referenceIds = [];
  for (let start = 0; start < count; start += 1000) {
    const lines = [];
    for (let i = start; i < Math.min(count, start + 1000); i += 1) {
      lines.push({
        line_number: i + 1,
        import_result_id: uuidv7(),
        reference_json: JSON.stringify({
          visibility: 'public',
          identifiers: [{ identifier: `10.9999/${tag}.${i}`, identifier_type: 'doi' }],
          enhancements: [{ source: 'seed', visibility: 'public', content: { enhancement_type: 'bibliographic', title: `${title} ${i} ${crypto.randomUUID()}`, publication_year: 2000 + (i % 25) } }],
        }),
      });
    }
    const response = await unary('IngestReferences', { import_batch_id: uuidv7(), collision_strategy: 'fail', lines });
    for (const outcome of response.outcomes) referenceIds.push(outcome.reference_id);
  }
  // Deduplication of the new references runs in the background; let it finish first.
  for (let start = 0; start < referenceIds.length; ) {
    const views = (await unary('GetDeduplicatedViews', { ids: referenceIds.slice(start, start + 1000) })).json.map((text) => JSON.parse(text));
    if (views.every((view) => view.duplicate_decision !== null)) start += 1000;
    else await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return referenceIds;
}

module.exports = { seedDecidedReferences };
