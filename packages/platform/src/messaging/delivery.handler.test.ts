import pino from 'pino';
import { attemptFromHeader, handleDelivery, type Delivery } from './delivery.handler';
import { type HandlerOutcome, type MessageMetadata } from './message-bus';

const logger = pino({ level: 'silent' });
const options = { prefetch: 1, maxAttempts: 3, retryDelayMs: 250 };

function delivery(content: string, attempt = 1, fromDeadQueue = false): Delivery {
  const metadata: MessageMetadata = { messageId: 'm', attempt, headers: {}, exchange: '', routingKey: 'q', queue: 'q', redelivered: false };
  return { content: Buffer.from(content), metadata, fromDeadQueue };
}

const returning = (outcome: HandlerOutcome) => async () => outcome;

describe('handleDelivery', () => {
  it('when the handler acks, then the message is acked and the handler saw the parsed body', async () => {
    const seen: unknown[] = [];
    const settlement = await handleDelivery(delivery('{"a":[1,2]}'), async (body) => {
      seen.push(body);
      return { outcome: 'ack' };
    }, options, logger);
    expect(settlement).toEqual({ kind: 'ack' });
    expect(seen).toEqual([{ a: [1, 2] }]);
  });

  it('when the handler asks for a retry before the last attempt, then the message is retried with the next attempt after the delay', async () => {
    expect(await handleDelivery(delivery('{}', 2), returning({ outcome: 'retry', reason: 'busy' }), options, logger)).toEqual({ kind: 'retry', reason: 'busy', nextAttempt: 3, delayMs: 250 });
  });

  it('when the handler asks for a retry on the last attempt, then the message is dead-lettered with the reason', async () => {
    const settlement = await handleDelivery(delivery('{}', 3), returning({ outcome: 'retry', reason: 'busy' }), options, logger);
    expect(settlement).toEqual({ kind: 'dead-letter', reason: 'gave up after 3 attempts: busy' });
  });

  it('when the handler throws, then the message is retried with the error as the reason', async () => {
    const settlement = await handleDelivery(delivery('{}'), async () => {
      throw new Error('connection reset');
    }, options, logger);
    expect(settlement).toEqual({ kind: 'retry', reason: 'connection reset', nextAttempt: 2, delayMs: 250 });
  });

  it('when the handler returns something that is not an outcome, then the message is retried', async () => {
    const settlement = await handleDelivery(delivery('{}'), (async () => undefined) as never, options, logger);
    expect(settlement).toMatchObject({ kind: 'retry', reason: 'handler returned no outcome' });
  });

  it('when the body is not JSON, then it is dead-lettered without calling the handler', async () => {
    const handler = jest.fn(returning({ outcome: 'ack' }));
    const settlement = await handleDelivery(delivery('not json'), handler, options, logger);
    expect(settlement).toMatchObject({ kind: 'dead-letter' });
    expect(handler).not.toHaveBeenCalled();
  });

  it('when a dead-letter queue handler does not ack, then the message stays in the dead-letter queue', async () => {
    expect(await handleDelivery(delivery('{}', 1, true), returning({ outcome: 'dead-letter', reason: 'still bad' }), options, logger)).toEqual({ kind: 'requeue', reason: 'still bad', delayMs: 250 });
    expect(await handleDelivery(delivery('oops', 1, true), returning({ outcome: 'ack' }), options, logger)).toEqual({ kind: 'ack' });
  });

  it.each([
    [undefined, 1],
    [2, 2],
    ['4', 4],
    [0, 1],
    ['x', 1],
    [1.5, 1],
  ])('when the attempt header is %p, then the attempt is %p', (value, expected) => {
    expect(attemptFromHeader(value)).toBe(expected);
  });
});
