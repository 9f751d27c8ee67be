import { Type } from '@sinclair/typebox';
import { HttpUrl, Nullable, StringEnum, Uuid } from '../schemas/common.schema';
import { assertValid, ContractValidationError, validate } from './validate';
import { describeIssues, jsonInvalidIssue, missingBodyIssue, pydanticExpected } from './validation-issue';

const V7 = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';

const Sample = Type.Object(
  {
    id: Uuid(),
    name: Type.String({ minLength: 1, maxLength: 3 }),
    count: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, default: 2 })),
    ratio: Type.Optional(Type.Number({ exclusiveMinimum: 0, exclusiveMaximum: 1 })),
    kind: Type.Optional(StringEnum(['alpha', 'beta', 'gamma'] as const)),
    flag: Type.Optional(Type.Boolean()),
    tags: Type.Optional(Type.Array(Type.String(), { minItems: 1, maxItems: 2 })),
    nested: Type.Optional(Nullable(Type.Object({ url: HttpUrl() }))),
    dict: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);

describe('validate (body)', () => {
  it('when the body is valid, then defaults are filled in and the same object is returned', () => {
    const body = { id: V7, name: 'abc' };
    const result = validate(Sample, body, 'body');
    expect(result).toEqual({ ok: true, value: { id: V7, name: 'abc', count: 2 } });
    expect(result.ok && result.value).toBe(body);
  });

  it('when a required field is missing, then the issue is pydantic "missing" with the object as input', () => {
    const result = validate(Sample, { name: 'abc' }, 'body');
    expect(result).toEqual({ ok: false, errors: [{ type: 'missing', loc: ['body', 'id'], msg: 'Field required', input: { name: 'abc', count: 2 } }] });
  });

  it('when an unknown key is sent to a closed model, then the issue is extra_forbidden', () => {
    const result = validate(Sample, { id: V7, name: 'a', surprise: true }, 'body');
    expect(!result.ok && result.errors).toEqual([
      { type: 'extra_forbidden', loc: ['body', 'surprise'], msg: 'Extra inputs are not permitted', input: true },
    ]);
  });

  it('when values have the wrong types, then each gets its pydantic type and message', () => {
    const result = validate(Sample, { id: 5, name: 7, count: 1.5, ratio: [], flag: {}, tags: 'a', dict: [] }, 'body');
    expect(!result.ok && result.errors.map((issue) => [issue.loc.join('.'), issue.type, issue.msg])).toEqual([
      ['body.id', 'string_type', 'Input should be a valid string'],
      ['body.name', 'string_type', 'Input should be a valid string'],
      ['body.count', 'int_from_float', 'Input should be a valid integer, got a number with a fractional part'],
      ['body.ratio', 'float_type', 'Input should be a valid number'],
      ['body.flag', 'bool_type', 'Input should be a valid boolean'],
      ['body.tags', 'list_type', 'Input should be a valid list'],
      ['body.dict', 'dict_type', 'Input should be a valid dictionary'],
    ]);
  });

  it('when the body is not an object, then the issue is model_attributes_type at the body root', () => {
    const result = validate(Sample, [1], 'body');
    expect(!result.ok && result.errors).toEqual([
      { type: 'model_attributes_type', loc: ['body'], msg: 'Input should be a valid dictionary or object to extract fields from', input: [1] },
    ]);
  });

  it('when bounds are violated, then the issues carry pydantic ctx', () => {
    const result = validate(Sample, { id: V7, name: '', count: 9, ratio: 1, tags: [] }, 'body');
    expect(!result.ok && result.errors).toEqual([
      { type: 'string_too_short', loc: ['body', 'name'], msg: 'String should have at least 1 character', input: '', ctx: { min_length: 1 } },
      { type: 'less_than_equal', loc: ['body', 'count'], msg: 'Input should be less than or equal to 5', input: 9, ctx: { le: 5 } },
      { type: 'less_than', loc: ['body', 'ratio'], msg: 'Input should be less than 1', input: 1, ctx: { lt: 1 } },
      {
        type: 'too_short',
        loc: ['body', 'tags'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      },
    ]);
  });

  it('when upper bounds of strings and lists are exceeded or lower numeric bounds missed, then those issues are reported', () => {
    const result = validate(Sample, { id: V7, name: 'abcd', count: 0, ratio: 0, tags: ['a', 'b', 'c'] }, 'body');
    expect(!result.ok && result.errors.map((issue) => [issue.type, issue.msg])).toEqual([
      ['string_too_long', 'String should have at most 3 characters'],
      ['greater_than_equal', 'Input should be greater than or equal to 1'],
      ['greater_than', 'Input should be greater than 0'],
      ['too_long', 'List should have at most 2 items after validation, not 3'],
    ]);
  });

  it('when an enum value has the wrong case, then the issue lists the lowercase values', () => {
    const result = validate(Sample, { id: V7, name: 'a', kind: 'ALPHA' }, 'body');
    expect(!result.ok && result.errors).toEqual([
      { type: 'enum', loc: ['body', 'kind'], msg: "Input should be 'alpha', 'beta' or 'gamma'", input: 'ALPHA', ctx: { expected: "'alpha', 'beta' or 'gamma'" } },
    ]);
  });

  it('when an enum field gets a value that is not a string (a number, null, a list), then the only issue is the enum issue, as pydantic reports it', () => {
    const Optional = Type.Object({ kind: Nullable(StringEnum(['alpha', 'beta'] as const)) });
    for (const input of [5, null, ['alpha']]) {
      const result = validate(Sample, { id: V7, name: 'a', kind: input }, 'body');
      expect(!result.ok && result.errors).toEqual([{ type: 'enum', loc: ['body', 'kind'], msg: "Input should be 'alpha', 'beta' or 'gamma'", input, ctx: { expected: "'alpha', 'beta' or 'gamma'" } }]);
    }
    const nullable = validate(Optional, { kind: 5 }, 'body');
    expect(!nullable.ok && nullable.errors).toEqual([{ type: 'enum', loc: ['body', 'kind'], msg: "Input should be 'alpha' or 'beta'", input: 5, ctx: { expected: "'alpha' or 'beta'" } }]);
  });

  it('when a uuid has another version or is garbage, then uuid_version or uuid_parsing is reported', () => {
    const v1 = validate(Sample, { id: '01970c2e-5b1a-1c3d-9e8f-0a1b2c3d4e5f', name: 'a' }, 'body');
    expect(!v1.ok && v1.errors[0]).toMatchObject({ type: 'uuid_version', loc: ['body', 'id'], msg: 'UUID version 4 or 7 expected' });
    const garbage = validate(Sample, { id: 'xyz', name: 'a' }, 'body');
    expect(!garbage.ok && garbage.errors[0]).toMatchObject({ type: 'uuid_parsing', msg: 'Input should be a valid UUID, unable to parse string as a UUID' });
  });

  it('when a nullable object is null, then it is valid; when it is invalid, then only its own errors are reported', () => {
    expect(validate(Sample, { id: V7, name: 'a', nested: null }, 'body').ok).toBe(true);
    const result = validate(Sample, { id: V7, name: 'a', nested: { url: 'ftp://x.org/' } }, 'body');
    expect(!result.ok && result.errors).toEqual([
      {
        type: 'url_scheme',
        loc: ['body', 'nested', 'url'],
        msg: "URL scheme should be 'http' or 'https'",
        input: 'ftp://x.org/',
        ctx: { expected_schemes: "'http' or 'https'" },
      },
    ]);
  });

  it('when a url is relative, has a bad port or is too long, then url_parsing or url_too_long is reported, naming the problem', () => {
    const relative = validate(Sample, { id: V7, name: 'a', nested: { url: 'x/y' } }, 'body');
    expect(!relative.ok && relative.errors[0]).toMatchObject({ type: 'url_parsing', msg: 'Input should be a valid URL, relative URL without a base' });
    for (const url of ['http://127.0.0.1:99999/f.jsonl', 'https://user@h.org:8x/', 'http://[::1]:70000/']) {
      const port = validate(Sample, { id: V7, name: 'a', nested: { url } }, 'body');
      expect(!port.ok && port.errors[0]).toMatchObject({ type: 'url_parsing', msg: 'Input should be a valid URL, invalid port number', ctx: { error: 'invalid port number' } });
    }
    const long = validate(Sample, { id: V7, name: 'a', nested: { url: `https://h.org/${'a'.repeat(2083)}` } }, 'body');
    expect(!long.ok && long.errors[0]).toMatchObject({ type: 'url_too_long', msg: 'URL should have at most 2083 characters', ctx: { max_length: 2083 } });
  });

  it('when the location is "line", then loc starts with "line"', () => {
    const result = validate(Sample, { name: 'a' }, 'line');
    expect(!result.ok && result.errors[0].loc).toEqual(['line', 'id']);
  });
});

describe('validate (query and path)', () => {
  const Query = Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 1, default: 10 })),
    ratio: Type.Optional(Type.Number()),
    dry_run: Type.Optional(Type.Boolean({ default: false })),
    tag: Type.Optional(Type.Array(Type.String())),
    year: Type.Optional(Type.Array(Type.Integer())),
    q: Type.String(),
  });

  it('when query text holds numbers and booleans, then they are converted to the declared types', () => {
    const result = validate(Query, { limit: '25', ratio: '0.5', dry_run: 'YES', tag: 'a', year: ['2020', '2021'], q: 'x' }, 'query');
    expect(result).toEqual({ ok: true, value: { limit: 25, ratio: 0.5, dry_run: true, tag: ['a'], year: [2020, 2021], q: 'x' } });
  });

  it.each([
    ['true', true],
    ['1', true],
    ['on', true],
    ['t', true],
    ['y', true],
    ['False', false],
    ['0', false],
    ['no', false],
    ['off', false],
    ['f', false],
    ['n', false],
  ])('when dry_run is %s, then it reads as %s', (text, expected) => {
    const result = validate(Query, { dry_run: text, q: 'x' }, 'query');
    expect(result.ok && result.value.dry_run).toBe(expected);
  });

  it('when a scalar parameter is repeated, then the last value wins', () => {
    const result = validate(Query, { limit: ['1', '7'], q: 'x' }, 'query');
    expect(result.ok && result.value.limit).toBe(7);
  });

  it('when query text cannot be converted, then the *_parsing issue of pydantic is reported', () => {
    const result = validate(Query, { limit: '1.5', ratio: 'abc', dry_run: 'maybe' }, 'query');
    expect(!result.ok && result.errors).toEqual([
      { type: 'missing', loc: ['query', 'q'], msg: 'Field required', input: null },
      { type: 'int_parsing', loc: ['query', 'limit'], msg: 'Input should be a valid integer, unable to parse string as an integer', input: '1.5' },
      { type: 'float_parsing', loc: ['query', 'ratio'], msg: 'Input should be a valid number, unable to parse string as a number', input: 'abc' },
      { type: 'bool_parsing', loc: ['query', 'dry_run'], msg: 'Input should be a valid boolean, unable to interpret input', input: 'maybe' },
    ]);
  });

  it('when a path parameter is not a destiny uuid, then the issue is located in the path', () => {
    const result = validate(Type.Object({ robot_id: Uuid() }), { robot_id: 'abc' }, 'path');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'uuid_parsing', loc: ['path', 'robot_id'], input: 'abc' });
  });
});

