import { MessageChannel } from 'node:worker_threads';
import { connectBusToHost, createInProcessBus, serveBusToThread, UnroutableMessageError, type MessageBus } from '../../src/messaging';
import { describeMessageBusBehaviour } from './message-bus.behaviour';
import { singleQueueTopology, testLogger, waitFor } from './messaging.test-support';

// A service thread's bus reaches the launcher's in-process bus over a MessagePort; the two ends
// run here on one thread, which exercises the same messages a worker thread would exchange.
function connectedPair(): { host: MessageBus; thread: MessageBus; channel: MessageChannel } {
  const host = createInProcessBus({ logger: testLogger(), name: 'host' });
  const channel = new MessageChannel();
  serveBusToThread(host, channel.port1);
  return { host, thread: connectBusToHost(channel.port2, 'thread'), channel };
}

const opened: Array<{ host: MessageBus; channel: MessageChannel }> = [];

describeMessageBusBehaviour('bus of a service thread', {
  create: async () => {
    const pair = connectedPair();
    opened.push(pair);
    return pair.thread;
  },
});

afterAll(async () => {
  for (const { host, channel } of opened.splice(0)) {
    channel.port1.close();
    await host.close();
  }
});

describe('bus of a service thread, across the thread boundary', () => {
  it('when the thread publishes, then a consumer on the host receives the same JSON, and the other way round', async () => {
    const { host, thread, channel } = connectedPair();
    const { topology, exchange, queue } = singleQueueTopology('crossing');
    await thread.declareTopology(topology);
    const onHost: unknown[] = [];
    const hostConsumer = await host.consume(queue, async (body) => {
      onHost.push(body);
      return { outcome: 'ack' };
    });
    await thread.publish(exchange, 'thing.created', { id: 1, when: new Date('2026-01-02T03:04:05Z'), nested: { list: [1, 'two', null] } });
    await waitFor(() => onHost.length === 1, 'the host consumer');
    expect(onHost[0]).toEqual({ id: 1, when: '2026-01-02T03:04:05.000Z', nested: { list: [1, 'two', null] } });
    await hostConsumer.stop();

    const onThread: unknown[] = [];
    await thread.consume(queue, async (body) => {
      onThread.push(body);
      return { outcome: 'ack' };
    });
    await host.publish(exchange, 'thing.created', { id: 2 });
    await waitFor(() => onThread.length === 1, 'the thread consumer');
    expect(onThread[0]).toEqual({ id: 2 });
    await thread.close();
    channel.port1.close();
    await host.close();
  });

  it('when the thread publishes many messages in one turn, then they cross in one port message, arrive in order, and only the unroutable one fails', async () => {
    const host = createInProcessBus({ logger: testLogger(), name: 'host' });
    const channel = new MessageChannel();
    serveBusToThread(host, channel.port1);
    const sent: string[] = [];
    const postMessage = channel.port2.postMessage.bind(channel.port2);
    channel.port2.postMessage = (value: { kind: string }) => {
      sent.push(value.kind);
      postMessage(value);
    };
    const thread = connectBusToHost(channel.port2, 'thread');
    const { topology, exchange, queue } = singleQueueTopology('batched');
    await thread.declareTopology(topology);
    const received: unknown[] = [];
    await host.consume(queue, async (body) => {
      received.push(body);
      return { outcome: 'ack' };
    }, { prefetch: 1 });
    sent.length = 0;

    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 50 }, (_unused, index) => thread.publish(exchange, 'thing.batched', { index })),
      thread.publish('no-such-exchange', 'thing.lost', { index: 'lost' }),
      thread.sendToQueue(queue, { index: 50 }),
    ]);

    expect(sent).toEqual(['publish-many']);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([{ status: 'rejected', reason: expect.any(UnroutableMessageError) }]);
    expect(outcomes[50]).toMatchObject({ status: 'rejected' });
    await waitFor(() => received.length === 51, 'every routable message');
    expect(received).toEqual(Array.from({ length: 51 }, (_unused, index) => ({ index })));
    await thread.close();
    channel.port1.close();
    await host.close();
  });

  it('when the launcher\'s bus throws for one message instead of rejecting, then only that publication fails and the others go out', async () => {
    const host = createInProcessBus({ logger: testLogger(), name: 'host' });
    const throwing: MessageBus = Object.assign(Object.create(host) as MessageBus, {
      publish(exchange: string, routingKey: string, message: unknown, options?: object) {
        if (routingKey === 'thing.throws') throw new Error('thrown, not rejected');
        return host.publish(exchange, routingKey, message, options);
      },
    });
    const channel = new MessageChannel();
    serveBusToThread(throwing, channel.port1);
    const thread = connectBusToHost(channel.port2, 'thread');
    const { topology, exchange, queue } = singleQueueTopology('throwing');
    await thread.declareTopology(topology);
    const outcomes = await Promise.allSettled([thread.publish(exchange, 'thing.before', { n: 1 }), thread.publish(exchange, 'thing.throws', { n: 2 }), thread.publish(exchange, 'thing.after', { n: 3 })]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason.message).toBe('thrown, not rejected');
    const received: unknown[] = [];
    await host.consume(queue, async (body) => {
      received.push(body);
      return { outcome: 'ack' };
    });
    await waitFor(() => received.length === 2, 'the two routable messages');
    expect(received).toEqual([{ n: 1 }, { n: 3 }]);
    await thread.close();
    channel.port1.close();
    await host.close();
  });

  it('when a request follows publications of the same turn, then the host receives the publications first', async () => {
    const { host, thread, channel } = connectedPair();
    const { topology, exchange } = singleQueueTopology('ordered');
    await thread.declareTopology(topology);
    // Were the deletion to overtake it, the publication would find no exchange and be refused.
    const published = thread.publish(exchange, 'thing.first', { first: true });
    const deleted = thread.deleteTopology(topology);
    await expect(published).resolves.toBeUndefined();
    await deleted;
    await expect(thread.publish(exchange, 'thing.second', { first: false })).rejects.toBeInstanceOf(UnroutableMessageError);
    await thread.close();
    channel.port1.close();
    await host.close();
  });

  it('when the thread goes away with a delivery in flight, then the host hands the message to another consumer', async () => {
    const { host, thread, channel } = connectedPair();
    const { topology, queue } = singleQueueTopology('orphaned', { retryDelayMs: 10 });
    await host.declareTopology(topology);
    let threadStarted = false;
    await thread.consume(queue, async () => {
      threadStarted = true;
      return new Promise(() => undefined);
    });
    await host.sendToQueue(queue, { id: 'orphan' });
    await waitFor(() => threadStarted, 'the thread handler');
    const redelivered: Array<{ body: unknown; attempt: number }> = [];
    await host.consume(queue, async (body, metadata) => {
      redelivered.push({ body, attempt: metadata.attempt });
      return { outcome: 'ack' };
    });
    channel.port2.close();
    await waitFor(() => redelivered.length === 1, 'the message on the host consumer');
    expect(redelivered[0]).toEqual({ body: { id: 'orphan' }, attempt: 2 });
    await host.close();
  });
});
