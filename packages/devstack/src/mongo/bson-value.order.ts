// MongoDB's BSON comparison order and equality over the values `bson.deserialize` produces
// (promoteValues on, promoteLongs off, so Int64 stays a Long and round-trips unchanged).
import { Long, type Binary, type Decimal128, type ObjectId, type Timestamp, type BSONRegExp } from 'bson';

export type Document = Record<string, unknown>;

/** Canonical BSON type brackets, in MongoDB's sort order. */
export const enum TypeBracket {
  MinKey = 1,
  Null = 2,
  Number = 3,
  String = 4,
  Object = 5,
  Array = 6,
  BinData = 7,
  ObjectId = 8,
  Boolean = 9,
  Date = 10,
  Timestamp = 11,
  Regex = 12,
  Other = 13,
  MaxKey = 14,
}

function bsonTypeName(value: object): string | undefined {
  return (value as { _bsontype?: string })._bsontype;
}

export function isPlainObject(value: unknown): value is Document {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

export function typeBracket(value: unknown): TypeBracket {
  switch (typeof value) {
    case 'undefined':
      return TypeBracket.Null;
    case 'number':
    case 'bigint':
      return TypeBracket.Number;
    case 'string':
      return TypeBracket.String;
    case 'boolean':
      return TypeBracket.Boolean;
    case 'object':
      break;
    default:
      return TypeBracket.Other;
  }
  if (value === null) return TypeBracket.Null;
  if (Array.isArray(value)) return TypeBracket.Array;
  if (value instanceof Date) return TypeBracket.Date;
  if (value instanceof RegExp) return TypeBracket.Regex;
  switch (bsonTypeName(value)) {
    case undefined:
      return TypeBracket.Object;
    case 'Long':
    case 'Int32':
    case 'Double':
    case 'Decimal128':
      return TypeBracket.Number;
    case 'BSONSymbol':
      return TypeBracket.String;
    case 'Binary':
      return TypeBracket.BinData;
    case 'ObjectId':
      return TypeBracket.ObjectId;
    case 'Timestamp':
      return TypeBracket.Timestamp;
    case 'BSONRegExp':
      return TypeBracket.Regex;
    case 'MinKey':
      return TypeBracket.MinKey;
    case 'MaxKey':
      return TypeBracket.MaxKey;
    case 'DBRef':
      return TypeBracket.Object;
    default:
      return TypeBracket.Other;
  }
}

/** A numeric value as a JS number (exact for safe integers and doubles). */
export function toNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  switch (bsonTypeName(value as object)) {
    case 'Long':
      return (value as Long).toNumber();
    case 'Int32':
    case 'Double':
      return (value as { value: number }).value;
    case 'Decimal128':
      return Number((value as Decimal128).toString());
    default:
      return Number.NaN;
  }
}

export function isNumeric(value: unknown): boolean {
  return typeBracket(value) === TypeBracket.Number;
}

function compareNumbers(a: unknown, b: unknown): number {
  const aLong = a instanceof Long;
  const bLong = b instanceof Long;
  if (aLong && bLong) return (a as Long).compare(b as Long);
  if (aLong || bLong) {
    // Beyond 2^53 a double loses the low bits of an Int64, so compare those as BigInt when the
    // other side is an integer.
    const other = aLong ? b : a;
    const otherNumber = toNumber(other);
    const long = (aLong ? a : b) as Long;
    if (!long.lessThanOrEqual(Long.fromNumber(Number.MAX_SAFE_INTEGER)) || !long.greaterThanOrEqual(Long.fromNumber(Number.MIN_SAFE_INTEGER))) {
      if (Number.isInteger(otherNumber)) {
        const difference = BigInt(long.toString()) - BigInt(otherNumber);
        const sign = difference === 0n ? 0 : difference > 0n ? 1 : -1;
        return aLong ? sign : -sign;
      }
    }
  }
  const x = toNumber(a);
  const y = toNumber(b);
  // MongoDB orders NaN below every other number.
  if (Number.isNaN(x)) return Number.isNaN(y) ? 0 : -1;
  if (Number.isNaN(y)) return 1;
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    if (a[index] !== b[index]) return a[index] < b[index] ? -1 : 1;
  }
  return a.length - b.length;
}

function compareStrings(a: string, b: string): number {
  // MongoDB compares UTF-8 bytes; for strings without surrogate pairs code-unit order is the same.
  return a < b ? -1 : a > b ? 1 : 0;
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : (value as { value: string }).value;
}

function regexParts(value: unknown): [string, string] {
  if (value instanceof RegExp) return [value.source, value.flags];
  const regex = value as BSONRegExp;
  return [regex.pattern, regex.options];
}

