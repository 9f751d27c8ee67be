import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_PREFETCH,
  DEFAULT_RETRY_DELAY_MS,
  type ConsumeOptions,
  type MessagingTopology,
  type QueueDescription,
} from './message-bus';

const RETRY_SUFFIX = '.retry';
const DEAD_SUFFIX = '.dead';

export function retryQueueName(queue: string): string {
  return `${queue}${RETRY_SUFFIX}`;
}

export function deadQueueName(queue: string): string {
  return `${queue}${DEAD_SUFFIX}`;
}

export interface ResolvedConsumeOptions {
  prefetch: number;
  maxAttempts: number;
  retryDelayMs: number;
}

/** Consumer options win over the queue's description, which wins over the defaults. */
export function resolveConsumeOptions(description: QueueDescription | undefined, options: ConsumeOptions | undefined): ResolvedConsumeOptions {
  const resolved = {
    prefetch: options?.prefetch ?? DEFAULT_PREFETCH,
    maxAttempts: options?.maxAttempts ?? description?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    retryDelayMs: options?.retryDelayMs ?? description?.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS,
  };
  assertPositiveInteger('prefetch', resolved.prefetch);
  assertPositiveInteger('maxAttempts', resolved.maxAttempts);
  if (!Number.isInteger(resolved.retryDelayMs) || resolved.retryDelayMs < 0) {
    throw new RangeError(`retryDelayMs must be a non-negative integer, got ${resolved.retryDelayMs}`);
  }
  return resolved;
}

function assertPositiveInteger(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer, got ${value}`);
}

/**
 * Rejects descriptions that would fail half-way through a declaration: unnamed or duplicate
 * entities, bindings to exchanges the description does not declare, and names that collide with
 * the derived retry and dead-letter queues.
 */
export function validateTopology(topology: MessagingTopology): void {
  const exchanges = new Set<string>();
  for (const exchange of topology.exchanges) {
    if (!exchange.name) throw new Error('An exchange needs a name');
    if (!['topic', 'direct', 'fanout'].includes(exchange.type)) throw new Error(`Exchange ${exchange.name} has unsupported type ${exchange.type}`);
    if (exchanges.has(exchange.name)) throw new Error(`Exchange ${exchange.name} is declared twice`);
    exchanges.add(exchange.name);
  }
  const queues = new Set<string>();
  for (const queue of topology.queues) {
    if (!queue.name) throw new Error('A queue needs a name');
    if (queue.name.endsWith(RETRY_SUFFIX) || queue.name.endsWith(DEAD_SUFFIX)) {
      throw new Error(`Queue ${queue.name} ends with a suffix reserved for derived retry and dead-letter queues`);
    }
    if (queues.has(queue.name)) throw new Error(`Queue ${queue.name} is declared twice`);
    queues.add(queue.name);
    resolveConsumeOptions(queue, undefined);
    for (const binding of queue.bindings ?? []) {
      if (!exchanges.has(binding.exchange)) throw new Error(`Queue ${queue.name} is bound to undeclared exchange ${binding.exchange}`);
    }
  }
}

/** The work or event queue a dead-letter queue belongs to, if `queue` is one. */
export function sourceOfDeadQueue(queue: string): string | undefined {
  return queue.endsWith(DEAD_SUFFIX) ? queue.slice(0, -DEAD_SUFFIX.length) : undefined;
}
