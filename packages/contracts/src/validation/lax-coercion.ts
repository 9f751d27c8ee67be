import { type ErrorObject } from 'ajv';
import { isIsoDate, isIsoDateTime, midnightDate } from './date-formats';

// pydantic's lax mode, which the reference implementation validates bodies, import lines and robot
// results in: text that spells a number or a boolean, a boolean for a number, a date or a Unix time
// for a datetime, a midnight datetime or a Unix time for a date. Only scalar readings pydantic
// makes for JSON input; a string is never made from a number (pydantic refuses that too).

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off', 'f', 'n']);
/** Digits with single underscores between them (Python's numeric literal grouping). */
const GROUPED_DIGITS = String.raw`\d+(?:_\d+)*`;
const INTEGER_TEXT = new RegExp(String.raw`^[+-]?${GROUPED_DIGITS}(?:\.0+)?$`);
const NUMBER_TEXT = new RegExp(String.raw`^[+-]?(?:${GROUPED_DIGITS}(?:\.(?:${GROUPED_DIGITS})?)?|\.${GROUPED_DIGITS})(?:[eE][+-]?\d+)?$`);
/** pydantic reads a Unix time above this magnitude as milliseconds. */
const MILLISECONDS_ABOVE = 2e10;

/** What pydantic's lax mode reads `value` as for a JSON-schema scalar type; undefined when it reads nothing. */
export function laxScalar(value: unknown, type: string): unknown {
  switch (type) {
    case 'integer': {
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value !== 'string') return undefined;
      const text = value.trim();
      if (!INTEGER_TEXT.test(text)) return undefined;
      const integer = Number(text.replace(/_/g, '').replace(/\.0+$/, ''));
      // Beyond 2^53 a JS number cannot hold the integer the text names.
      return Number.isSafeInteger(integer) ? (Object.is(integer, -0) ? 0 : integer) : undefined;
    }
    case 'number': {
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value !== 'string') return undefined;
      const text = value.trim();
      if (!NUMBER_TEXT.test(text)) return undefined;
      const number = Number(text.replace(/_/g, ''));
      return Number.isFinite(number) ? number : undefined;
    }
    case 'boolean': {
      if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : undefined;
      if (typeof value !== 'string') return undefined;
      const word = value.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      return undefined;
    }
    default:
      return undefined;
  }
}

const UNIX_TIME_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * A Unix time (seconds, or milliseconds above 2e10) as pydantic reads it, from a number or its text
 * (not padded), to the microsecond: whole seconds and the microseconds after them.
 */
function unixTime(value: unknown): { seconds: number; microseconds: number } | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = /e/i.test(String(value)) ? value.toFixed(6) : String(value);
  } else if (typeof value === 'string') text = value;
  else return undefined;
  const match = UNIX_TIME_TEXT.exec(text);
  if (match === null) return undefined;
  const [, sign, whole, fraction = ''] = match;
  if (whole === '' && fraction === '') return undefined;
  const milliseconds = Math.abs(Number(`${whole || '0'}.${fraction || '0'}`)) > MILLISECONDS_ABOVE;
  // In integer microseconds, so no digit pydantic keeps is lost to floating point.
  let micro = milliseconds ? BigInt(whole || '0') * 1_000n + BigInt(fraction.padEnd(3, '0').slice(0, 3)) : BigInt(whole || '0') * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
  if (sign === '-') micro = -micro;
  let seconds = micro / 1_000_000n;
  let remainder = micro % 1_000_000n;
  if (remainder < 0n) {
    remainder += 1_000_000n;
    seconds -= 1n;
  }
  const instant = new Date(Number(seconds) * 1000);
  return Number.isNaN(instant.getTime()) ? undefined : { seconds: Number(seconds), microseconds: Number(remainder) };
}

/** A datetime pydantic would read from `value`, as ISO text the `date-time` format accepts; undefined otherwise. */
export function laxDateTime(value: unknown): string | undefined {
  if (typeof value === 'string' && isIsoDate(value)) return `${value}T00:00:00`;
  const time = unixTime(value);
  if (time === undefined) return undefined;
  const fraction = String(time.microseconds).padStart(6, '0').replace(/0+$/, '');
  return `${new Date(time.seconds * 1000).toISOString().slice(0, 19)}${fraction ? `.${fraction}` : ''}Z`;
}

/** A date pydantic would read from `value` (a datetime at midnight, a Unix time at midnight UTC); undefined otherwise. */
export function laxDate(value: unknown): string | undefined {
  if (isIsoDateTime(value)) return midnightDate(value) ?? undefined;
  const time = unixTime(value);
  if (time === undefined || time.microseconds !== 0 || time.seconds % 86_400 !== 0) return undefined;
  return new Date(time.seconds * 1000).toISOString().slice(0, 10);
}

/** The lax reading an Ajv type or format error asks for at its place; undefined when there is none. */
function laxReading(error: ErrorObject): unknown {
  const format = (error.parentSchema as { format?: unknown } | undefined)?.format;
  if (error.keyword === 'format' || (error.keyword === 'type' && (format === 'date-time' || format === 'date'))) {
    const wanted = error.keyword === 'format' ? error.params.format : format;
    if (wanted === 'date-time') return laxDateTime(error.data);
    if (wanted === 'date') return laxDate(error.data);
    return undefined;
  }
  if (error.keyword !== 'type') return undefined;
  const expected = String(error.params.type)
    .split(',')
    .filter((type) => type !== 'null');
  return expected.length === 1 ? laxScalar(error.data, expected[0]) : undefined;
}

/**
 * Rewrites, inside `root`, each value a failed validation's type or format errors name and pydantic
 * would have read leniently. Returns the root (replaced when the root itself was rewritten), or
 * undefined when nothing was rewritten, so the caller validates again only when it may help.
 */
export function applyLaxReadings(root: unknown, errors: readonly ErrorObject[]): { root: unknown } | undefined {
  let changed = false;
  let result = root;
  for (const error of errors) {
    const reading = laxReading(error);
    if (reading === undefined) continue;
    if (error.instancePath === '') {
      result = reading;
      changed = true;
      continue;
    }
    const segments = error.instancePath
      .slice(1)
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    let parent: unknown = result;
    for (const segment of segments.slice(0, -1)) parent = parent !== null && typeof parent === 'object' ? (parent as Record<string, unknown>)[segment] : undefined;
    const key = segments[segments.length - 1];
    if (parent === null || typeof parent !== 'object' || (parent as Record<string, unknown>)[key] !== error.data) continue;
    (parent as Record<string, unknown>)[key] = reading;
    changed = true;
  }
  return changed ? { root: result } : undefined;
}
