import { createInProcessBus } from './in-process.bus';
import { namespacedBus, namespacedTopology } from './namespaced.bus';

describe('namespaced bus', () => {
  it('when a topology is namespaced, then exchanges, queues and bindings carry the prefix', () => {
    expect(namespacedTopology({ exchanges: [{ name: 'events', type: 'topic' }], queues: [{ name: 'q', bindings: [{ exchange: 'events', routingKey: 'a.b' }] }, { name: 'work' }] }, 'ns')).toEqual({
      exchanges: [{ name: 'ns.events', type: 'topic' }],
      queues: [
        { name: 'ns.q', bindings: [{ exchange: 'ns.events', routingKey: 'a.b' }] },
        { name: 'ns.work', bindings: undefined },
      ],
    });
  });

  it('when two namespaces share one broker, then each sees only its own messages under the contract names', async () => {
    const broker = createInProcessBus();
    const topology = { exchanges: [{ name: 'events', type: 'topic' as const }], queues: [{ name: 'changes', bindings: [{ exchange: 'events', routingKey: 'thing.#' }] }] };
    const first = namespacedBus(broker, 'first');
    const second = namespacedBus(broker, 'second');
    await first.declareTopology(topology);
    await second.declareTopology(topology);
    const seen: string[] = [];
    await first.consume<{ n: number }>('changes', async (message, metadata) => {
      seen.push(`first:${message.n}:${metadata.queue}`);
      return { outcome: 'ack' };
    });
    await second.consume<{ n: number }>('changes', async (message, metadata) => {
      seen.push(`second:${message.n}:${metadata.queue}`);
      return { outcome: 'ack' };
    });
    await first.publish('events', 'thing.created', { n: 1 });
    await second.publish('events', 'thing.created', { n: 2 });
    for (let attempt = 0; attempt < 100 && seen.length < 2; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen.sort()).toEqual(['first:1:changes', 'second:2:changes']);
    await broker.close();
  });

  it('when the namespace is empty, then the bus is used as it is', () => {
    const broker = createInProcessBus();
    expect(namespacedBus(broker, '')).toBe(broker);
    void broker.close();
  });
});
