import { EVENTS_EXCHANGE, QUEUES, ROUTING_KEYS, TOPOLOGY } from './topology';

describe('messaging topology', () => {
  it('when the exchanges are declared, then events go to the destiny.events topic exchange', () => {
    expect(TOPOLOGY.exchanges).toEqual([{ name: 'destiny.events', type: 'topic' }]);
    expect(EVENTS_EXCHANGE).toBe('destiny.events');
  });

  it('when the queues are declared, then every named queue is present exactly once', () => {
    expect(TOPOLOGY.queues.map((queue) => queue.name).sort()).toEqual(
      [
        'search-request-service.reference-changed',
        'percolator.reference-changed',
        'robot-broker.references-indexed',
        'robot-broker.automation-matched',
        'import-service.import-batch',
        'import-service.batch-callback',
        'robot-broker.robot-result-import',
        'search-request-service.search-scan',
        'dedup-service.deduplication',
      ].sort(),
    );
  });

  it('when reference.changed is published, then both the search index and the percolator queues receive it', () => {
    const bound = TOPOLOGY.queues.filter((queue) => queue.bindings.some((binding) => binding.exchange === EVENTS_EXCHANGE && binding.routingKey === ROUTING_KEYS.referenceChanged));
    expect(bound.map((queue) => queue.name).sort()).toEqual([QUEUES.percolatorReferenceChanged, QUEUES.searchRequestServiceReferenceChanged]);
  });

  it('when a work queue is declared, then it has no bindings (jobs are sent straight to it)', () => {
    const queue = TOPOLOGY.queues.find((candidate) => candidate.name === QUEUES.importServiceImportBatch);
    expect(queue).toEqual({ name: 'import-service.import-batch', kind: 'work', bindings: [] });
  });

  it('when event queues are declared, then each is bound to the events exchange only', () => {
    for (const queue of TOPOLOGY.queues.filter((candidate) => candidate.kind === 'event')) {
      expect(queue.bindings).toHaveLength(1);
      expect(queue.bindings[0].exchange).toBe(EVENTS_EXCHANGE);
    }
  });

  it('when routing keys are listed, then they are the three events of the catalog', () => {
    expect(Object.values(ROUTING_KEYS)).toEqual(['reference.changed', 'references.indexed', 'automation.matched']);
  });
});
