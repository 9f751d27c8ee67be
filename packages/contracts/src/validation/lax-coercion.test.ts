import { EnhancementFileInput } from '../schemas/enhancement.schema';
import { ImportRecordIn } from '../schemas/import.schema';
import { laxDate, laxDateTime, laxScalar } from './lax-coercion';
import { validate } from './validate';

// Expected readings are pydantic 2.13's own (TypeAdapter(...).validate_json of the same JSON).

describe('laxScalar', () => {
  it.each([
    ['2020', 2020],
    [' 2020 ', 2020],
    ['2020.0', 2020],
    ['1.00', 1],
    ['+5', 5],
    ['-0', 0],
    ['1_000', 1000],
    [true, 1],
    [false, 0],
  ])('when an integer is asked for and %p is given, then it reads %p', (value, expected) => {
    expect(laxScalar(value, 'integer')).toBe(expected);
  });

  it.each([['2020.5'], ['2e3'], ['0x10'], [''], ['1_000_'], ['_1'], ['1__0'], ['1.'], ['１２'], ['9007199254740993'], [2020.5], [null]])(
    'when an integer is asked for and %p is given, then nothing is read',
    (value) => {
      expect(laxScalar(value, 'integer')).toBeUndefined();
    },
  );

  it.each([
    ['0.5', 0.5],
    [' 0.5 ', 0.5],
    ['1e3', 1000],
    ['.5', 0.5],
    ['5.', 5],
    ['1_0.5', 10.5],
    ['-.5e-3', -0.0005],
    [true, 1],
  ])('when a number is asked for and %p is given, then it reads %p', (value, expected) => {
    expect(laxScalar(value, 'number')).toBe(expected);
  });

  it.each([['1e'], [''], ['1.5_'], ['inf'], ['nan'], ['0x10'], ['1e400']])('when a number is asked for and %p is given, then nothing is read (JSON holds no infinity)', (value) => {
    expect(laxScalar(value, 'number')).toBeUndefined();
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['Yes', true],
    ['ON', true],
    ['1', true],
    ['t', true],
    ['y', true],
    ['0', false],
    ['off', false],
    ['no', false],
    ['f', false],
    ['n', false],
    [1, true],
    [0, false],
  ])('when a boolean is asked for and %p is given, then it reads %p', (value, expected) => {
    expect(laxScalar(value, 'boolean')).toBe(expected);
  });

  it.each([[' true '], ['True '], ['2'], [2], [0.5]])('when a boolean is asked for and %p is given, then nothing is read', (value) => {
    expect(laxScalar(value, 'boolean')).toBeUndefined();
  });

  it('when text is asked for, then a number or boolean is never made into text (pydantic refuses that too)', () => {
    expect(laxScalar(5, 'string')).toBeUndefined();
    expect(laxScalar(true, 'string')).toBeUndefined();
  });
});

describe('laxDateTime and laxDate', () => {
  it.each([
    ['2024-01-01', '2024-01-01T00:00:00'],
    [1714979289, '2024-05-06T07:08:09Z'],
    [1714979289.5, '2024-05-06T07:08:09.5Z'],
    [1577934245.123456, '2020-01-02T03:04:05.123456Z'],
    ['1577934245.123456', '2020-01-02T03:04:05.123456Z'],
    ['1577934245.', '2020-01-02T03:04:05Z'],
    ['.5', '1970-01-01T00:00:00.5Z'],
    [-1.5, '1969-12-31T23:59:58.5Z'],
    ['1714979289', '2024-05-06T07:08:09Z'],
    [1714979289000, '2024-05-06T07:08:09Z'],
    [0, '1970-01-01T00:00:00Z'],
    [-1, '1969-12-31T23:59:59Z'],
    [20000000001, '1970-08-20T11:33:20.001Z'],
  ])('when a datetime is asked for and %p is given, then it reads %p', (value, expected) => {
    expect(laxDateTime(value)).toBe(expected);
  });

  it.each([['2024-1-1'], ['yesterday'], [true], [null], [' 1577934245 '], ['.'], ['']])('when a datetime is asked for and %p is given, then nothing is read', (value) => {
    expect(laxDateTime(value)).toBeUndefined();
  });

  it.each([
    ['2021-02-03T00:00:00Z', '2021-02-03'],
    ['2021-02-03T00:00:00', '2021-02-03'],
    ['2021-02-03T00:00:00+02:00', '2021-02-03'],
    ['2021-02-03T00:00:00.000Z', '2021-02-03'],
    [1612310400, '2021-02-03'],
    ['1612310400', '2021-02-03'],
  ])('when a date is asked for and %p is given, then it reads %p', (value, expected) => {
    expect(laxDate(value)).toBe(expected);
  });

  it.each([['2021-02-03T01:00:00Z'], [1612310401], ['2021-02-30T00:00:00Z'], [' 1612310400 '], [1612310400.5]])('when a date is asked for and %p (not a midnight) is given, then nothing is read', (value) => {
    expect(laxDate(value)).toBeUndefined();
  });
});

