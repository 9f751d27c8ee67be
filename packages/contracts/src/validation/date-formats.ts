// Contract §1.3: dates are YYYY-MM-DD; datetimes are ISO 8601, an offset-less value is read as UTC.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

function isCalendarDate(year: number, month: number, day: number): boolean {
  // Year 0000 is no date Python's datetime (and so the reference implementation) can hold.
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
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
    // The instant is stored in UTC (§1.3): an offset that carries it before year 1 or past 9999
    // names no timestamp anyone can read back (Python's datetime overflows there).
    const sign = offset.startsWith('-') ? -1 : 1;
    const utc = new Date(0);
    utc.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
    utc.setUTCHours(Number(hour) - sign * hours, Number(minute) - sign * minutes);
    if (utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) return false;
  }
  return true;
}

/** The calendar date of an ISO datetime whose time of day is exactly midnight (its offset aside); null otherwise. */
export function midnightDate(value: unknown): string | null {
  if (!isIsoDateTime(value)) return null;
  const [, year, month, day, hour, minute, second = '00', fraction = ''] = DATE_TIME.exec(value as string) as RegExpExecArray;
  return hour === '00' && minute === '00' && second === '00' && /^0*$/.test(fraction) ? `${year}-${month}-${day}` : null;
}

/**
 * A column timestamp as UTC `Z` text (§1.3): offset-less input is UTC. Only the whole seconds go
 * through a JS Date (offsets are whole minutes, so the fraction never carries); the fraction is
 * kept as given up to microseconds, as the reference impl's datetimes hold, and dropped when zero.
 */
export function toUtcTimestamp(value: string): string {
  const match = DATE_TIME.exec(value);
  if (match === null || !isIsoDateTime(value)) throw new RangeError(`not an ISO 8601 datetime: ${value}`);
  const [, year, month, day, hour, minute, second = '00', fraction = '', offset = 'Z'] = match;
  let zone = offset.toUpperCase();
  if (zone.length === 3) zone = `${zone}:00`;
  else if (zone.length === 5) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const instant = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`not an ISO 8601 datetime: ${value}`);
  const microseconds = fraction.slice(0, 6);
  return `${instant.toISOString().slice(0, 19)}${/^0*$/.test(microseconds) ? '' : `.${microseconds}`}Z`;
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
