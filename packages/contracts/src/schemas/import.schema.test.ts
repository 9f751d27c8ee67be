import { validate } from '../validation/validate';
import { COLLISION_STRATEGIES, IMPORT_RESULT_STATUSES } from './enums.schema';
import { ImportBatchIn, ImportBatchSummary, ImportRecordIn, ImportRecordListQuery, ImportResultListQuery, ImportResultRead } from './import.schema';

const ID = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
const record = { processor_name: 'p', processor_version: '1', expected_reference_count: -1, source_name: 'openalex' };

describe('ImportRecordIn', () => {
  it('when optional fields are omitted, then search_string and notes default to null', () => {
    const result = validate(ImportRecordIn, { ...record }, 'body');
    expect(result.ok && result.value).toEqual({ ...record, search_string: null, notes: null });
  });

  it('when expected_reference_count is below -1, then it is rejected with ge -1', () => {
    const result = validate(ImportRecordIn, { ...record, expected_reference_count: -2 }, 'body');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'greater_than_equal', ctx: { ge: -1 } });
  });

  it('when searched_at has no offset, then it is accepted; when it is not a datetime, then it is rejected', () => {
    expect(validate(ImportRecordIn, { ...record, searched_at: '2026-01-31T12:00:00' }, 'body').ok).toBe(true);
    expect(validate(ImportRecordIn, { ...record, searched_at: 'now' }, 'body').ok).toBe(false);
  });
});

describe('ImportBatchIn', () => {
  it('when only storage_url is given, then collision_strategy defaults to fail and callback_url to null', () => {
    const result = validate(ImportBatchIn, { storage_url: 'https://blob.core.windows.net/c/f.jsonl' }, 'body');
    expect(result.ok && result.value).toEqual({ storage_url: 'https://blob.core.windows.net/c/f.jsonl', callback_url: null, collision_strategy: 'fail' });
  });

  it.each(COLLISION_STRATEGIES.map((strategy) => [strategy]))('when collision_strategy is %s, then the schema accepts it', (strategy) => {
    expect(validate(ImportBatchIn, { storage_url: 'https://h.org/f', collision_strategy: strategy }, 'body').ok).toBe(true);
  });

  it('when collision_strategy is upper case or deprecated, then it is an enum error', () => {
    for (const strategy of ['FAIL', 'deprecated']) {
      const result = validate(ImportBatchIn, { storage_url: 'https://h.org/f', collision_strategy: strategy }, 'body');
      expect(!result.ok && result.errors[0].type).toBe('enum');
    }
  });

  it('when storage_url is 2083 characters, then it passes; at 2084, then it is url_too_long', () => {
    const base = 'https://h.org/';
    expect(validate(ImportBatchIn, { storage_url: base + 'a'.repeat(2083 - base.length) }, 'body').ok).toBe(true);
    const result = validate(ImportBatchIn, { storage_url: base + 'a'.repeat(2084 - base.length) }, 'body');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'url_too_long', loc: ['body', 'storage_url'] });
  });

  it('when storage_url or callback_url are not http(s) URLs, then both are reported', () => {
    const result = validate(ImportBatchIn, { storage_url: 's3://bucket/key', callback_url: 'nope', import_record_id: ID }, 'body');
    expect(!result.ok && result.errors.map((issue) => `${issue.loc.join('.')}:${issue.type}`)).toEqual(['body.storage_url:url_scheme', 'body.callback_url:url_parsing']);
  });
});

describe('import reads and queries', () => {
  it('when a result read carries the D18 fields, then it is valid', () => {
    expect(validate(ImportResultRead, { id: ID, import_batch_id: ID, status: 'partially_failed', reference_id: ID, failure_details: 'Entry ref 1:', import_batch: null }, 'body').ok).toBe(true);
  });

  it('when a batch summary lacks a status count, then it is invalid; with all six, then it is valid', () => {
    const results = Object.fromEntries(IMPORT_RESULT_STATUSES.map((status) => [status, 0]));
    const summary = { storage_url: 'https://h.org/f', callback_url: null, collision_strategy: 'fail', id: ID, import_batch_id: ID, import_batch_status: 'completed', results, failure_details: null };
    expect(validate(ImportBatchSummary, summary, 'body').ok).toBe(true);
    const { retrying: _retrying, ...fewer } = results;
    expect(validate(ImportBatchSummary, { ...summary, results: fewer }, 'body').ok).toBe(false);
  });

  it('when the record list limit is omitted, then it defaults to 1000; outside 1..10000, then it is rejected', () => {
    const result = validate(ImportRecordListQuery, {}, 'query');
    expect(result.ok && result.value).toEqual({ limit: 1000 });
    expect(validate(ImportRecordListQuery, { limit: '0' }, 'query').ok).toBe(false);
    expect(validate(ImportRecordListQuery, { limit: '10001' }, 'query').ok).toBe(false);
  });

  it('when result_status is a known status, then it filters; otherwise it is rejected', () => {
    expect(validate(ImportResultListQuery, { result_status: 'failed' }, 'query').ok).toBe(true);
    expect(validate(ImportResultListQuery, { result_status: 'FAILED' }, 'query').ok).toBe(false);
  });
});
