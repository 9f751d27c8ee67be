import { type TSchema } from '@sinclair/typebox';
import { QUEUES, ROUTING_KEYS, type EventRoutingKey, type QueueName } from '../messaging/topology';
import { AutomationMatchedEvent } from './automation-matched.event';
import { DeduplicationJob } from './deduplication-job.event';
import { ImportBatchCallbackJob } from './import-batch-callback-job.event';
import { ImportBatchJob } from './import-batch-job.event';
import { ReferenceChangedEvent } from './reference-changed.event';
import { ReferencesIndexedEvent } from './references-indexed.event';
import { RobotResultImportJob } from './robot-result-import-job.event';
import { SearchScanJob } from './search-scan-job.event';

/** The payload schema of each event routing key. */
export const EVENT_SCHEMAS: Readonly<Record<EventRoutingKey, TSchema>> = {
  [ROUTING_KEYS.referenceChanged]: ReferenceChangedEvent,
  [ROUTING_KEYS.referencesIndexed]: ReferencesIndexedEvent,
  [ROUTING_KEYS.automationMatched]: AutomationMatchedEvent,
};

/** The payload schema of each queue (event queues carry their routing key's event). */
export const QUEUE_MESSAGE_SCHEMAS: Readonly<Record<QueueName, TSchema>> = {
  [QUEUES.searchRequestServiceReferenceChanged]: ReferenceChangedEvent,
  [QUEUES.percolatorReferenceChanged]: ReferenceChangedEvent,
  [QUEUES.robotBrokerReferencesIndexed]: ReferencesIndexedEvent,
  [QUEUES.robotBrokerAutomationMatched]: AutomationMatchedEvent,
  [QUEUES.importServiceImportBatch]: ImportBatchJob,
  [QUEUES.importServiceBatchCallback]: ImportBatchCallbackJob,
  [QUEUES.robotBrokerRobotResultImport]: RobotResultImportJob,
  [QUEUES.searchRequestServiceSearchScan]: SearchScanJob,
  [QUEUES.dedupServiceDeduplication]: DeduplicationJob,
};
