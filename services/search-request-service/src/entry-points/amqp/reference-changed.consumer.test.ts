import { EVENTS_EXCHANGE, QUEUES, ROUTING_KEYS, TOPOLOGY, uuidv7, type ReferenceChangedEvent } from '@destiny/contracts';
import { createInProcessBus, createLogger, deadQueueName, type MessageBus } from '@destiny/platform';
import { startReferenceChangedConsumer } from './reference-changed.consumer';

function event(version = 1): ReferenceChangedEvent {
  const id = uuidv7();
  return {
    event_id: uuidv7(),
    reference_id: id,
    version,
    kind: 'imported',
    reference: { visibility: 'public', id, identifiers: [], enhancements: [], duplicate_decision: null },
    changeset: { visibility: 'public' },
    duplicate_decision: null,
    origin: {},
    occurred_at: new Date().toISOString(),
  };
}

const logger = createLogger({ service: 'consumer-test', level: 'silent' });

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

describe('reference.changed consumer', () => {
  let bus: MessageBus;

  beforeEach(async () => {
    bus = createInProcessBus({ logger });
    await bus.declareTopology(TOPOLOGY);
  });

  afterEach(async () => {
    await bus.close();
  });

  it('when events arrive together, then they are indexed as one batch; one refused document is dead-lettered and the rest acked', async () => {
    const events = [event(), event(), event()];
    const batches: string[][] = [];
    const consumer = await startReferenceChangedConsumer({
      bus,
      logger,
      maxBatch: 3,
      waitMs: 10_000,
      index: async (batch) => {
        batches.push(batch.map((item) => item.reference_id));
        return { rejected: new Map([[events[1].reference_id, '400 mapper_parsing_exception']]) };
      },
    });
    const dead: Array<{ id: string; reason: string | undefined }> = [];
    await bus.consume<ReferenceChangedEvent>(deadQueueName(QUEUES.searchRequestServiceReferenceChanged), async (message, metadata) => {
      dead.push({ id: message.reference_id, reason: metadata.deadLetterReason });
      return { outcome: 'ack' };
    });
    for (const item of events) await bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referenceChanged, item);
    await waitFor(() => dead.length === 1);
    expect(batches).toEqual([events.map((item) => item.reference_id)]);
    expect(dead).toEqual([{ id: events[1].reference_id, reason: 'search index refused the document: 400 mapper_parsing_exception' }]);
    await consumer.stop();
  });

  it('when indexing fails, then the whole batch is retried and indexed on the next attempt', async () => {
    const item = event();
    let calls = 0;
    const consumer = await startReferenceChangedConsumer({
      bus,
      logger,
      maxBatch: 10,
      waitMs: 1,
      index: async () => {
        calls += 1;
        if (calls === 1) throw new Error('cluster unavailable');
        return { rejected: new Map() };
      },
    });
    await bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referenceChanged, item);
    await waitFor(() => calls === 2);
    expect(calls).toBe(2);
    await consumer.stop();
  });

  it('when an event is not contract-shaped, then it is dead-lettered without being indexed', async () => {
    let calls = 0;
    const consumer = await startReferenceChangedConsumer({ bus, logger, maxBatch: 10, waitMs: 1, index: async () => ((calls += 1), { rejected: new Map() }) });
    const dead: string[] = [];
    await bus.consume(deadQueueName(QUEUES.searchRequestServiceReferenceChanged), async (_message, metadata) => {
      dead.push(metadata.deadLetterReason ?? '');
      return { outcome: 'ack' };
    });
    await bus.publish(EVENTS_EXCHANGE, ROUTING_KEYS.referenceChanged, { reference_id: 'not-a-uuid' });
    await waitFor(() => dead.length === 1);
    expect(dead).toEqual(['malformed reference.changed event']);
    expect(calls).toBe(0);
    await consumer.stop();
  });
});
