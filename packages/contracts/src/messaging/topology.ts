// RabbitMQ topology of the system (ARCHITECTURE.md "How they talk"): one topic exchange for
// events, one durable queue per consumer of an event, one work queue per kind of job. Work jobs
// go straight to their queue (default exchange). The platform's AMQP layer declares `TOPOLOGY`
// (its shape is the platform's `MessagingTopology`) and derives each queue's retry and
// dead-letter queues (`<queue>.retry`, `<queue>.dead`).

export const EVENTS_EXCHANGE = 'destiny.events';

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
  importServiceBatchCallback: 'import-service.batch-callback',
  robotBrokerRobotResultImport: 'robot-broker.robot-result-import',
  searchRequestServiceSearchScan: 'search-request-service.search-scan',
  dedupServiceDeduplication: 'dedup-service.deduplication',
} as const;
export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];

export interface ExchangeDeclaration {
  name: string;
  type: 'topic' | 'direct' | 'fanout';
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
}

export interface Topology {
  exchanges: ExchangeDeclaration[];
  queues: QueueDeclaration[];
}

function eventQueue(name: QueueName, routingKey: EventRoutingKey): QueueDeclaration {
  return { name, kind: 'event', bindings: [{ exchange: EVENTS_EXCHANGE, routingKey }] };
}

function workQueue(name: QueueName): QueueDeclaration {
  return { name, kind: 'work', bindings: [] };
}

export const TOPOLOGY: Topology = {
  exchanges: [{ name: EVENTS_EXCHANGE, type: 'topic' }],
  queues: [
    eventQueue(QUEUES.searchRequestServiceReferenceChanged, ROUTING_KEYS.referenceChanged),
    eventQueue(QUEUES.percolatorReferenceChanged, ROUTING_KEYS.referenceChanged),
    eventQueue(QUEUES.robotBrokerReferencesIndexed, ROUTING_KEYS.referencesIndexed),
    eventQueue(QUEUES.robotBrokerAutomationMatched, ROUTING_KEYS.automationMatched),
    workQueue(QUEUES.importServiceImportBatch),
    workQueue(QUEUES.importServiceBatchCallback),
    workQueue(QUEUES.robotBrokerRobotResultImport),
    workQueue(QUEUES.searchRequestServiceSearchScan),
    workQueue(QUEUES.dedupServiceDeduplication),
  ],
};
