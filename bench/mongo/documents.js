// The ~1 KB document of issue #3's MongoDB benchmarks (`email` unique-indexed, `status` indexed).

function documentOf(index) {
  return {
    email: `user${index}@example.org`,
    status: 'pending',
    n: index,
    created: new Date(1700000000000 + index),
    tags: ['reference', `batch-${index % 50}`],
    // ~1 KB per document in total
    title: `Title ${index} `.padEnd(860, 'lorem ipsum dolor sit amet '),
  };
}

module.exports = { documentOf };
