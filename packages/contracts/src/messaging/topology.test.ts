import { DEAD_LETTER_EXCHANGE, deadLetterQueueName, EVENTS_EXCHANGE, QUEUES, RETRY_EXCHANGE, ROUTING_KEYS, TOPOLOGY, WORK_EXCHANGE } from './topology';

describe('messaging topology', () => {
  it('when the exchanges are declared, then events go to the destiny.events topic exchange', () => {
    expect(TOPOLOGY.exchanges).toContainEqual({ name: 'destiny.events', type: 'topic', durable: true });
    expect(TOPOLOGY.exchanges.map((exchange) => exchange.name)).toEqual([EVENTS_EXCHANGE, WORK_EXCHANGE, RETRY_EXCHANGE, DEAD_LETTER_EXCHANGE]);
  });

  it('when the queues are declared, then every named queue is present exactly once', () => {
    expect(TOPOLOGY.queues.map((queue) => queue.name).sort()).toEqual(
      [
        'search-request-service.reference-changed',
        'percolator.reference-changed',
        'robot-broker.references-indexed',
        'robot-broker.automation-matched',
        'import-service.import-batch',
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

  it('when a work queue is declared, then it is bound to the work and retry exchanges under its own name and dead-letters under it', () => {
    const queue = TOPOLOGY.queues.find((candidate) => candidate.name === QUEUES.importServiceImportBatch);
    expect(queue).toEqual({
      name: 'import-service.import-batch',
      kind: 'work',
      bindings: [
        { exchange: WORK_EXCHANGE, routingKey: 'import-service.import-batch' },
        { exchange: RETRY_EXCHANGE, routingKey: 'import-service.import-batch' },
      ],
      deadLetterRoutingKey: 'import-service.import-batch',
    });
    expect(deadLetterQueueName(QUEUES.importServiceImportBatch)).toBe('import-service.import-batch.dead-letter');
  });

  it('when routing keys are listed, then they are the three events of the catalog', () => {
    expect(Object.values(ROUTING_KEYS)).toEqual(['reference.changed', 'references.indexed', 'automation.matched']);
  });
});