describe('validate, read as pydantic lax mode reads', () => {
  const enhancement = (content: Record<string, unknown>) => ({ source: 'importer', visibility: 'public', content });

  it('when an import line enhancement spells numbers, booleans and dates the way the reference implementation accepts, then it is valid with their JSON types', () => {
    const bibliographic = validate(EnhancementFileInput, enhancement({ enhancement_type: 'bibliographic', publication_year: '2020', publication_date: '2021-02-03T00:00:00Z' }), 'line');
    expect(bibliographic.ok && bibliographic.value.content).toMatchObject({ publication_year: 2020, publication_date: '2021-02-03' });
    const raw = validate(EnhancementFileInput, enhancement({ enhancement_type: 'raw', source_export_date: 1700000000, description: 'd', data: { a: 1 } }), 'line');
    expect(raw.ok && raw.value.content).toMatchObject({ source_export_date: '2023-11-14T22:13:20Z' });
    const annotations = validate(
      EnhancementFileInput,
      enhancement({
        enhancement_type: 'annotation',
        annotations: [
          { annotation_type: 'score', scheme: 's', label: 'l', score: '0.5' },
          { annotation_type: 'boolean', scheme: 's', label: 'l', value: 'yes' },
        ],
      }),
      'line',
    );
    expect(annotations.ok && annotations.value.content).toMatchObject({ annotations: [{ score: 0.5 }, { value: true }] });
    const location = validate(EnhancementFileInput, enhancement({ enhancement_type: 'location', locations: [{ is_oa: 'true' }] }), 'line');
    expect(location.ok && location.value.content).toMatchObject({ locations: [{ is_oa: true }] });
  });

  it('when a value cannot be read even leniently, then only that value is reported, with the strict issue', () => {
    const result = validate(EnhancementFileInput, enhancement({ enhancement_type: 'bibliographic', publication_year: 'c. 2020', publication_date: '2021-02-03T00:00:00Z' }), 'line');
    expect(!result.ok && result.errors.map((issue) => `${issue.loc.join('.')}:${issue.type}`)).toEqual(['line.content.publication_year:int_parsing']);
  });

  it('when an import record body spells its count as text and its search time as a date or a Unix time, then it is accepted (a date as UTC midnight)', () => {
    const body = { processor_name: 'p', processor_version: '1', source_name: 's', expected_reference_count: '3' };
    const fromDate = validate(ImportRecordIn, { ...body, searched_at: '2024-05-06' }, 'body');
    expect(fromDate.ok && fromDate.value).toMatchObject({ expected_reference_count: 3, searched_at: '2024-05-06T00:00:00' });
    const fromUnixTime = validate(ImportRecordIn, { ...body, searched_at: 1714979289 }, 'body');
    expect(fromUnixTime.ok && fromUnixTime.value.searched_at).toBe('2024-05-06T07:08:09Z');
  });
});
