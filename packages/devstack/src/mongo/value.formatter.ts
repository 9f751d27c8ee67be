// Renders BSON values the way mongod prints them inside error messages (`dup key: { a: "x" }`).
import type { Binary, Decimal128, Long, ObjectId } from 'bson';
import { isPlainObject } from './bson-value.order';

export function formatValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return `[ ${value.map(formatValue).join(', ')} ]`;
  if (value instanceof Date) return `new Date(${value.getTime()})`;
  if (value instanceof RegExp) return `/${value.source}/${value.flags}`;
  if (isPlainObject(value)) return formatFields(value);
  switch ((value as { _bsontype?: string })._bsontype) {
    case 'ObjectId':
      return `ObjectId('${(value as ObjectId).toHexString()}')`;
    case 'Long':
      return (value as Long).toString();
    case 'Decimal128':
      return (value as Decimal128).toString();
    case 'Binary': {
      const binary = value as Binary;
      if (binary.sub_type === 4) return `UUID("${binary.toUUID().toHexString(true)}")`;
      return `BinData(${binary.sub_type}, ${Buffer.from(binary.buffer.subarray(0, binary.position)).toString('hex').toUpperCase()})`;
    }
    default:
      return String(value);
  }
}

export function formatFields(document: Record<string, unknown>): string {
  const entries = Object.entries(document).map(([key, entry]) => `${key}: ${formatValue(entry)}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}
