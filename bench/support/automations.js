// The 100 automations of the percolation and whole-pipeline benchmarks: five per robot, of the
// contract's query shapes, each robot interested in the references of "its" provider (the source
// of the enhancements, `provider-<n>`) or in its own labels.

function automations(robots) {
  const list = [];
  const fromProvider = (n) => ({ nested: { path: 'changeset.enhancements', query: { term: { 'changeset.enhancements.source': `provider-${n}` } } } });
  robots.forEach((robot, n) => {
    const shapes = [
      // Missing abstract: a DOI arrives and the reference has no abstract.
      { bool: { must: [{ nested: { path: 'changeset.identifiers', query: { term: { 'changeset.identifiers.identifier_type': 'doi' } } } }, fromProvider(n)], must_not: [{ nested: { path: 'reference.enhancements', query: { term: { 'reference.enhancements.content.enhancement_type': 'abstract' } } } }] } },
      // Received abstract.
      { bool: { must: [{ nested: { path: 'changeset.enhancements', query: { term: { 'changeset.enhancements.content.enhancement_type': 'abstract' } } } }, { nested: { path: 'reference.enhancements', query: { term: { 'reference.enhancements.source': `provider-${n}` } } } }] } },
      // Received inclusion:destiny = true.
      { bool: { must: [{ nested: { path: 'changeset.enhancements.content.annotations', query: { bool: { must: [{ term: { 'changeset.enhancements.content.annotations.scheme': 'inclusion:destiny' } }, { term: { 'changeset.enhancements.content.annotations.value': true } }] } } } }, { nested: { path: 'reference.enhancements', query: { term: { 'reference.enhancements.source': `provider-${n}` } } } }] } },
      // Its own annotation scheme = true.
      { nested: { path: 'changeset.enhancements.content.annotations', query: { bool: { must: [{ term: { 'changeset.enhancements.content.annotations.scheme': `scheme-${n}` } }, { term: { 'changeset.enhancements.content.annotations.value': true } }] } } } },
      // A duplicate of its provider's references.
      { bool: { filter: [{ term: { 'changeset.duplicate_determination': 'duplicate' } }, fromProvider(n)] } },
    ];
    for (const query of shapes) list.push({ robot_id: robot, query });
  });
  return list;
}

module.exports = { automations };
