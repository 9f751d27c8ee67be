// Contract §1.3: dates are YYYY-MM-DD; datetimes are ISO 8601, an offset-less value is read as UTC.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

export function isIsoDate(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = DATE.exec(value);
  return match !== null && isCalendarDate(Number(match[1]), Number(match[2]), Number(match[3]));
}

export function isIsoDateTime(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = DATE_TIME.exec(value);
  if (match === null) return false;
  const [, year, month, day, hour, minute, second, , offset] = match;
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return false;
  if (Number(hour) > 23 || Number(minute) > 59 || (second !== undefined && Number(second) > 59)) return false;
  if (offset !== undefined && offset.length > 1) {
    const hours = Number(offset.slice(1, 3));
    const minutes = offset.length > 3 ? Number(offset.slice(-2)) : 0;
    if (hours > 23 || minutes > 59) return false;
  }
  return true;
}

/**
 * A column timestamp as UTC `Z` text (§1.3): offset-less input is UTC. Microsecond precision is
 * not representable in a JS Date, so fractions are kept to milliseconds.
 */
export function toUtcTimestamp(value: string): string {
  let text = value.replace(' ', 'T').replace(/z$/, 'Z');
  if (/[+-]\d{4}$/.test(text)) text = `${text.slice(0, -2)}:${text.slice(-2)}`;
  else if (/T[^+-]*[+-]\d{2}$/.test(text)) text = `${text}:00`;
  else if (!/(?:Z|[+-]\d{2}:\d{2})$/.test(text)) text = `${text}Z`;
  const parsed = new Date(text);
  if (Number.isNaN(parsed.getTime())) throw new RangeError(`not an ISO 8601 datetime: ${value}`);
  return parsed.toISOString().replace('.000Z', 'Z');
}

/**
 * Python `datetime.isoformat()` of a UTC instant, as the lease-renewal body (§1.3, §12.7):
 * `2026-01-31T12:10:00.123000+00:00` (microseconds only when non-zero).
 */
export function toPythonIsoformatUtc(instant: Date): string {
  const iso = instant.toISOString();
  const ms = instant.getUTCMilliseconds();
  return `${iso.slice(0, 19)}${ms === 0 ? '' : `.${String(ms * 1000).padStart(6, '0')}`}+00:00`;
}
