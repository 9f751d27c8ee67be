import { validate } from '../validation/validate';
import { AutomationMatchedEvent, duplicateDecisionSource, robotEnhancementBatchSource } from './automation-matched.event';
import { DeduplicationJob } from './deduplication-job.event';
import { ImportBatchJob } from './import-batch-job.event';
import { EVENT_SCHEMAS, QUEUE_MESSAGE_SCHEMAS } from './message-catalog';
import { isNewerReferenceVersion, ReferenceChangedEvent } from './reference-changed.event';
import { ReferencesIndexedEvent } from './references-indexed.event';
import { RobotResultImportJob } from './robot-result-import-job.event';
import { SearchScanJob } from './search-scan-job.event';
import { QUEUES, ROUTING_KEYS } from '../messaging/topology';

const EVENT = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e01';
const REF = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e02';
const CANON = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e03';
const ROBOT = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e04';
const BATCH = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e05';
const AT = '2026-01-31T12:00:00Z';

const referenceChanged = () => ({
  event_id: EVENT,
  reference_id: REF,
  version: 3,
  kind: 'enhanced',
  reference: {
    visibility: 'public',
    id: REF,
    identifiers: [{ identifier: '10.1234/x', identifier_type: 'doi' }],
    enhancements: [],
    duplicate_decision: { duplicate_determination: 'canonical', canonical_reference_id: null },
  },
  changeset: {
    visibility: 'public',
    enhancements: [{ id: BATCH, reference_id: REF, visibility: 'public', source: 'bot', content: { enhancement_type: 'abstract', process: 'other', abstract: 'a' } }],
  },
  duplicate_decision: { duplicate_determination: 'canonical', canonical_reference_id: null },
  origin: { robot_id: ROBOT, robot_enhancement_batch_id: BATCH },
  occurred_at: AT,
});

describe('reference.changed', () => {
  it('when a complete event is checked, then it is valid', () => {
    expect(validate(ReferenceChangedEvent, referenceChanged(), 'body').ok).toBe(true);
  });

  it('when there is no decision yet, then duplicate_decision is null in the event and the view', () => {
    const event = referenceChanged();
    const withoutDecision = { ...event, kind: 'imported', duplicate_decision: null, reference: { ...event.reference, duplicate_decision: null }, origin: {} };
    expect(validate(ReferenceChangedEvent, withoutDecision, 'body').ok).toBe(true);
  });

  it('when a decision event names its duplicate decision, then the id must be a UUID', () => {
    const event = { ...referenceChanged(), kind: 'duplicate_decision_changed', origin: {} };
    expect(validate(ReferenceChangedEvent, { ...event, duplicate_decision_id: CANON }, 'body').ok).toBe(true);
    const result = validate(ReferenceChangedEvent, { ...event, duplicate_decision_id: 'decision-1' }, 'body');
    expect(!result.ok && result.errors.map((issue) => issue.loc.join('.'))).toEqual(['body.duplicate_decision_id']);
  });

  it('when kind is unknown, version is 0 or event_id is missing, then each is reported', () => {
    const { event_id: _eventId, ...event } = { ...referenceChanged(), kind: 'deleted', version: 0 };
    const result = validate(ReferenceChangedEvent, event, 'body');
    expect(!result.ok && result.errors.map((issue) => `${issue.loc.join('.')}:${issue.type}`)).toEqual([
      'body.event_id:missing',
      'body.version:greater_than_equal',
      'body.kind:enum',
    ]);
  });

  it('when the changeset holds a non-terminal determination or an identifier with a numeric value, then it is rejected', () => {
    const event = referenceChanged();
    const bad = { ...event, changeset: { duplicate_determination: 'pending', identifiers: [{ reference_id: REF, identifier: 123, identifier_type: 'pm_id' }] } };
    const result = validate(ReferenceChangedEvent, bad, 'body');
    expect(!result.ok && result.errors.map((issue) => issue.loc.join('.'))).toEqual(['body.changeset.identifiers.0.identifier', 'body.changeset.duplicate_determination']);
  });

  it('when versions are compared, then only a higher version replaces held state', () => {
    expect(isNewerReferenceVersion(undefined, 1)).toBe(true);
    expect(isNewerReferenceVersion(3, 4)).toBe(true);
    expect(isNewerReferenceVersion(3, 3)).toBe(false);
    expect(isNewerReferenceVersion(3, 2)).toBe(false);
  });
});

