import { type Logger } from 'pino';
import { type HandlerOutcome, type MessageHandler, type MessageMetadata } from './message-bus';
import { decodeMessage } from './message.codec';
import { type ResolvedConsumeOptions } from './topology';
import { runInTraceContextOf } from './trace-context.propagation';

/** What the transport must do with a delivery once its handler has spoken. */
export type Settlement =
  | { kind: 'ack' }
  | { kind: 'retry'; reason: string; nextAttempt: number; delayMs: number }
  | { kind: 'dead-letter'; reason: string }
  /** A message in a dead-letter queue that its handler did not take: it stays there. */
  | { kind: 'requeue'; reason: string; delayMs: number };

export interface Delivery {
  content: Buffer;
  metadata: MessageMetadata;
  /** True when the delivery comes from a `.dead` queue, which has no retry or dead-letter queue of its own. */
  fromDeadQueue: boolean;
}

/**
 * Runs a handler on one delivery, inside the trace context the publisher sent, and turns its
 * outcome (or its failure) into a settlement. Shared by the RabbitMQ and in-process transports so
 * both apply the same attempt counting and dead-letter rules.
 */
export async function handleDelivery(
  delivery: Delivery,
  handler: MessageHandler<unknown>,
  options: ResolvedConsumeOptions,
  logger: Logger,
): Promise<Settlement> {
  const { metadata } = delivery;
  const decoded = decodeMessage(delivery.content);
  if (!decoded.ok && !delivery.fromDeadQueue) {
    logger.warn({ messageId: metadata.messageId, queue: metadata.queue, reason: decoded.reason }, 'dead-lettering a message that is not JSON');
    return { kind: 'dead-letter', reason: decoded.reason };
  }
  // Whoever inspects a dead-letter queue still needs to see a body that never was JSON.
  const body = decoded.ok ? decoded.value : delivery.content.toString('utf8');

  let outcome: HandlerOutcome;
  try {
    outcome = await runInTraceContextOf(metadata.headers, () => handler(body, metadata));
  } catch (err) {
    logger.warn({ err, messageId: metadata.messageId, queue: metadata.queue, attempt: metadata.attempt }, 'message handler failed; retrying');
    outcome = { outcome: 'retry', reason: err instanceof Error ? err.message : String(err) };
  }
  if (!isOutcome(outcome)) {
    logger.error({ messageId: metadata.messageId, queue: metadata.queue }, 'message handler returned no outcome; retrying');
    outcome = { outcome: 'retry', reason: 'handler returned no outcome' };
  }

  if (outcome.outcome === 'ack') return { kind: 'ack' };
  if (delivery.fromDeadQueue) return { kind: 'requeue', reason: outcome.reason, delayMs: options.retryDelayMs };
  if (outcome.outcome === 'dead-letter') return { kind: 'dead-letter', reason: outcome.reason };
  if (metadata.attempt >= options.maxAttempts) {
    return { kind: 'dead-letter', reason: `gave up after ${metadata.attempt} attempts: ${outcome.reason}` };
  }
  return { kind: 'retry', reason: outcome.reason, nextAttempt: metadata.attempt + 1, delayMs: options.retryDelayMs };
}

function isOutcome(value: unknown): value is HandlerOutcome {
  if (typeof value !== 'object' || value === null) return false;
  const outcome = (value as { outcome?: unknown }).outcome;
  return outcome === 'ack' || outcome === 'retry' || outcome === 'dead-letter';
}

/** A positive integer from a header value, which AMQP may deliver as a number or a string. */
export function attemptFromHeader(value: unknown): number {
  const attempt = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isInteger(attempt) && attempt >= 1 ? attempt : 1;
}
