// Reads selected top-level fields of a raw BSON document without decoding the rest: recovery
// needs only `_id` and indexed fields of each stored document.
import { deserialize } from 'bson';
import { type Document } from './bson-value.order';
import { DESERIALIZE_OPTIONS } from './bson.options';

function cstringEnd(raw: Uint8Array, offset: number): number {
  let position = offset;
  while (raw[position] !== 0) position += 1;
  return position;
}

function int32(raw: Uint8Array, offset: number): number {
  return raw[offset] | (raw[offset + 1] << 8) | (raw[offset + 2] << 16) | (raw[offset + 3] << 24);
}

/** Size in bytes of an element value of BSON type `type` starting at `offset`. */
function valueSize(type: number, raw: Uint8Array, offset: number): number {
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

/** A document holding only the named top-level fields of `raw` (decoded as stored). */
export function readTopLevelFields(raw: Uint8Array, names: ReadonlySet<string>): Document {
  const end = int32(raw, 0) - 1;
  const elements: Uint8Array[] = [];
  let size = 5;
  let offset = 4;
  let wanted = names.size;
  while (offset < end && wanted > 0) {
    const type = raw[offset];
    const nameEnd = cstringEnd(raw, offset + 1);
    const name = Buffer.from(raw.buffer, raw.byteOffset + offset + 1, nameEnd - offset - 1).toString('utf8');
    const valueStart = nameEnd + 1;
    const elementEnd = valueStart + valueSize(type, raw, valueStart);
    if (names.has(name)) {
      elements.push(raw.subarray(offset, elementEnd));
      size += elementEnd - offset;
      wanted -= 1;
    }
    offset = elementEnd;
  }
  const partial = Buffer.allocUnsafe(size);
  partial.writeInt32LE(size, 0);
  let position = 4;
  for (const element of elements) {
    partial.set(element, position);
    position += element.length;
  }
  partial[position] = 0;
  return deserialize(partial, DESERIALIZE_OPTIONS);
}
