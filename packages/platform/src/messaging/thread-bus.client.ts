import type { MessagePort } from 'node:worker_threads';
import type { ConsumeOptions, MessageBus, MessageConsumer, MessageHandler, MessagingTopology, PublishOptions } from './message-bus';
import { encodeMessage } from './message.codec';
import { MessageBusClosedError, PublishRejectedError, PublishTimeoutError, UnroutableMessageError } from './messaging.errors';
import { injectTraceContext, runInTraceContextOf } from './trace-context.propagation';
import type { ThreadBusFailure, ThreadBusPublication, ThreadBusReply, ThreadBusRequest } from './thread-bus.protocol';

interface Waiting {
  resolve(): void;
  reject(error: Error): void;
}

type Request = ThreadBusRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/** The error classes callers test for keep their class across the thread boundary. */
function errorFrom(failure: ThreadBusFailure): Error {
  const target = failure.target ?? 'the bus';
  let error: Error;
  if (failure.name === 'UnroutableMessageError') error = new UnroutableMessageError(target);
  else if (failure.name === 'MessageBusClosedError') error = new MessageBusClosedError(target);
  else if (failure.name === 'PublishTimeoutError') error = new PublishTimeoutError(target, 0);
  else if (failure.name === 'PublishRejectedError') error = new PublishRejectedError(target, failure.message);
  else error = new Error(failure.message);
  error.message = failure.message;
  return error;
}

/**
 * The message bus of a service running on a worker thread of the embedded default: every call
 * goes to the launcher's in-process bus over `port` (see thread-bus.host.ts), so services on
 * different threads share one set of queues. Messages are encoded to JSON here, on the service's
 * own thread, and handlers run here inside the trace context the publisher sent.
 */
export function connectBusToHost(port: MessagePort, name = 'thread'): MessageBus {
  const replies = new Map<number, Waiting>();
  const handlers = new Map<number, MessageHandler<unknown>>();
  let nextId = 1;
  let closing: Promise<void> | null = null;

  // Messages published in one turn of this thread's event loop (an outbox page's events, say) cross
  // in one port message: one hand-over and one reply instead of one of each per message.
  let outgoing: Array<{ message: ThreadBusPublication } & Waiting> = [];
  const batches = new Map<number, Waiting[]>();
  const flush = () => {
    if (outgoing.length === 0) return;
    const batch = outgoing;
    outgoing = [];
    const id = nextId++;
    batches.set(id, batch);
    port.postMessage({ kind: 'publish-many', id, messages: batch.map((item) => item.message) } satisfies ThreadBusRequest);
  };
  const enqueue = (message: ThreadBusPublication): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (outgoing.length === 0) setImmediate(flush);
      outgoing.push({ message, resolve, reject });
    });

  const call = (request: Request): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      // Whatever was published before this request reaches the host before it.
      flush();
      const id = nextId++;
      replies.set(id, { resolve, reject });
      port.postMessage({ ...request, id } as ThreadBusRequest);
    });

  const assertOpen = () => {
    if (closing) throw new MessageBusClosedError(name);
  };

  const deliver = (reply: Extract<ThreadBusReply, { kind: 'deliver' }>) => {
    const handler = handlers.get(reply.consumerId);
    const answer = (request: Omit<Extract<ThreadBusRequest, { kind: 'outcome' }>, 'kind' | 'deliveryId'>) => port.postMessage({ kind: 'outcome', deliveryId: reply.deliveryId, ...request } satisfies ThreadBusRequest);
    if (!handler) return answer({ outcome: null, failure: 'no handler for this consumer on the service thread' });
    runInTraceContextOf(reply.metadata.headers, () => handler(reply.message, reply.metadata)).then(
        (outcome) => answer({ outcome: outcome ?? null, failure: outcome ? null : 'handler returned no outcome' }),
        (error: unknown) => answer({ outcome: null, failure: error instanceof Error ? error.message : String(error) }),
      );
  };

  port.on('message', (reply: ThreadBusReply) => {
    if (reply.kind === 'deliver') return deliver(reply);
    if (reply.kind === 'replies') {
      const batch = batches.get(reply.id) ?? [];
      batches.delete(reply.id);
      batch.forEach((waiting, index) => {
        const failure = reply.failures[index];
        if (failure) waiting.reject(errorFrom(failure));
        else waiting.resolve();
      });
      return;
    }
    const waiting = replies.get(reply.id);
    replies.delete(reply.id);
    if (!waiting) return;
    if (reply.failure) waiting.reject(errorFrom(reply.failure));
    else waiting.resolve();
  });

  const publishOptions = (options: PublishOptions = {}): PublishOptions => ({ ...options, headers: injectTraceContext(options.headers ?? {}) as PublishOptions['headers'] });

  let nextConsumerId = 1;
  const consumers = new Set<MessageConsumer>();

  const bus: MessageBus = {
    kind: 'in-process',
    async declareTopology(topology: MessagingTopology) {
      assertOpen();
      await call({ kind: 'declare', topology });
    },
    async deleteTopology(topology: MessagingTopology) {
      assertOpen();
      await call({ kind: 'delete', topology });
    },
    async publish(exchange: string, routingKey: string, message: unknown, options?: PublishOptions) {
      assertOpen();
      await enqueue({ target: 'exchange', exchange, routingKey, content: encodeMessage(message), options: publishOptions(options) });
    },
    async sendToQueue(queue: string, message: unknown, options?: PublishOptions) {
      assertOpen();
      await enqueue({ target: 'queue', queue, content: encodeMessage(message), options: publishOptions(options) });
    },
    async consume<T = unknown>(queue: string, handler: MessageHandler<T>, options?: ConsumeOptions): Promise<MessageConsumer> {
      assertOpen();
      const consumerId = nextConsumerId++;
      handlers.set(consumerId, handler as MessageHandler<unknown>);
      try {
        await call({ kind: 'consume', consumerId, queue, options });
      } catch (error) {
        handlers.delete(consumerId);
        throw error;
      }
      let stopped: Promise<void> | undefined;
      const consumer: MessageConsumer = {
        queue,
        // The host's consumer waits for its deliveries in flight, whose outcomes come from here.
        stop: () =>
          (stopped ??= call({ kind: 'stop-consumer', consumerId }).finally(() => {
            handlers.delete(consumerId);
            consumers.delete(consumer);
          })),
      };
      consumers.add(consumer);
      return consumer;
    },
    isConnected: () => closing === null,
    close() {
      closing ??= (async () => {
        await Promise.allSettled([...consumers].map((consumer) => consumer.stop()));
        await call({ kind: 'close' }).catch(() => undefined);
      })();
      return closing;
    },
  };
  return bus;
}
