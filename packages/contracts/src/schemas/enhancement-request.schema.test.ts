import { validate } from '../validation/validate';
import {
  EnhancementRequestIn,
  RobotAutomationIn,
  SearchEnhancementRequestIn,
  SearchEnhancementRequestQuery,
  SearchEnhancementRequestRead,
  SingleEnhancementRequestIn,
  SingleRobotResult,
} from './enhancement-request.schema';
import { ENHANCEMENT_REQUEST_STATUSES } from './enums.schema';

const A = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
const B = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e60';
const ROBOT = '3f2b8a1c-9d4e-4f6a-8b7c-1d2e3f4a5b6c';

describe('EnhancementRequestIn (§10.1)', () => {
  it('when reference ids are distinct, then source defaults to null', () => {
    const result = validate(EnhancementRequestIn, { robot_id: ROBOT, reference_ids: [A, B] }, 'body');
    expect(result.ok && result.value).toEqual({ robot_id: ROBOT, reference_ids: [A, B], source: null });
  });

  it('when the list is empty, then it is accepted', () => {
    expect(validate(EnhancementRequestIn, { robot_id: ROBOT, reference_ids: [] }, 'body').ok).toBe(true);
  });

  it('when a reference id repeats (even in another case), then the exact value_error of §10.1 is returned', () => {
    const ids = [A, B, A.toUpperCase()];
    const result = validate(EnhancementRequestIn, { robot_id: ROBOT, reference_ids: ids }, 'body');
    expect(!result.ok && result.errors).toEqual([
      { type: 'value_error', loc: ['body', 'reference_ids'], msg: 'Value error, reference_ids must not contain duplicate ids.', input: ids, ctx: { error: {} } },
    ]);
  });

  it('when a reference id is not a v4/v7 uuid, then it is located by index', () => {
    const result = validate(EnhancementRequestIn, { robot_id: ROBOT, reference_ids: [A, 'nope'] }, 'body');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'uuid_parsing', loc: ['body', 'reference_ids', 1] });
  });
});

describe('search enhancement requests (§11)', () => {
  it('when the body omits source and dry_run, then they default to null and false', () => {
    const result = validate(SearchEnhancementRequestIn, { robot_id: ROBOT, search_query: 'title:climate' }, 'body');
    expect(result.ok && result.value).toEqual({ robot_id: ROBOT, search_query: 'title:climate', source: null, dry_run: false });
  });

  it('when dry_run is absent from the query, then it is false; when it is not a boolean word, then it is rejected', () => {
    const result = validate(SearchEnhancementRequestQuery, {}, 'query');
    expect(result.ok && result.value).toEqual({ dry_run: false });
    expect(validate(SearchEnhancementRequestQuery, { dry_run: 'sure' }, 'query').ok).toBe(false);
  });

  it('when a search request read is checked, then every EnhancementRequestStatus is accepted', () => {
    for (const status of ENHANCEMENT_REQUEST_STATUSES) {
      const read = { id: A, robot_id: ROBOT, source: null, search_status: 'pending', request_status: status, n_matched: null, n_enhancements_requested: 0, enhancement_status_counts: {}, error: null };
      expect(validate(SearchEnhancementRequestRead, read, 'body').ok).toBe(true);
    }
  });

  it('when request_status is upper case, then it is rejected', () => {
    const read = { id: A, robot_id: ROBOT, source: null, search_status: 'pending', request_status: 'RECEIVED', n_matched: null, enhancement_status_counts: {}, error: null };
    expect(validate(SearchEnhancementRequestRead, read, 'body').ok).toBe(false);
  });
});

describe('automations (§13.1)', () => {
  it('when query is an object, then it is accepted; when it is a string, then it is rejected', () => {
    expect(validate(RobotAutomationIn, { robot_id: ROBOT, query: { match_all: {} } }, 'body').ok).toBe(true);
    const result = validate(RobotAutomationIn, { robot_id: ROBOT, query: 'match_all' }, 'body');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'dict_type', loc: ['body', 'query'] });
  });
});

describe('single requests (§14)', () => {
  it('when only ids are given, then source and enhancement_parameters default to null', () => {
    const result = validate(SingleEnhancementRequestIn, { reference_id: A, robot_id: ROBOT }, 'body');
    expect(result.ok && result.value).toEqual({ reference_id: A, robot_id: ROBOT, source: null, enhancement_parameters: null });
  });

  const enhancement = { reference_id: A, source: 'bot', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'x' } };

  it('when exactly one of error and enhancement is set, then the result is valid', () => {
    expect(validate(SingleRobotResult, { request_id: B, error: { message: 'boom' } }, 'body').ok).toBe(true);
    expect(validate(SingleRobotResult, { request_id: B, enhancement }, 'body').ok).toBe(true);
  });

  it.each([
    ['neither', {}],
    ['both nulls', { error: null, enhancement: null }],
    ['both', { error: { message: 'boom' }, enhancement }],
  ])('when %s are set, then the exactly-one rule fails at the body root', (_case, extra) => {
    const result = validate(SingleRobotResult, { request_id: B, ...extra }, 'body');
    expect(!result.ok && result.errors).toEqual([
      expect.objectContaining({ type: 'value_error', loc: ['body'], msg: 'Value error, exactly one of error or enhancement must be set' }),
    ]);
  });

  it('when the reported enhancement carries unknown keys, then they are dropped before it goes on', () => {
    const result = validate(SingleRobotResult, { request_id: B, enhancement: { ...enhancement, extra: 1, content: { ...enhancement.content, extra_key: 1 } } }, 'body');
    expect(result.ok && result.value.enhancement).toEqual({ ...enhancement, id: null, robot_version: null, derived_from: null, created_at: null });
  });

  it('when the error object lacks its message, then that is reported', () => {
    const result = validate(SingleRobotResult, { request_id: B, error: {} }, 'body');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'missing', loc: ['body', 'error', 'message'] });
  });
});
