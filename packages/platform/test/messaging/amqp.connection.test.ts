import { execFileSync } from 'node:child_process';
import net from 'node:net';
import { connect, type ChannelModel } from 'amqplib';
import {
  createAmqpConnection,
  deadQueueName,
  PublishTimeoutError,
  retryQueueName,
  UnroutableMessageError,
  type AmqpConnection,
  type MessageMetadata,
  type MessagingTopology,
} from '../../src/messaging';
import { Gate, RABBITMQ_URL, singleQueueTopology, sleep, TcpRelay, testLogger, waitFor } from './messaging.test-support';

describe('RabbitMQ connection', () => {
  let raw: ChannelModel;
  const connections: AmqpConnection[] = [];
  const topologies: MessagingTopology[] = [];

  async function open(url = RABBITMQ_URL, extra: { publishTimeoutMs?: number } = {}): Promise<AmqpConnection> {
    const connection = await createAmqpConnection({ url, logger: testLogger(), name: 'amqp-connection-test', reconnectInitialDelayMs: 100, reconnectMaxDelayMs: 500, ...extra });
    connections.push(connection);
    return connection;
  }

  async function declare(connection: AmqpConnection, prefix: string, queue: Parameters<typeof singleQueueTopology>[1] = {}): Promise<ReturnType<typeof singleQueueTopology>> {
    const declared = singleQueueTopology(prefix, queue);
    await connection.declareTopology(declared.topology);
    topologies.push(declared.topology);
    return declared;
  }

  beforeAll(async () => {
    raw = await connect(RABBITMQ_URL);
  });

  afterEach(async () => {
    const cleaner = await open();
    for (const topology of topologies.splice(0)) await cleaner.deleteTopology(topology);
    for (const connection of connections.splice(0)) await connection.close();
  });

  afterAll(async () => {
    await raw.close();
  });

  it('when a topology is declared, then each queue gets durable quorum retry and dead-letter queues wired back to it', async () => {
    const connection = await open();
    const { queue } = await declare(connection, 'declared');

    const listed = JSON.parse(execFileSync('rabbitmqctl', ['list_queues', 'name', 'type', 'durable', 'arguments', '--formatter', 'json', '-q'], { encoding: 'utf8' })) as Array<{
      name: string;
      type: string;
      durable: boolean;
      arguments: Array<[string, string, unknown]>;
    }>;
    const byName = new Map(listed.map((q) => [q.name, { type: q.type, durable: q.durable, args: Object.fromEntries(q.arguments.map(([key, , value]) => [key, value])) }]));

    expect(byName.get(queue)).toMatchObject({ type: 'quorum', durable: true, args: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': deadQueueName(queue) } });
    expect(byName.get(retryQueueName(queue))).toMatchObject({ type: 'quorum', durable: true, args: { 'x-dead-letter-exchange': '', 'x-dead-letter-routing-key': queue } });
    expect(byName.get(deadQueueName(queue))).toMatchObject({ type: 'quorum', durable: true });
  });

  it('when a message that is not JSON arrives, then it is dead-lettered without reaching the handler and shown as text in the dead-letter queue', async () => {
    const connection = await open();
    const { queue } = await declare(connection, 'not-json');
    const handled: unknown[] = [];
    await connection.consume(queue, async (body) => {
      handled.push(body);
      return { outcome: 'ack' };
    });
    const dead: Array<{ body: unknown; meta: MessageMetadata }> = [];
    const channel = await raw.createChannel();
    await connection.consume(deadQueueName(queue), async (body, meta) => {
      dead.push({ body, meta });
      return { outcome: 'ack' };
    });

    channel.sendToQueue(queue, Buffer.from('{"broken":'), { messageId: 'garbage-1', persistent: true });
    channel.sendToQueue(queue, Buffer.from('{"fine":true}'), { messageId: 'fine-1', persistent: true });
    await channel.close();

    await waitFor(() => handled.length === 1 && dead.length === 1, 'the valid and the dead-lettered message');
    expect(handled).toEqual([{ fine: true }]);
    expect(dead[0].body).toBe('{"broken":');
    expect(dead[0].meta.messageId).toBe('garbage-1');
    expect(dead[0].meta.deadLetterReason).toMatch(/^invalid JSON/);
  });

  it('when a foreign publisher sends a message without an id, then the handler gets an id derived from its content', async () => {
    const connection = await open();
    const { queue } = await declare(connection, 'no-id');
    const ids: string[] = [];
    await connection.consume(queue, async (_body, meta) => {
      ids.push(meta.messageId);
      return meta.attempt === 1 ? { outcome: 'retry', reason: 'again' } : { outcome: 'ack' };
    }, { retryDelayMs: 10 });
    const channel = await raw.createChannel();

    channel.sendToQueue(queue, Buffer.from('{"n":1}'));
    await channel.close();

    await waitFor(() => ids.length === 2, 'both deliveries');
    expect(ids[0]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(ids[1]).toBe(ids[0]);
  });

  it('when publishing to an exchange that does not exist, then the publish rejects as unroutable and the connection keeps working', async () => {
    const connection = await open();
    const { queue } = await declare(connection, 'missing-exchange');
    const received: unknown[] = [];
    await connection.consume(queue, async (body) => {
      received.push(body);
      return { outcome: 'ack' };
    });

    await expect(connection.publish(`no-such-exchange-${Date.now()}`, 'thing.x', { a: 1 })).rejects.toBeInstanceOf(UnroutableMessageError);
    await connection.sendToQueue(queue, { still: 'working' });

    await waitFor(() => received.length === 1, 'the message after the failure');
    expect(received).toEqual([{ still: 'working' }]);
  });

  it('when the connection closes while a handler runs, then close waits for it and its dead-letter outcome still reaches the broker', async () => {
    const connection = await open();
    const { queue } = await declare(connection, 'close-drain');
    const gate = new Gate();
    let started = false;
    await connection.consume(queue, async () => {
      started = true;
      await gate.opened;
      return { outcome: 'dead-letter', reason: 'rejected during shutdown' };
    });
    await connection.sendToQueue(queue, { n: 1 }, { messageId: 'draining' });
    await waitFor(() => started, 'the handler to start');

    let closed = false;
    const closing = connection.close().then(() => {
      closed = true;
    });
    await sleep(200);
    expect(closed).toBe(false);
    gate.open();
    await closing;

    const inspector = await open();
    const dead: MessageMetadata[] = [];
    await inspector.consume(deadQueueName(queue), async (_body, meta) => {
      dead.push(meta);
      return { outcome: 'ack' };
    });
    await waitFor(() => dead.length === 1, 'the dead-lettered message');
    expect(dead[0]).toMatchObject({ messageId: 'draining', deadLetterReason: 'rejected during shutdown' });
  });

  it('when the first connection is refused and no retries are allowed, then creating the connection rejects', async () => {
    const port = await closedPort();

    await expect(
      createAmqpConnection({ url: `amqp://guest:guest@127.0.0.1:${port}`, logger: testLogger(), name: 'refused', initialMaxRetries: 0 }),
    ).rejects.toThrow();
  });

  describe('through a network that drops', () => {
    let relay: TcpRelay;

    beforeEach(async () => {
      relay = new TcpRelay();
      await relay.start();
    });

    afterEach(async () => {
      await relay.stop();
    });

    it('when the network drops and comes back, then publishing waits, the consumer restarts and every confirmed message is consumed', async () => {
      const connection = await open(relay.url);
      const { exchange, queue } = await declare(connection, 'drop');
      const seen = new Set<string>();
      await connection.consume(queue, async (_body, meta) => {
        seen.add(meta.messageId);
        return { outcome: 'ack' };
      });
      await connection.publish(exchange, 'thing.before', { n: 0 }, { messageId: 'before' });
      await waitFor(() => seen.has('before'), 'the message before the drop');

      relay.cut();
      await waitFor(() => !connection.isConnected(), 'the connection to notice the drop');
      let confirmed = false;
      const during = connection.publish(exchange, 'thing.during', { n: 1 }, { messageId: 'during' }).then(() => {
        confirmed = true;
      });
      await sleep(300);
      expect(confirmed).toBe(false);
      relay.restore();
      await during;
      await connection.publish(exchange, 'thing.after', { n: 2 }, { messageId: 'after' });

      await waitFor(() => seen.has('during') && seen.has('after'), 'the messages published around the drop');
      expect(connection.isConnected()).toBe(true);
    });

    it('when the queues vanish while the network is down, then the reconnection declares them again before consuming', async () => {
      const connection = await open(relay.url);
      const { exchange, queue } = await declare(connection, 'redeclare');
      const seen: string[] = [];
      await connection.consume(queue, async (_body, meta) => {
        seen.push(meta.messageId);
        return { outcome: 'ack' };
      });

      relay.cut();
      await waitFor(() => !connection.isConnected(), 'the connection to notice the drop');
      const channel = await raw.createChannel();
      for (const name of [queue, retryQueueName(queue), deadQueueName(queue)]) await channel.deleteQueue(name);
      await channel.deleteExchange(exchange);
      await channel.close();
      relay.restore();
      await waitFor(() => connection.isConnected(), 'the reconnection');

      await connection.publish(exchange, 'thing.back', { n: 1 }, { messageId: 'back' });

      await waitFor(() => seen.includes('back'), 'the message on the re-declared queue');
    });

    it('when the broker stays unreachable, then a publish rejects once its timeout passes', async () => {
      const connection = await open(relay.url);
      const { exchange } = await declare(connection, 'timeout');
      relay.cut();
      await waitFor(() => !connection.isConnected(), 'the connection to notice the drop');

      await expect(connection.publish(exchange, 'thing.lost', { n: 1 }, { timeoutMs: 300 })).rejects.toBeInstanceOf(PublishTimeoutError);
      relay.restore();
      await waitFor(() => connection.isConnected(), 'the reconnection');
    });
  });
});

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
