import { parseDateMath, parseDateValue, parseDuration } from './date-format';

describe('dates', () => {
  test('when strict_date_optional_time values are parsed, then partial dates and offsets are understood', () => {
    expect(parseDateValue('2020')).toBe(Date.UTC(2020, 0, 1));
    expect(parseDateValue('2020-02-03')).toBe(Date.UTC(2020, 1, 3));
    expect(parseDateValue('2020-02-03T04:05:06.789Z')).toBe(Date.UTC(2020, 1, 3, 4, 5, 6, 789));
    expect(parseDateValue('2020-02-03T04:05:06+02:00')).toBe(Date.UTC(2020, 1, 3, 2, 5, 6));
    expect(parseDateValue(1_600_000_000_000)).toBe(1_600_000_000_000);
    expect(parseDateValue('1600000000000')).toBe(1_600_000_000_000);
  });

  test('when a date is invalid, then parsing fails', () => {
    expect(parseDateValue('2020-13-01')).toBeUndefined();
    expect(parseDateValue('2021-02-30')).toBeUndefined();
    expect(parseDateValue('yesterday')).toBeUndefined();
  });

  test('when a date has the canonical UTC shape, then it reads as the general parser reads it (with a trailing space)', () => {
    const samples = ['2026-01-31T12:00:00.000Z', '2024-02-29T23:59:59.999Z', '2023-02-29T00:00:00.000Z', '2021-04-31T10:00:00.000Z', '2020-13-01T00:00:00.000Z', '2020-00-10T00:00:00.000Z',
      '2020-01-00T00:00:00.000Z', '2020-01-01T24:00:00.000Z', '2020-01-01T00:60:00.000Z', '2020-01-01T00:00:60.000Z', '0099-01-01T00:00:00.000Z', '2020-0a-01T00:00:00.000Z', '2020-01-01T00:00:00.00aZ'];
    for (let day = 0; day < 400; day += 7) samples.push(new Date(Date.UTC(2000, 0, 1) + day * 86_400_000 + day * 12_345).toISOString());
    for (const sample of samples) expect([sample, parseDateValue(sample)]).toEqual([sample, parseDateValue(`${sample} `)]);
    expect(parseDateValue('2026-01-31T12:00:00.000Z')).toBe(Date.UTC(2026, 0, 31, 12));
  });

  test('when rounding up for gt/lte, then missing components are filled as Elasticsearch documents', () => {
    expect(parseDateValue('2099-12', true)).toBe(Date.UTC(2099, 11, 1, 23, 59, 59, 999));
  });

  test('when date math is used, then now and anchors move and round', () => {
    const now = Date.UTC(2026, 0, 15, 10, 30);
    expect(parseDateMath('now-1d/d', false, now)).toBe(Date.UTC(2026, 0, 14));
    expect(parseDateMath('now/d', true, now)).toBe(Date.UTC(2026, 0, 16) - 1);
    expect(parseDateMath('2020-01-31||+1M', false, now)).toBe(Date.UTC(2020, 1, 29));
  });

  test('when durations are parsed, then units convert to milliseconds', () => {
    expect(parseDuration('1m')).toBe(60_000);
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('2d')).toBe(172_800_000);
  });
});