describe('references.indexed and automation.matched', () => {
  it('when items list indexed versions or failed lists refused ones, then it is valid; a version below 1 is not', () => {
    expect(validate(ReferencesIndexedEvent, { event_id: EVENT, items: [{ reference_id: REF, version: 2 }], occurred_at: AT }, 'body').ok).toBe(true);
    expect(validate(ReferencesIndexedEvent, { event_id: EVENT, items: [], failed: [{ reference_id: REF, version: 3 }], occurred_at: AT }, 'body').ok).toBe(true);
    expect(validate(ReferencesIndexedEvent, { event_id: EVENT, items: [], failed: [{ reference_id: REF, version: 0 }], occurred_at: AT }, 'body').ok).toBe(false);
    expect(validate(ReferencesIndexedEvent, { event_id: EVENT, items: [{ reference_id: REF }], occurred_at: AT }, 'body').ok).toBe(false);
  });

  it('when an automation matched, then the source names the decision or batch that caused it', () => {
    const event = { event_id: EVENT, automation_id: CANON, robot_id: ROBOT, reference_id: REF, source: robotEnhancementBatchSource(BATCH), occurred_at: AT };
    expect(validate(AutomationMatchedEvent, event, 'body').ok).toBe(true);
    expect(validate(AutomationMatchedEvent, { ...event, source: duplicateDecisionSource(CANON) }, 'body').ok).toBe(true);
    expect(validate(AutomationMatchedEvent, { ...event, source: 'somewhere' }, 'body').ok).toBe(false);
  });
});

describe('work jobs', () => {
  it('when an import batch job resumes, then resume_from_line must be at least 1', () => {
    expect(validate(ImportBatchJob, { job_id: EVENT, import_batch_id: BATCH }, 'body').ok).toBe(true);
    expect(validate(ImportBatchJob, { job_id: EVENT, import_batch_id: BATCH, resume_from_line: 40 }, 'body').ok).toBe(true);
    expect(validate(ImportBatchJob, { job_id: EVENT, import_batch_id: BATCH, resume_from_line: 0 }, 'body').ok).toBe(false);
  });

  it('when robot-result-import and search-scan jobs lack their ids, then they are invalid', () => {
    expect(validate(RobotResultImportJob, { job_id: EVENT, robot_enhancement_batch_id: BATCH }, 'body').ok).toBe(true);
    expect(validate(RobotResultImportJob, { job_id: EVENT }, 'body').ok).toBe(false);
    expect(validate(SearchScanJob, { job_id: EVENT, search_request_id: BATCH }, 'body').ok).toBe(true);
    expect(validate(SearchScanJob, { search_request_id: BATCH }, 'body').ok).toBe(false);
  });

  it('when a deduplication job pairs references with decisions, then both lists must have one length', () => {
    expect(validate(DeduplicationJob, { job_id: EVENT, reference_ids: [REF, CANON], decision_ids: [BATCH, ROBOT] }, 'body').ok).toBe(true);
    const result = validate(DeduplicationJob, { job_id: EVENT, reference_ids: [REF, CANON], decision_ids: [BATCH] }, 'body');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'value_error', msg: 'Value error, decision_ids must have one entry per reference_ids entry' });
  });
});

describe('message catalog', () => {
  it('when looked up, then every routing key and queue has its schema', () => {
    expect(Object.keys(EVENT_SCHEMAS).sort()).toEqual(Object.values(ROUTING_KEYS).sort());
    expect(Object.keys(QUEUE_MESSAGE_SCHEMAS).sort()).toEqual(Object.values(QUEUES).sort());
    expect(QUEUE_MESSAGE_SCHEMAS[QUEUES.percolatorReferenceChanged]).toBe(ReferenceChangedEvent);
  });
});
