// Reads selected top-level fields of a raw BSON document without decoding the rest: recovery
// needs only `_id` and indexed fields of each stored document, queries and updates only the
// fields their filter, sort and update operators name.
import { deserialize, ObjectId } from 'bson';
import { type Document } from './bson-value.order';
import { DESERIALIZE_OPTIONS } from './bson.options';

export function cstringEnd(raw: Uint8Array, offset: number): number {
  let position = offset;
  while (position < raw.length && raw[position] !== 0) position += 1;
  if (position >= raw.length) throw new Error('invalid BSON document: unterminated field name');
  return position;
}

export function int32(raw: Uint8Array, offset: number): number {
  return raw[offset] | (raw[offset + 1] << 8) | (raw[offset + 2] << 16) | (raw[offset + 3] << 24);
}

/** Size in bytes of an element value of BSON type `type` starting at `offset`. */
export function valueSize(type: number, raw: Uint8Array, offset: number): number {
  switch (type) {
    case 0x01:
    case 0x09:
    case 0x11:
    case 0x12:
      return 8;
    case 0x02:
    case 0x0d:
    case 0x0e:
      return 4 + int32(raw, offset);
    case 0x03:
    case 0x04:
    case 0x0f:
      return int32(raw, offset);
    case 0x05:
      return 5 + int32(raw, offset);
    case 0x06:
    case 0x0a:
    case 0xff:
    case 0x7f:
      return 0;
    case 0x07:
      return 12;
    case 0x08:
      return 1;
    case 0x0b: {
      const patternEnd = cstringEnd(raw, offset);
      return cstringEnd(raw, patternEnd + 1) + 1 - offset;
    }
    case 0x0c:
      return 4 + int32(raw, offset) + 12;
    case 0x10:
      return 4;
    case 0x13:
      return 16;
    default:
      throw new Error(`unknown BSON element type ${type}`);
  }
}

/** Field names to look for, as UTF-8 bytes and as strings (a match reuses the string instead of decoding the name). */
export interface EncodedNames {
  bytes: Buffer[];
  names: string[];
}

const encodedNames = new WeakMap<ReadonlySet<string>, EncodedNames>();
/** UTF-8 of field names seen so far (queries build new name sets per command); bounded. */
const encodedName = new Map<string, Buffer>();

export function namesAsBytes(names: ReadonlySet<string>): EncodedNames {
  let result = encodedNames.get(names);
  if (!result) {
    if (encodedName.size > 10_000) encodedName.clear();
    result = { bytes: [], names: [] };
    for (const name of names) {
      let bytes = encodedName.get(name);
      if (!bytes) encodedName.set(name, (bytes = Buffer.from(name, 'utf8')));
      result.bytes.push(bytes);
      result.names.push(name);
    }
    encodedNames.set(names, result);
  }
  return result;
}

/** Whether the bytes between `start` and `end` spell `name`. */
export function nameIs(raw: Uint8Array, start: number, end: number, name: Buffer): boolean {
  const length = end - start;
  if (name.length !== length) return false;
  for (let index = 0; index < length; index += 1) if (raw[start + index] !== name[index]) return false;
  return true;
}

/** The position in `names` of the name between `start` and `end`, or -1. */
export function matchingName(raw: Uint8Array, start: number, end: number, names: Buffer[]): number {
  for (let position = 0; position < names.length; position += 1) if (nameIs(raw, start, end, names[position])) return position;
  return -1;
}

const NOT_SCALAR = Symbol('not a scalar');

/** Decodes the common scalar element types directly; NOT_SCALAR means "use the BSON library". */
function decodeScalar(type: number, view: Buffer, start: number, end: number): unknown {
  switch (type) {
    case 0x02:
      return view.toString('utf8', start + 4, end - 1);
    case 0x07:
      // Copied: a view would keep the whole read buffer alive through index entries.
      return new ObjectId(Uint8Array.prototype.slice.call(view, start, end));
    case 0x10:
      return view.readInt32LE(start);
    case 0x01:
      return view.readDoubleLE(start);
    case 0x08:
      return view[start] === 1;
    case 0x0a:
      return null;
    case 0x09:
      return new Date(Number(view.readBigInt64LE(start)));
    default:
      return NOT_SCALAR;
  }
}

export function asBuffer(raw: Uint8Array): Buffer {
  return Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.length);
}

/** A document holding only the named top-level fields of `raw` (decoded as stored). */
export function readTopLevelFields(raw: Uint8Array, names: ReadonlySet<string>): Document {
  const wantedNames = namesAsBytes(names);
  const view = asBuffer(raw);
  const end = int32(raw, 0) - 1;
  if (end + 1 !== raw.length || raw[end] !== 0) throw new Error('invalid BSON document length');
  const result: Document = {};
  const elements: Uint8Array[] = [];
  let size = 5;
  let offset = 4;
  let wanted = names.size;
  while (offset < end && wanted > 0) {
    const type = raw[offset];
    const nameEnd = cstringEnd(raw, offset + 1);
    const valueStart = nameEnd + 1;
    const elementEnd = valueStart + valueSize(type, raw, valueStart);
    if (elementEnd > end) throw new Error('invalid BSON document: element overruns the document');
    const match = matchingName(raw, offset + 1, nameEnd, wantedNames.bytes);
    if (match >= 0) {
      const scalar = decodeScalar(type, view, valueStart, elementEnd);
      if (scalar !== NOT_SCALAR) {
        result[wantedNames.names[match]] = scalar;
      } else {
        elements.push(raw.subarray(offset, elementEnd));
        size += elementEnd - offset;
      }
      wanted -= 1;
    }
    offset = elementEnd;
  }
  if (elements.length === 0) return result;
  const partial = Buffer.allocUnsafe(size);
  partial.writeInt32LE(size, 0);
  let position = 4;
  for (const element of elements) {
    partial.set(element, position);
    position += element.length;
  }
  partial[position] = 0;
  return Object.assign(result, deserialize(partial, DESERIALIZE_OPTIONS));
}

/**
 * The canonical key of a leading ObjectId or string `_id` read straight from the bytes (the
 * common case); undefined when `_id` is not the first field or of another type.
 */
export function leadingIdKey(raw: Uint8Array): string | undefined {
  const type = raw[4];
  if (raw[5] !== 0x5f || raw[6] !== 0x69 || raw[7] !== 0x64 || raw[8] !== 0) return undefined;
  const view = asBuffer(raw);
  if (type === 0x07 && raw.length >= 21) return `o${view.toString('hex', 9, 21)}`;
  if (type === 0x02) {
    const length = view.readInt32LE(9);
    if (length < 1 || 13 + length > raw.length) return undefined;
    return `s${view.toString('utf8', 13, 13 + length - 1)}`;
  }
  return undefined;
}
