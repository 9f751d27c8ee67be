import { EVENTS_EXCHANGE, QUEUES, ROUTING_KEYS, TOPOLOGY } from '@destiny/contracts';
import { createInProcessBus, type MessageBus } from '../../src/messaging';
import { testLogger, waitFor } from './messaging.test-support';

// The system's real topology, exercised on the in-process bus: declaring it on the shared
// RabbitMQ from a test would touch queues that running services own.
describe('the contracts topology on a message bus', () => {
  let bus: MessageBus;

  beforeEach(async () => {
    bus = createInProcessBus({ logger: testLogger() });
    await bus.declareTopology(TOPOLOGY);
  });

  afterEach(async () => {
    await bus.close();
  });

  it('when a reference.changed event is published, then both of its event queues receive it', async () => {
    const received: string[] = [];
    for (const queue of [QUEUES.searchRequestServiceReferenceChanged, QUEUES.percolatorReferenceChanged]) {
      await bus.consume(queue, async (_body, meta) => {
        received.push(meta.queue);
        return { outcome: 'ack' };
      });
    }

    await bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referenceChanged, { referenceId: 'r-1' });

    await waitFor(() => received.length === 2, 'both deliveries');
    expect(received.sort()).toEqual([QUEUES.percolatorReferenceChanged, QUEUES.searchRequestServiceReferenceChanged].sort());
  });

  it('when jobs are sent to a work queue by name, then that work queue receives them in order', async () => {
    const received: unknown[] = [];
    await bus.consume(QUEUES.importServiceImportBatch, async (body) => {
      received.push(body);
      return { outcome: 'ack' };
    });

    await bus.sendToQueue(QUEUES.importServiceImportBatch, { batchId: 'b-1' });
    await bus.sendToQueue(QUEUES.importServiceImportBatch, { batchId: 'b-2' });

    await waitFor(() => received.length === 2, 'both jobs');
    expect(received).toEqual([{ batchId: 'b-1' }, { batchId: 'b-2' }]);
  });
});
