// RabbitMQ topology of the system (ARCHITECTURE.md "How they talk"): one topic exchange for
// events, one direct exchange for work, retry (delayed re-delivery) and dead-letter exchanges.
// The platform's AMQP layer declares exactly this description.

export const EVENTS_EXCHANGE = 'destiny.events';
export const WORK_EXCHANGE = 'destiny.work';
export const RETRY_EXCHANGE = 'destiny.retry';
export const DEAD_LETTER_EXCHANGE = 'destiny.dead-letter';

export const ROUTING_KEYS = {
  referenceChanged: 'reference.changed',
  referencesIndexed: 'references.indexed',
  automationMatched: 'automation.matched',
} as const;
export type EventRoutingKey = (typeof ROUTING_KEYS)[keyof typeof ROUTING_KEYS];

export const QUEUES = {
  searchRequestServiceReferenceChanged: 'search-request-service.reference-changed',
  percolatorReferenceChanged: 'percolator.reference-changed',
  robotBrokerReferencesIndexed: 'robot-broker.references-indexed',
  robotBrokerAutomationMatched: 'robot-broker.automation-matched',
  importServiceImportBatch: 'import-service.import-batch',
  robotBrokerRobotResultImport: 'robot-broker.robot-result-import',
  searchRequestServiceSearchScan: 'search-request-service.search-scan',
  dedupServiceDeduplication: 'dedup-service.deduplication',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface ExchangeDeclaration {
  name: string;
  type: 'topic' | 'direct' | 'fanout';
  durable: true;
}

export interface QueueBinding {
  exchange: string;
  routingKey: string;
}

export interface QueueDeclaration {
  name: QueueName;
  /** `event` queues receive published facts; `work` queues receive jobs for any replica. */
  kind: 'event' | 'work';
  bindings: QueueBinding[];
  /** Dead letters go to `DEAD_LETTER_EXCHANGE` with this routing key (the queue's own name). */
  deadLetterRoutingKey: string;
}

export interface Topology {
  exchanges: ExchangeDeclaration[];
  queues: QueueDeclaration[];
}

/** Dead-letter queue of a queue: `<queue>.dead-letter`, bound to the dead-letter exchange. */
export function deadLetterQueueName(queue: QueueName): string {
  return `${queue}.dead-letter`;
}

/** Work jobs are published to `WORK_EXCHANGE` with the queue name as routing key. */
function eventQueue(name: QueueName, routingKey: EventRoutingKey): QueueDeclaration {
  return {
    name,
    kind: 'event',
    bindings: [
      { exchange: EVENTS_EXCHANGE, routingKey },
      { exchange: RETRY_EXCHANGE, routingKey: name },
    ],
    deadLetterRoutingKey: name,
  };
}

function workQueue(name: QueueName): QueueDeclaration {
  return {
    name,
    kind: 'work',
    bindings: [
      { exchange: WORK_EXCHANGE, routingKey: name },
      { exchange: RETRY_EXCHANGE, routingKey: name },
    ],
    deadLetterRoutingKey: name,
  };
}

export const TOPOLOGY: Topology = {
  exchanges: [
    { name: EVENTS_EXCHANGE, type: 'topic', durable: true },
    { name: WORK_EXCHANGE, type: 'direct', durable: true },
    { name: RETRY_EXCHANGE, type: 'direct', durable: true },
    { name: DEAD_LETTER_EXCHANGE, type: 'direct', durable: true },
  ],
  queues: [
    eventQueue(QUEUES.searchRequestServiceReferenceChanged, ROUTING_KEYS.referenceChanged),
    eventQueue(QUEUES.percolatorReferenceChanged, ROUTING_KEYS.referenceChanged),
    eventQueue(QUEUES.robotBrokerReferencesIndexed, ROUTING_KEYS.referencesIndexed),
    eventQueue(QUEUES.robotBrokerAutomationMatched, ROUTING_KEYS.automationMatched),
    workQueue(QUEUES.importServiceImportBatch),
    workQueue(QUEUES.robotBrokerRobotResultImport),
    workQueue(QUEUES.searchRequestServiceSearchScan),
    workQueue(QUEUES.dedupServiceDeduplication),
  ],
};
