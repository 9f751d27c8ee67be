// Update statements arrive with their `$each` elements left as BSON bytes: a `$push` the splice
// path applies copies those bytes into the stored array, so decoding them (most of an enhancement
// write's statement) would be wasted. Every other use of a statement decodes them first.
import { deserialize, type DeserializeOptions } from 'bson';
import { DESERIALIZE_OPTIONS } from './bson.options';
import { isPlainObject, type Document } from './bson-value.order';

/**
 * How update statements are decoded: sub-documents inside any `$each` array stay bytes (bson's
 * `fieldsAsRaw`). Stored binary values decode as `Binary` (`promoteBuffers: false`), so a Buffer
 * in a decoded statement is always such an undecoded element.
 */
export const STATEMENT_DESERIALIZE_OPTIONS: DeserializeOptions = { ...DESERIALIZE_OPTIONS, fieldsAsRaw: { $each: true } };

/** An array element named `$each`: type byte, name, terminator. */
const EACH_ARRAY = Buffer.from('\x04$each\x00', 'latin1');

/** False when the statement's bytes hold no `$each` array, so its decoding holds no undecoded element (a byte search, cheaper than walking the decoding). */
export function mayHoldUndecoded(rawStatement: Uint8Array): boolean {
  return Buffer.from(rawStatement.buffer, rawStatement.byteOffset, rawStatement.byteLength).indexOf(EACH_ARRAY) >= 0;
}

function isUndecoded(value: unknown): value is Buffer {
  return Buffer.isBuffer(value);
}

/** Whether `value` holds an element left undecoded by `STATEMENT_DESERIALIZE_OPTIONS`. */
export function holdsUndecoded(value: unknown): boolean {
  if (isUndecoded(value)) return true;
  if (Array.isArray(value)) return value.some(holdsUndecoded);
  if (isPlainObject(value)) {
    for (const key in value) if (holdsUndecoded(value[key])) return true;
  }
  return false;
}

/** `value` with every undecoded element decoded, as a plain decoding of the statement gives it; unchanged parts are shared. */
export function decodeUndecoded<T>(value: T): T {
  if (isUndecoded(value)) return deserialize(value, DESERIALIZE_OPTIONS) as T;
  if (Array.isArray(value)) return (value.some(holdsUndecoded) ? value.map(decodeUndecoded) : value) as T;
  if (isPlainObject(value) && holdsUndecoded(value)) {
    const decoded: Document = {};
    for (const key of Object.keys(value)) decoded[key] = decodeUndecoded(value[key]);
    return decoded as T;
  }
  return value;
}

/**
 * Whether every undecoded element of `statement` is one the splice path copies as bytes: an
 * element of `u.$push.<field>.$each` for a field in `bytesPushed`. Anything else (a filter, a
 * `$addToSet`, a push applied to decoded values) needs the statement decoded.
 */
export function undecodedOnlyIn(statement: Document, bytesPushed: ReadonlySet<string>): boolean {
  for (const key of Object.keys(statement)) {
    const value = statement[key];
    if (key !== 'u') {
      if (holdsUndecoded(value)) return false;
      continue;
    }
    if (!isPlainObject(value)) return !holdsUndecoded(value);
    for (const operator of Object.keys(value)) {
      const operands = value[operator];
      if (operator !== '$push' || !isPlainObject(operands)) {
        if (holdsUndecoded(operands)) return false;
        continue;
      }
      for (const path of Object.keys(operands)) if (!bytesPushed.has(path) && holdsUndecoded(operands[path])) return false;
    }
  }
  return true;
}