describe('issue helpers', () => {
  it('when expected values are rendered, then they read like pydantic', () => {
    expect(pydanticExpected(['a'])).toBe("'a'");
    expect(pydanticExpected(['a', 'b'])).toBe("'a' or 'b'");
    expect(pydanticExpected(['a', 'b', 'c'])).toBe("'a', 'b' or 'c'");
  });

  it('when the body is not JSON or absent, then the FastAPI issues are produced', () => {
    expect(jsonInvalidIssue(3, 'Expecting value')).toEqual({ type: 'json_invalid', loc: ['body', 3], msg: 'JSON decode error', input: {}, ctx: { error: 'Expecting value' } });
    expect(missingBodyIssue()).toEqual({ type: 'missing', loc: ['body'], msg: 'Field required', input: null });
  });

  it('when issues are described, then each reads "path: message"', () => {
    const result = validate(Sample, { name: 5 }, 'line');
    expect(!result.ok && describeIssues(result.errors)).toBe('id: Field required; name: Input should be a valid string');
  });

  it('when an issue names a key of megabytes, then the description echoes its first 200 characters and its length', () => {
    const key = 'k'.repeat(8 * 1024 * 1024);
    expect(describeIssues([{ type: 'extra_forbidden', loc: ['line', key], msg: 'Extra inputs are not permitted', input: 1 }])).toBe(`${'k'.repeat(200)}… (8388608 characters): Extra inputs are not permitted`);
  });

  it('when assertValid meets invalid data, then it throws a ContractValidationError with the issues', () => {
    expect(() => assertValid(Sample, {})).toThrow(ContractValidationError);
    expect(assertValid(Sample, { id: V7, name: 'a' })).toEqual({ id: V7, name: 'a', count: 2 });
  });
});
