// The behaviour every MessageBus must show, run against RabbitMQ and against the in-process bus.
import { context, propagation, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { deadQueueName, UnroutableMessageError, MessageBusClosedError, type MessageBus, type MessageMetadata, type MessagingTopology } from '../../src/messaging';
import { Gate, singleQueueTopology, sleep, waitFor } from './messaging.test-support';

export interface BusHarness {
  create(): Promise<MessageBus>;
}

interface Received {
  body: unknown;
  meta: MessageMetadata;
  at: number;
}

export function describeMessageBusBehaviour(label: string, harness: BusHarness): void {
  describe(`${label}: message bus behaviour`, () => {
    let bus: MessageBus;
    const topologies: MessagingTopology[] = [];

    async function declare(prefix: string, queue: Parameters<typeof singleQueueTopology>[1] = {}): Promise<ReturnType<typeof singleQueueTopology>> {
      const declared = singleQueueTopology(prefix, queue);
      await bus.declareTopology(declared.topology);
      topologies.push(declared.topology);
      return declared;
    }

    beforeAll(() => {
      context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    });

    afterAll(() => {
      context.disable();
      propagation.disable();
    });

    beforeEach(async () => {
      bus = await harness.create();
    });

    afterEach(async () => {
      for (const topology of topologies.splice(0)) await bus.deleteTopology(topology).catch(() => undefined);
      await bus.close();
    });

    it('when an event is published to a topic exchange, then the bound queue consumer receives the JSON body and its metadata', async () => {
      const { exchange, queue } = await declare('roundtrip');
      const received: Received[] = [];
      await bus.consume(queue, async (body, meta) => {
        received.push({ body, meta, at: Date.now() });
        return { outcome: 'ack' };
      });

      await bus.publish(exchange, 'thing.created', { id: 42, title: 'A study' }, { messageId: 'msg-1', headers: { 'x-tenant': 'destiny' } });
      await bus.publish(exchange, 'other.created', { id: 43 }, { messageId: 'msg-not-routed' });

      await waitFor(() => received.length === 1, 'the routed message');
      expect(received[0].body).toEqual({ id: 42, title: 'A study' });
      expect(received[0].meta).toMatchObject({ messageId: 'msg-1', attempt: 1, exchange, routingKey: 'thing.created', queue, redelivered: false });
      expect(received[0].meta.headers['x-tenant']).toBe('destiny');
      await sleep(200);
      expect(received.map((r) => r.meta.messageId)).toEqual(['msg-1']);
    });

    it('when a queue is bound or deleted between publications with the same routing key, then each publication goes to the queues bound at that moment', async () => {
      const first = await declare('rebinding');
      const second = { name: `${first.queue}.second`, bindings: [{ exchange: first.exchange, routingKey: 'thing.*' }] };
      // Declared with the exchange it binds to; deleted without it, so the exchange stays.
      const secondTopology: MessagingTopology = { exchanges: [{ name: first.exchange, type: 'topic' }], queues: [second] };
      const received: Array<{ queue: string; body: unknown }> = [];
      const collect = (queue: string) => async (body: unknown) => {
        received.push({ queue, body });
        return { outcome: 'ack' as const };
      };
      await bus.consume(first.queue, collect('first'));

      await bus.publish(first.exchange, 'thing.moved', { n: 1 });
      await bus.declareTopology(secondTopology);
      const secondConsumer = await bus.consume(second.name, collect('second'));
      await bus.publish(first.exchange, 'thing.moved', { n: 2 });
      await waitFor(() => received.length === 3, 'three deliveries');
      await secondConsumer.stop();
      await bus.deleteTopology({ exchanges: [], queues: [second] });
      await bus.publish(first.exchange, 'thing.moved', { n: 3 });
      await waitFor(() => received.length === 4, 'the fourth delivery');
      await sleep(100);

      const sorted = (queue: string) => received.filter((item) => item.queue === queue).map((item) => (item.body as { n: number }).n).sort();
      expect(sorted('first')).toEqual([1, 2, 3]);
      expect(sorted('second')).toEqual([2]);
    });

    it('when a message is sent straight to a work queue, then its consumer receives it', async () => {
      const { queue } = await declare('work');
      const received: unknown[] = [];
      await bus.consume(queue, async (body) => {
        received.push(body);
        return { outcome: 'ack' };
      });

      await bus.sendToQueue(queue, { job: 'import', batch: 7 });

      await waitFor(() => received.length === 1, 'the work message');
      expect(received).toEqual([{ job: 'import', batch: 7 }]);
    });

    it('when a message is sent to a queue that does not exist, then sending rejects as unroutable', async () => {
      await expect(bus.sendToQueue(`no-such-queue-${Date.now()}`, { a: 1 })).rejects.toBeInstanceOf(UnroutableMessageError);
    });

    it('when messages are published before anyone consumes, then they wait in the queue until a consumer acknowledges them', async () => {
      const { queue } = await declare('durable');
      for (let i = 0; i < 5; i++) await bus.sendToQueue(queue, { i }, { messageId: `m${i}` });

      const received: string[] = [];
      await bus.consume(queue, async (_body, meta) => {
        received.push(meta.messageId);
        return { outcome: 'ack' };
      });

      await waitFor(() => received.length === 5, 'all five messages');
      expect([...received].sort()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    });

    it('when a consumer sets a prefetch of 2, then no more than 2 handlers run at once', async () => {
      const { queue } = await declare('prefetch');
      const gates = new Map<number, Gate>();
      let running = 0;
      let maxRunning = 0;
      let done = 0;
      await bus.consume<{ i: number }>(
        queue,
        async (body) => {
          running++;
          maxRunning = Math.max(maxRunning, running);
          const gate = new Gate();
          gates.set(body.i, gate);
          await gate.opened;
          running--;
          done++;
          return { outcome: 'ack' };
        },
        { prefetch: 2 },
      );
      for (let i = 0; i < 6; i++) await bus.sendToQueue(queue, { i });

      await waitFor(() => running >= 2, 'two handlers in flight');
      // Give a consumer that ignored the prefetch the chance to start more handlers.
      await sleep(300);
      expect(running).toBe(2);
      while (done < 6) {
        for (const gate of gates.values()) gate.open();
        await sleep(20);
      }
      expect(maxRunning).toBe(2);
    });

    it('when a handler asks for a retry, then the message comes back after the delay with the next attempt number', async () => {
      const { queue } = await declare('retry', { retryDelayMs: 400, maxAttempts: 5 });
      const received: Received[] = [];
      await bus.consume(queue, async (body, meta) => {
        received.push({ body, meta, at: Date.now() });
        return meta.attempt === 1 ? { outcome: 'retry', reason: 'search index not ready' } : { outcome: 'ack' };
      });

      await bus.sendToQueue(queue, { ref: 'r-1' }, { messageId: 'retry-me', headers: { 'x-custom': 'kept' } });

      await waitFor(() => received.length === 2, 'the retried delivery');
      expect(received.map((r) => r.meta.attempt)).toEqual([1, 2]);
      expect(received[1].body).toEqual({ ref: 'r-1' });
      expect(received[1].meta).toMatchObject({ messageId: 'retry-me', queue, routingKey: queue });
      expect(received[1].meta.headers['x-custom']).toBe('kept');
      expect(received[1].at - received[0].at).toBeGreaterThanOrEqual(350);
      await sleep(600);
      expect(received).toHaveLength(2);
    });

    it('when a routed event is retried, then the retried delivery still carries its original exchange and routing key', async () => {
      const { exchange, queue } = await declare('retry-routing', { retryDelayMs: 50 });
      const received: MessageMetadata[] = [];
      await bus.consume(queue, async (_body, meta) => {
        received.push(meta);
        return meta.attempt === 1 ? { outcome: 'retry', reason: 'later' } : { outcome: 'ack' };
      });

      await bus.publish(exchange, 'thing.updated', { id: 1 });

      await waitFor(() => received.length === 2, 'the retried delivery');
      expect(received[1]).toMatchObject({ attempt: 2, exchange, routingKey: 'thing.updated' });
    });

    it('when a handler keeps asking for retries, then after maxAttempts the message lands in the dead-letter queue', async () => {
      const { queue } = await declare('exhaust', { retryDelayMs: 50 });
      const attempts: number[] = [];
      await bus.consume(
        queue,
        async (_body, meta) => {
          attempts.push(meta.attempt);
          return { outcome: 'retry', reason: 'robot unavailable' };
        },
        { maxAttempts: 3 },
      );
      const dead: Received[] = [];
      await bus.consume(deadQueueName(queue), async (body, meta) => {
        dead.push({ body, meta, at: Date.now() });
        return { outcome: 'ack' };
      });

      await bus.sendToQueue(queue, { ref: 'doomed' }, { messageId: 'doomed-1' });

      await waitFor(() => dead.length === 1, 'the dead-lettered message');
      expect(attempts).toEqual([1, 2, 3]);
      expect(dead[0].body).toEqual({ ref: 'doomed' });
      expect(dead[0].meta.messageId).toBe('doomed-1');
      expect(dead[0].meta.attempt).toBe(3);
      expect(dead[0].meta.deadLetterReason).toContain('robot unavailable');
      await sleep(300);
      expect(attempts).toEqual([1, 2, 3]);
    });

    it('when a handler dead-letters a message, then it goes to the dead-letter queue at once with the reason', async () => {
      const { queue } = await declare('dead-outcome', { retryDelayMs: 50 });
      const attempts: number[] = [];
      await bus.consume(queue, async (_body, meta) => {
        attempts.push(meta.attempt);
        return { outcome: 'dead-letter', reason: 'malformed reference' };
      });
      const dead: MessageMetadata[] = [];
      await bus.consume(deadQueueName(queue), async (_body, meta) => {
        dead.push(meta);
        return { outcome: 'ack' };
      });

      await bus.sendToQueue(queue, { ref: 'bad' }, { messageId: 'bad-1' });

      await waitFor(() => dead.length === 1, 'the dead-lettered message');
      expect(attempts).toEqual([1]);
      expect(dead[0]).toMatchObject({ messageId: 'bad-1', deadLetterReason: 'malformed reference' });
    });

    it('when a handler throws, then the message is retried like a retry outcome', async () => {
      const { queue } = await declare('throws', { retryDelayMs: 50 });
      const attempts: number[] = [];
      await bus.consume(queue, async (_body, meta) => {
        attempts.push(meta.attempt);
        if (meta.attempt < 3) throw new Error('database unavailable');
        return { outcome: 'ack' };
      });

      await bus.sendToQueue(queue, { ref: 'flaky' });

      await waitFor(() => attempts.length === 3, 'the third attempt');
      expect(attempts).toEqual([1, 2, 3]);
    });

    it('when a consumer is stopped while a handler runs, then stop waits for the handler and its message is settled, not redelivered', async () => {
      const { queue } = await declare('stop');
      const gate = new Gate();
      const seen: string[] = [];
      const consumer = await bus.consume(queue, async (_body, meta) => {
        seen.push(meta.messageId);
        await gate.opened;
        return { outcome: 'ack' };
      });
      await bus.sendToQueue(queue, { n: 1 }, { messageId: 'in-flight' });
      await waitFor(() => seen.length === 1, 'the handler to start');

      let stopped = false;
      const stopping = consumer.stop().then(() => {
        stopped = true;
      });
      await sleep(200);
      expect(stopped).toBe(false);
      gate.open();
      await stopping;

      await bus.sendToQueue(queue, { n: 2 }, { messageId: 'after-stop' });
      await sleep(200);
      expect(seen).toEqual(['in-flight']);
      const later: string[] = [];
      await bus.consume(queue, async (_body, meta) => {
        later.push(meta.messageId);
        return { outcome: 'ack' };
      });
      await waitFor(() => later.includes('after-stop'), 'the message sent after the stop');
      await sleep(300);
      expect(later).toEqual(['after-stop']);
    });

    it('when a message is published inside a trace, then its handler runs in that trace', async () => {
      const { exchange, queue } = await declare('trace');
      const traceId = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
      const seen: Array<{ traceId: string | undefined; traceparent: unknown }> = [];
      await bus.consume(queue, async (_body, meta) => {
        seen.push({ traceId: trace.getSpanContext(context.active())?.traceId, traceparent: meta.headers.traceparent });
        return { outcome: 'ack' };
      });

      const traced = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: '0102030405060708', traceFlags: TraceFlags.SAMPLED, isRemote: false });
      await context.with(traced, () => bus.publish(exchange, 'thing.traced', { x: 1 }));

      await waitFor(() => seen.length === 1, 'the traced message');
      expect(seen[0].traceId).toBe(traceId);
      expect(seen[0].traceparent).toBe(`00-${traceId}-0102030405060708-01`);
    });

    it('when the bus is closed twice, then both calls resolve and it refuses further work', async () => {
      const { queue } = await declare('close');
      await bus.consume(queue, async () => ({ outcome: 'ack' }));
      for (const topology of topologies.splice(0)) await bus.deleteTopology(topology);

      await bus.close();
      await bus.close();

      expect(bus.isConnected()).toBe(false);
      await expect(bus.sendToQueue(queue, { a: 1 })).rejects.toBeInstanceOf(MessageBusClosedError);
    });
  });
}