/** Total order over BSON values, as MongoDB sorts them. */
export function compareValues(a: unknown, b: unknown): number {
  const bracketA = typeBracket(a);
  const bracketB = typeBracket(b);
  if (bracketA !== bracketB) return bracketA - bracketB;
  switch (bracketA) {
    case TypeBracket.Null:
    case TypeBracket.MinKey:
    case TypeBracket.MaxKey:
      return 0;
    case TypeBracket.Number:
      return compareNumbers(a, b);
    case TypeBracket.String:
      return compareStrings(stringOf(a), stringOf(b));
    case TypeBracket.Boolean:
      return a === b ? 0 : a ? 1 : -1;
    case TypeBracket.Date:
      return Math.sign((a as Date).getTime() - (b as Date).getTime()) || 0;
    case TypeBracket.ObjectId:
      return compareBytes((a as ObjectId).id, (b as ObjectId).id);
    case TypeBracket.BinData: {
      const x = a as Binary;
      const y = b as Binary;
      if (x.position !== y.position) return x.position - y.position;
      if (x.sub_type !== y.sub_type) return x.sub_type - y.sub_type;
      return compareBytes(x.buffer.subarray(0, x.position), y.buffer.subarray(0, y.position));
    }
    case TypeBracket.Timestamp:
      return (a as Timestamp).compare(b as Timestamp);
    case TypeBracket.Regex: {
      const [sourceA, flagsA] = regexParts(a);
      const [sourceB, flagsB] = regexParts(b);
      return compareStrings(sourceA, sourceB) || compareStrings(flagsA, flagsB);
    }
    case TypeBracket.Array: {
      const x = a as unknown[];
      const y = b as unknown[];
      const length = Math.min(x.length, y.length);
      for (let index = 0; index < length; index += 1) {
        const order = compareValues(x[index], y[index]);
        if (order !== 0) return order;
      }
      return x.length - y.length;
    }
    case TypeBracket.Object: {
      const x = objectEntries(a);
      const y = objectEntries(b);
      const length = Math.min(x.length, y.length);
      for (let index = 0; index < length; index += 1) {
        const [keyA, valueA] = x[index];
        const [keyB, valueB] = y[index];
        const order = typeBracket(valueA) - typeBracket(valueB) || compareStrings(keyA, keyB) || compareValues(valueA, valueB);
        if (order !== 0) return order;
      }
      return x.length - y.length;
    }
    default:
      return compareStrings(String(a), String(b));
  }
}

function objectEntries(value: unknown): [string, unknown][] {
  if (bsonTypeName(value as object) === 'DBRef') {
    const ref = value as { collection: string; oid: unknown; db?: string };
    const entries: [string, unknown][] = [['$ref', ref.collection], ['$id', ref.oid]];
    if (ref.db !== undefined) entries.push(['$db', ref.db]);
    return entries;
  }
  return Object.entries(value as Document).filter(([, entry]) => entry !== undefined);
}

export function valuesEqual(a: unknown, b: unknown): boolean {
  return compareValues(a, b) === 0;
}

function canonicalNumber(value: unknown): string {
  if (value instanceof Long) {
    if (value.lessThanOrEqual(Long.fromNumber(Number.MAX_SAFE_INTEGER)) && value.greaterThanOrEqual(Long.fromNumber(Number.MIN_SAFE_INTEGER))) {
      return String(value.toNumber());
    }
    return value.toString();
  }
  const number = toNumber(value);
  if (Object.is(number, -0)) return '0';
  if (Number.isInteger(number) && !Number.isSafeInteger(number)) return BigInt(number).toString();
  return String(number);
}

/**
 * A string equal for exactly the values MongoDB considers equal (1, 1.0 and NumberLong(1) share
 * one key), used for hash indexes, $addToSet, distinct and $group.
 */
export function canonicalKey(value: unknown): string {
  switch (typeBracket(value)) {
    case TypeBracket.Null:
      return 'z';
    case TypeBracket.MinKey:
      return 'm';
    case TypeBracket.MaxKey:
      return 'M';
    case TypeBracket.Number:
      return `n${canonicalNumber(value)}`;
    case TypeBracket.String:
      return `s${stringOf(value)}`;
    case TypeBracket.Boolean:
      return value ? 't' : 'f';
    case TypeBracket.Date:
      return `d${(value as Date).getTime()}`;
    case TypeBracket.ObjectId:
      return `o${(value as ObjectId).toHexString()}`;
    case TypeBracket.BinData: {
      const binary = value as Binary;
      return `b${binary.sub_type}:${Buffer.from(binary.buffer.subarray(0, binary.position)).toString('hex')}`;
    }
    case TypeBracket.Timestamp:
      return `T${(value as Timestamp).toString()}`;
    case TypeBracket.Regex: {
      const [source, flags] = regexParts(value);
      return `r${JSON.stringify([source, flags])}`;
    }
    case TypeBracket.Array:
      return `[${(value as unknown[]).map(canonicalKey).map((part) => JSON.stringify(part)).join(',')}]`;
    case TypeBracket.Object:
      return `{${objectEntries(value)
        .map(([key, entry]) => `${JSON.stringify(key)}:${JSON.stringify(canonicalKey(entry))}`)
        .join(',')}}`;
    default:
      return `x${String(value)}`;
  }
}
