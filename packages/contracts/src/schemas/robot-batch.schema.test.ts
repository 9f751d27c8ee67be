import { validate } from '../validation/validate';
import { RenewLeaseQuery, RobotEnhancementBatch, RobotEnhancementBatchPollQuery, RobotEnhancementBatchResult } from './robot-batch.schema';

const ROBOT = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';

describe('poll query (§12.2)', () => {
  it('when only robot_id is given, then limit is 10000 and lease PT10M', () => {
    const result = validate(RobotEnhancementBatchPollQuery, { robot_id: ROBOT }, 'query');
    expect(result).toEqual({ ok: true, value: { robot_id: ROBOT, limit: 10000, lease: 'PT10M' } });
  });

  it('when limit exceeds 10000, then it is capped, not rejected', () => {
    const result = validate(RobotEnhancementBatchPollQuery, { robot_id: ROBOT, limit: '50000' }, 'query');
    expect(result.ok && result.value.limit).toBe(10000);
  });

  it('when the SDK default limit 10 is sent, then it is kept', () => {
    const result = validate(RobotEnhancementBatchPollQuery, { robot_id: ROBOT, limit: '10', lease: 'PT1H30M' }, 'query');
    expect(result.ok && result.value).toEqual({ robot_id: ROBOT, limit: 10, lease: 'PT1H30M' });
  });

  it.each([['0'], ['-5']])('when limit is %s, then it is rejected with ge 1', (limit) => {
    const result = validate(RobotEnhancementBatchPollQuery, { robot_id: ROBOT, limit }, 'query');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'greater_than_equal', loc: ['query', 'limit'], ctx: { ge: 1 } });
  });

  it.each([['600'], ['pt10m'], ['-PT5M'], ['ten minutes']])('when lease is %s, then it is rejected as a timedelta parsing error', (lease) => {
    const result = validate(RobotEnhancementBatchPollQuery, { robot_id: ROBOT, lease }, 'query');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'time_delta_parsing', loc: ['query', 'lease'], input: lease });
  });

  it('when lease is zero, then it is rejected as not positive', () => {
    const result = validate(RobotEnhancementBatchPollQuery, { robot_id: ROBOT, lease: 'PT0S' }, 'query');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'value_error', msg: 'Value error, lease duration must be positive' });
  });

  it('when robot_id is missing or not v4/v7, then it is reported', () => {
    expect(validate(RobotEnhancementBatchPollQuery, {}, 'query').ok).toBe(false);
    const result = validate(RobotEnhancementBatchPollQuery, { robot_id: '01970c2e-5b1a-1c3d-9e8f-0a1b2c3d4e5f' }, 'query');
    expect(!result.ok && result.errors[0].type).toBe('uuid_version');
  });
});

describe('renew-lease query (§12.7)', () => {
  it('when lease is omitted, then it defaults to PT10M; when given, then it must be a positive duration', () => {
    expect(validate(RenewLeaseQuery, {}, 'query')).toEqual({ ok: true, value: { lease: 'PT10M' } });
    expect(validate(RenewLeaseQuery, { lease: 'P1D' }, 'query').ok).toBe(true);
    expect(validate(RenewLeaseQuery, { lease: '00:10:00' }, 'query').ok).toBe(false);
  });
});

describe('batch bodies', () => {
  it('when a result omits error, then it defaults to null', () => {
    expect(validate(RobotEnhancementBatchResult, { request_id: ROBOT }, 'body')).toEqual({ ok: true, value: { request_id: ROBOT, error: null } });
  });

  it('when a batch response has relative storage URLs, then it is invalid (the SDK requires http(s) URLs)', () => {
    expect(validate(RobotEnhancementBatch, { id: ROBOT, reference_storage_url: 'https://b.org/r', result_storage_url: 'https://b.org/w', extra_fields: null }, 'body').ok).toBe(true);
    expect(validate(RobotEnhancementBatch, { id: ROBOT, reference_storage_url: '/r', result_storage_url: 'https://b.org/w', extra_fields: null }, 'body').ok).toBe(false);
  });
});
