// Dates as Elasticsearch's default `strict_date_optional_time||epoch_millis` reads them, plus the
// date math (`now-1d/d`, `2020-01-01||+1M`) that range queries and decay functions accept.

const ISO_DATE =
  /^([+-]?\d{4,9})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?)?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

export interface ParsedDate {
  millis: number;
}

/** Digit value of the character at `index`, or -1. */
function digitAt(text: string, index: number): number {
  const code = text.charCodeAt(index) - 48;
  return code >= 0 && code <= 9 ? code : -1;
}

/**
 * `YYYY-MM-DDTHH:MM:SS.sssZ` (what JSON encoders write) read without the regular expression; null
 * when the text has another shape. Same components, checks and result as the general parse.
 */
function canonicalUtcMillis(text: string): number | null {
  if (text.length !== 24 || text[4] !== '-' || text[7] !== '-' || text[10] !== 'T' || text[13] !== ':' || text[16] !== ':' || text[19] !== '.' || text[23] !== 'Z') return null;
  const number = (start: number, end: number): number => {
    let value = 0;
    for (let index = start; index < end; index += 1) {
      const digit = digitAt(text, index);
      if (digit < 0) return -1;
      value = value * 10 + digit;
    }
    return value;
  };
  const year = number(0, 4);
  const month = number(5, 7);
  const day = number(8, 10);
  const hour = number(11, 13);
  const minute = number(14, 16);
  const second = number(17, 19);
  const millis = number(20, 23);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0 || millis < 0) return null;
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return Number.NaN;
  const base = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  return new Date(base).getUTCDate() === day ? base : Number.NaN;
}

/**
 * Parses one date. `roundUp` fills missing components the way range queries do for `gt`/`lte`
 * (Elasticsearch's "missing date components" rule: day/month 1, hour 23, minute 59, second 59, 999 ms).
 */
export function parseDateValue(value: unknown, roundUp = false): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const canonical = canonicalUtcMillis(value);
  if (canonical !== null) return Number.isNaN(canonical) ? undefined : canonical;
  const text = value.trim();
  if (/^-?\d+$/.test(text) && text.replace('-', '').length > 4) return Number(text);
  const match = ISO_DATE.exec(text);
  if (!match) return /^-?\d+$/.test(text) ? Number(text) : undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const monthNumber = month ? Number(month) : 1;
  const dayNumber = day ? Number(day) : 1;
  if (monthNumber < 1 || monthNumber > 12 || dayNumber < 1 || dayNumber > 31) return undefined;
  const hourNumber = hour ? Number(hour) : roundUp ? 23 : 0;
  const minuteNumber = minute ? Number(minute) : roundUp ? 59 : 0;
  const secondNumber = second ? Number(second) : roundUp ? 59 : 0;
  const millisNumber = fraction ? Number(fraction.padEnd(3, '0').slice(0, 3)) : roundUp ? 999 : 0;
  if (hourNumber > 23 || minuteNumber > 59 || secondNumber > 59) return undefined;
  const base = Date.UTC(Number(year), monthNumber - 1, dayNumber, hourNumber, minuteNumber, secondNumber, millisNumber);
  const date = new Date(base);
  if (date.getUTCDate() !== dayNumber) return undefined;
  let offsetMinutes = 0;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
  }
  return base - offsetMinutes * 60_000;
}

const UNIT_MILLIS: Record<string, number> = { w: 604_800_000, d: 86_400_000, h: 3_600_000, H: 3_600_000, m: 60_000, s: 1000, ms: 1 };

// Calendar units clamp the day to the target month's length, as java.time's plusMonths does.
function addUnit(millis: number, amount: number, unit: string): number {
  if (unit !== 'y' && unit !== 'M') return millis + amount * UNIT_MILLIS[unit];
  const date = new Date(millis);
  const months = date.getUTCFullYear() * 12 + date.getUTCMonth() + (unit === 'y' ? amount * 12 : amount);
  const year = Math.floor(months / 12);
  const month = months - year * 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return Date.UTC(year, month, Math.min(date.getUTCDate(), lastDay), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds());
}

function roundTo(millis: number, unit: string, up: boolean): number {
  const date = new Date(millis);
  const parts = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()];
  const keep = { y: 1, M: 2, w: 3, d: 3, h: 4, H: 4, m: 5, s: 6 }[unit] ?? 6;
  let start: number;
  if (unit === 'w') {
    const dayStart = Date.UTC(parts[0], parts[1], parts[2]);
    const weekday = (new Date(dayStart).getUTCDay() + 6) % 7;
    start = dayStart - weekday * 86_400_000;
  } else {
    const filled = parts.map((part, index) => (index < keep ? part : index === 2 ? 1 : 0));
    start = Date.UTC(filled[0], filled[1], filled[2], filled[3], filled[4], filled[5]);
  }
  if (!up) return start;
  return addUnit(start, 1, unit) - 1;
}

/** Date math: `now`, `<date>||`, followed by `+1d`, `-2M`, `/d` operations. */
export function parseDateMath(value: unknown, roundUp: boolean, now = Date.now()): number | undefined {
  if (typeof value !== 'string') return parseDateValue(value, roundUp);
  let anchor: number | undefined;
  let math: string;
  if (value.startsWith('now')) {
    anchor = now;
    math = value.slice(3);
  } else {
    const split = value.indexOf('||');
    if (split < 0) return parseDateValue(value, roundUp);
    anchor = parseDateValue(value.slice(0, split), false);
    math = value.slice(split + 2);
  }
  if (anchor === undefined) return undefined;
  let result = anchor;
  const step = /([+-]\d*|\/)(ms|[yMwdhHms])/y;
  let offset = 0;
  while (offset < math.length) {
    step.lastIndex = offset;
    const match = step.exec(math);
    if (!match) return undefined;
    offset = step.lastIndex;
    if (match[1] === '/') result = roundTo(result, match[2], roundUp);
    else {
      const amount = match[1].length === 1 ? (match[1] === '-' ? -1 : 1) : Number(match[1]);
      result = addUnit(result, amount, match[2]);
    }
  }
  return result;
}

/** `10d`, `1h`, `500ms` as milliseconds (decay function scales on dates). */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  const match = /^(\d+(?:\.\d+)?)(ms|[dhms]|w|M|y)?$/.exec(value.trim());
  if (!match) return undefined;
  const unit = match[2] ?? 'ms';
  const perUnit = unit === 'M' ? 30 * 86_400_000 : unit === 'y' ? 365 * 86_400_000 : UNIT_MILLIS[unit];
  return Number(match[1]) * perUnit;
}

export function formatDate(millis: number): string {
  return new Date(millis).toISOString();
}
