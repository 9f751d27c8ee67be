import { createLogger } from '../logging/logger';
import { consumeInBatches } from './batch.consumer';
import { createInProcessBus } from './in-process.bus';
import type { MessageBus, MessagingTopology } from './message-bus';
import { deadQueueName } from './topology';

const logger = createLogger({ service: 'batch-consumer-test', level: 'silent' });
const QUEUE = 'things';
const TOPOLOGY: MessagingTopology = { exchanges: [{ name: 'events', type: 'topic' }], queues: [{ name: QUEUE, bindings: [{ exchange: 'events', routingKey: 'thing.#' }] }] };

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('consumeInBatches', () => {
  let bus: MessageBus;
  const dead: Array<{ name: unknown; reason: string | undefined }> = [];

  beforeEach(async () => {
    dead.length = 0;
    bus = createInProcessBus({ logger });
    await bus.declareTopology(TOPOLOGY);
    await bus.consume<{ name: unknown }>(deadQueueName(QUEUE), async (message, metadata) => {
      dead.push({ name: message.name, reason: metadata.deadLetterReason });
      return { outcome: 'ack' };
    });
  });

  afterEach(async () => {
    await bus.close();
  });

  it('when messages arrive together, then they are handled as one batch and each settled with its own outcome; a message refused by accept never joins a batch', async () => {
    const batches: string[][] = [];
    const consumer = await consumeInBatches<string>(bus, QUEUE, {
      logger,
      maxBatch: 3,
      waitMs: 10_000,
      failureMessage: 'batch failed',
      accept: (message) => {
        const name = (message as { name: unknown }).name;
        return typeof name === 'string' ? { item: name } : { outcome: { outcome: 'dead-letter', reason: 'no name' } };
      },
      handle: async (items) => {
        batches.push(items);
        return items.map((item) => (item === 'b' ? { outcome: 'dead-letter', reason: 'b refused' } : { outcome: 'ack' }));
      },
    });
    for (const name of ['a', 42, 'b', 'c']) await bus.publish('events', 'thing.changed', { name });
    await waitFor(() => dead.length === 2);
    expect(batches).toEqual([['a', 'b', 'c']]);
    expect(dead).toEqual([
      { name: 42, reason: 'no name' },
      { name: 'b', reason: 'b refused' },
    ]);
    await consumer.stop();
  });

  it('when handling a batch throws, then every message of it is retried as a batch again', async () => {
    const batches: string[][] = [];
    const consumer = await consumeInBatches<string>(bus, QUEUE, {
      logger,
      maxBatch: 2,
      waitMs: 10_000,
      retryDelayMs: 1,
      failureMessage: 'batch failed',
      accept: (message) => ({ item: (message as { name: string }).name }),
      handle: async (items) => {
        batches.push([...items].sort());
        if (batches.length === 1) throw new Error('outage');
      },
    });
    for (const name of ['a', 'b']) await bus.publish('events', 'thing.changed', { name });
    await waitFor(() => batches.flat().length >= 4);
    expect(batches).toEqual([
      ['a', 'b'],
      ['a', 'b'],
    ]);
    expect(dead).toEqual([]);
    await consumer.stop();
  });
});
