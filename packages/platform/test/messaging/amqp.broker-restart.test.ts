// Restarts the shared RabbitMQ broker, so jest runs this file alone in its own phase
// (DESTINY_TEST_PHASE=broker-restart), after every other test.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createAmqpConnection, type AmqpConnection, type MessagingTopology } from '../../src/messaging';
import { RABBITMQ_URL, singleQueueTopology, sleep, testLogger, waitFor } from './messaging.test-support';

const run = promisify(execFile);
const MESSAGES = 2_000;
const PUBLISHERS = 20;

describe('RabbitMQ connection across a broker restart', () => {
  let connection: AmqpConnection | undefined;
  let declared: MessagingTopology | undefined;

  afterEach(async () => {
    if (declared) await connection?.deleteTopology(declared);
    await connection?.close();
  });

  it('when the broker restarts mid-stream, then every confirmed message is consumed and applied exactly once', async () => {
    const bus = await createAmqpConnection({ url: RABBITMQ_URL, logger: testLogger(), name: 'broker-restart-test', publishTimeoutMs: 180_000 });
    connection = bus;
    const { topology, exchange, queue } = singleQueueTopology('restart');
    await bus.declareTopology(topology);
    declared = topology;

    // The idempotent consumer: a redelivery of a message already applied changes nothing.
    const applied = new Set<string>();
    let deliveries = 0;
    await bus.consume(
      queue,
      async (_body, meta) => {
        deliveries++;
        // Some work in flight, as a database write would be, when the broker goes away.
        await sleep(5);
        applied.add(meta.messageId);
        return { outcome: 'ack' };
      },
      { prefetch: 50 },
    );

    const confirmed = new Set<string>();
    const failures: unknown[] = [];
    let next = 0;
    let restart: Promise<void> | null = null;
    let disconnected = false;
    const publisher = async (): Promise<void> => {
      while (next < MESSAGES) {
        const n = next++;
        if (n === MESSAGES / 4) restart = restartBroker(() => (disconnected ||= !bus.isConnected()));
        const messageId = `restart-${n}`;
        try {
          await bus.publish(exchange, 'thing.restart', { n }, { messageId });
          confirmed.add(messageId);
        } catch (err) {
          failures.push(err);
        }
      }
    };

    try {
      await Promise.all(Array.from({ length: PUBLISHERS }, publisher));
    } finally {
      await (restart ?? Promise.resolve());
    }

    expect(disconnected).toBe(true);
    expect(failures).toEqual([]);
    expect(confirmed.size).toBe(MESSAGES);
    await waitFor(() => [...confirmed].every((id) => applied.has(id)), 'every confirmed message to be consumed', 120_000);
    expect(applied.size).toBe(MESSAGES);
    expect(deliveries).toBeGreaterThanOrEqual(MESSAGES);
  }, 300_000);
});

/** Stops and starts the RabbitMQ application, always leaving it running. */
async function restartBroker(observe: () => void): Promise<void> {
  const watcher = setInterval(observe, 20);
  try {
    await run('rabbitmqctl', ['stop_app']);
  } finally {
    await run('rabbitmqctl', ['start_app']);
    await run('rabbitmqctl', ['await_startup']);
    clearInterval(watcher);
  }
}
