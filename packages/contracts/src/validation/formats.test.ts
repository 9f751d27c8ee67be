import { isIsoDate, isIsoDateTime, toPythonIsoformatUtc, toUtcTimestamp } from './date-formats';
import { httpUrlProblem, isHttpUrl, MAX_URL_LENGTH, normaliseHttpUrl } from './http-url';
import { isIsoDuration, parseIsoDuration } from './iso-duration';

describe('ISO 8601 durations', () => {
  it.each([
    ['PT10M', 600_000],
    ['PT1H30M', 5_400_000],
    ['P1D', 86_400_000],
    ['P1W', 604_800_000],
    ['P1Y', 365 * 86_400_000],
    ['PT0.5S', 500],
    ['P1DT1S', 86_401_000],
  ])('when given %s, then it lasts %d ms', (text, ms) => {
    expect(parseIsoDuration(text)).toBe(ms);
  });

  it.each([['600'], ['pt10m'], ['PT10m'], ['-PT5M'], ['P'], ['PT'], ['P1M'], ['10M'], [''], [600]])(
    'when given %p, then it is not a duration',
    (text) => {
      expect(isIsoDuration(text)).toBe(false);
    },
  );
});

describe('dates and datetimes', () => {
  it.each([['2024-02-29'], ['2026-01-31'], ['0001-01-01']])('when given the date %s, then it is valid', (text) => {
    expect(isIsoDate(text)).toBe(true);
  });

  it.each([['2023-02-29'], ['2026-13-01'], ['2026-1-1'], ['2026-01-31T00:00:00Z'], ['31/01/2026'], ['0000-01-01']])(
    'when given %s, then it is not a date',
    (text) => {
      expect(isIsoDate(text)).toBe(false);
    },
  );

  it.each([
    ['2026-01-31T12:00:00Z'],
    ['2026-01-31T12:00:00.123456Z'],
    ['2026-01-31T12:00:00+02:00'],
    ['2026-01-31T12:00:00'],
    ['2026-01-31 12:00'],
  ])('when given the datetime %s, then it is valid', (text) => {
    expect(isIsoDateTime(text)).toBe(true);
  });

  it.each([['2026-01-31'], ['2026-01-31T25:00:00Z'], ['yesterday'], ['2026-01-31T12:00:00+25:00'], ['0000-01-01T00:00:00Z']])(
    'when given %s, then it is not a datetime',
    (text) => {
      expect(isIsoDateTime(text)).toBe(false);
    },
  );

  it.each([['0001-01-01T00:00:00+01:00'], ['9999-12-31T23:59:59-01:00'], ['0001-01-01T00:30:00+0100']])(
    'when the datetime %s is in UTC before year 1 or after 9999, then it is not a valid datetime',
    (text) => {
      expect(isIsoDateTime(text)).toBe(false);
    },
  );

  it('when a datetime at the edge of years 1 and 9999 stays inside them in UTC, then it is valid and written as such', () => {
    expect(isIsoDateTime('0001-01-01T01:00:00+01:00')).toBe(true);
    expect(toUtcTimestamp('0001-01-01T01:00:00+01:00')).toBe('0001-01-01T00:00:00Z');
    expect(isIsoDateTime('9999-12-31T22:59:59-01:00')).toBe(true);
    expect(toUtcTimestamp('9999-12-31T22:59:59-01:00')).toBe('9999-12-31T23:59:59Z');
    expect(isIsoDateTime('0001-01-01T00:00:00-05:00')).toBe(true);
  });

  it('when a column timestamp has no offset, then it is read as UTC and written with Z', () => {
    expect(toUtcTimestamp('2026-01-31T12:00:00')).toBe('2026-01-31T12:00:00Z');
    expect(toUtcTimestamp('2026-01-31T14:00:00+02:00')).toBe('2026-01-31T12:00:00Z');
    expect(toUtcTimestamp('2026-01-31T12:00:00.250Z')).toBe('2026-01-31T12:00:00.250Z');
    expect(toUtcTimestamp('2026-01-31T14:00:00+0200')).toBe('2026-01-31T12:00:00Z');
    expect(toUtcTimestamp('2026-01-31T10:00:00-02')).toBe('2026-01-31T12:00:00Z');
    expect(toUtcTimestamp('2026-01-31 12:00:00z')).toBe('2026-01-31T12:00:00Z');
    expect(() => toUtcTimestamp('not a time')).toThrow(RangeError);
  });

  it('when a column timestamp carries microseconds, then they are kept while the offset is converted to UTC', () => {
    expect(toUtcTimestamp('2026-01-31T12:00:00.123456')).toBe('2026-01-31T12:00:00.123456Z');
    expect(toUtcTimestamp('2026-01-31T14:00:00.123456+02:00')).toBe('2026-01-31T12:00:00.123456Z');
    expect(toUtcTimestamp('2026-01-01T00:30:00,000001+01:00')).toBe('2025-12-31T23:30:00.000001Z');
    expect(toUtcTimestamp('2026-01-31T12:00:00.000000')).toBe('2026-01-31T12:00:00Z');
  });

  it('when a column timestamp has more than six fractional digits, then it is cut to microseconds', () => {
    expect(toUtcTimestamp('2026-01-31T12:00:00.123456789Z')).toBe('2026-01-31T12:00:00.123456Z');
  });

  it('when a column timestamp is not a calendar datetime, then it is refused', () => {
    expect(() => toUtcTimestamp('2026-02-30T12:00:00')).toThrow(RangeError);
  });
});

describe('http(s) URLs', () => {
  it('when a URL is http or https with a host, then it is accepted', () => {
    expect(isHttpUrl('https://blob.example.org/container/file.jsonl?sig=1')).toBe(true);
    expect(isHttpUrl('http://localhost:9000/x')).toBe(true);
  });

  it('when a URL is too long, has another scheme or is relative, then the problem is named', () => {
    expect(httpUrlProblem(`https://h.org/${'a'.repeat(MAX_URL_LENGTH)}`)).toBe('too_long');
    expect(httpUrlProblem('ftp://h.org/x')).toBe('scheme');
    expect(httpUrlProblem('/relative/path')).toBe('unparseable');
    expect(httpUrlProblem(5)).toBe('not_string');
  });

  it('when a URL of exactly 2083 characters is given, then it is accepted', () => {
    const base = 'https://h.org/';
    expect(isHttpUrl(base + 'a'.repeat(MAX_URL_LENGTH - base.length))).toBe(true);
  });

  it('when a URL is echoed, then scheme and host are lower-cased and an empty path becomes /', () => {
    expect(normaliseHttpUrl('HTTPS://Example.ORG')).toBe('https://example.org/');
  });
});

describe('Python isoformat (lease renewal body)', () => {
  it('when the instant has milliseconds, then six fraction digits and +00:00 are written', () => {
    expect(toPythonIsoformatUtc(new Date(Date.UTC(2026, 0, 31, 12, 10, 0, 123)))).toBe('2026-01-31T12:10:00.123000+00:00');
  });

  it('when the instant is on a whole second, then the fraction is omitted as Python does', () => {
    expect(toPythonIsoformatUtc(new Date(Date.UTC(2026, 0, 31, 12, 10, 0, 0)))).toBe('2026-01-31T12:10:00+00:00');
  });
});
