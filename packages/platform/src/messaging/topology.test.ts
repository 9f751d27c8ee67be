import { deadQueueName, resolveConsumeOptions, retryQueueName, sourceOfDeadQueue, validateTopology } from './topology';

describe('topology', () => {
  it('when a queue is named, then its retry and dead-letter queues take suffixes and the dead one leads back to it', () => {
    expect(retryQueueName('imports')).toBe('imports.retry');
    expect(deadQueueName('imports')).toBe('imports.dead');
    expect(sourceOfDeadQueue('imports.dead')).toBe('imports');
    expect(sourceOfDeadQueue('imports')).toBeUndefined();
  });

  it('when consumer options, the queue description and defaults all speak, then the consumer wins, then the description', () => {
    expect(resolveConsumeOptions({ name: 'q', maxAttempts: 3, retryDelayMs: 100 }, { maxAttempts: 7 })).toEqual({ prefetch: 10, maxAttempts: 7, retryDelayMs: 100 });
    expect(resolveConsumeOptions(undefined, undefined)).toEqual({ prefetch: 10, maxAttempts: 5, retryDelayMs: 5000 });
  });

  it('when consume options are not positive integers, then they are refused', () => {
    expect(() => resolveConsumeOptions(undefined, { prefetch: 0 })).toThrow(RangeError);
    expect(() => resolveConsumeOptions(undefined, { maxAttempts: 1.5 })).toThrow(RangeError);
    expect(() => resolveConsumeOptions(undefined, { retryDelayMs: -1 })).toThrow(RangeError);
  });

  it('when a description is consistent, then it validates', () => {
    expect(() =>
      validateTopology({
        exchanges: [{ name: 'events', type: 'topic' }],
        queues: [{ name: 'search.reference-changed', bindings: [{ exchange: 'events', routingKey: 'reference.changed' }], maxAttempts: 3 }],
      }),
    ).not.toThrow();
  });

  it.each([
    ['a binding to an undeclared exchange', { exchanges: [], queues: [{ name: 'q', bindings: [{ exchange: 'nope', routingKey: '#' }] }] }, /undeclared exchange nope/],
    ['a queue declared twice', { exchanges: [], queues: [{ name: 'q' }, { name: 'q' }] }, /declared twice/],
    ['an exchange declared twice', { exchanges: [{ name: 'e', type: 'topic' as const }, { name: 'e', type: 'topic' as const }], queues: [] }, /declared twice/],
    ['a queue named like a derived queue', { exchanges: [], queues: [{ name: 'q.dead' }] }, /reserved/],
    ['an unsupported exchange type', { exchanges: [{ name: 'e', type: 'headers' as never }], queues: [] }, /unsupported type/],
    ['a negative retry delay', { exchanges: [], queues: [{ name: 'q', retryDelayMs: -5 }] }, /retryDelayMs/],
  ])('when a description has %s, then it is refused', (_case, topology, message) => {
    expect(() => validateTopology(topology)).toThrow(message);
  });
});
