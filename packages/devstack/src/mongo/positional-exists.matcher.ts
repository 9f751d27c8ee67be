// Answers `{'<field>.<position>': {$exists: <bool>}}` conditions (the outbox relay's "no entry
// was added since I read it") from stored bytes: whether a top-level array has an element at a
// position needs its element count, not a decoding of the elements.
import { cstringEnd, int32, nameIs, valueSize } from './bson-field.reader';
import { isPlainObject, type Document } from './bson-value.order';

const EMBEDDED_DOCUMENT = 0x03;
const ARRAY = 0x04;
const UNDEFINED = 0x06;

export interface PositionalExists {
  field: string;
  position: number;
  wanted: boolean;
}

/** Positions as the path resolver reads them (document.path.ts). */
function positionOf(part: string): number | undefined {
  return part.length > 0 && part.length < 10 && /^[0-9]+$/.test(part) ? Number(part) : undefined;
}

/**
 * The filter's top-level `<field>.<position>` conditions that are exactly `{$exists: true|false}`,
 * and the filter without them; undefined when it has none.
 */
export function splitPositionalExists(filter: unknown): { conditions: PositionalExists[]; rest: Document } | undefined {
  if (!isPlainObject(filter)) return undefined;
  const conditions: PositionalExists[] = [];
  const rest: Document = {};
  for (const [key, condition] of Object.entries(filter)) {
    const parts = key.split('.');
    const position = parts.length === 2 && !parts[0].startsWith('$') ? positionOf(parts[1]) : undefined;
    const wanted = isPlainObject(condition) && Object.keys(condition).length === 1 ? condition.$exists : undefined;
    if (position !== undefined && parts[0] !== '' && typeof wanted === 'boolean') conditions.push({ field: parts[0], position, wanted });
    else rest[key] = condition;
  }
  return conditions.length > 0 ? { conditions, rest } : undefined;
}

/** Whether a stored sub-document has a top-level field named `name`. */
function hasField(raw: Uint8Array, start: number, name: Buffer): boolean {
  const last = start + int32(raw, start) - 1;
  let offset = start + 4;
  while (offset < last) {
    const nameEnd = cstringEnd(raw, offset + 1);
    if (nameIs(raw, offset + 1, nameEnd, name)) return true;
    offset = nameEnd + 1 + valueSize(raw[offset], raw, nameEnd + 1);
  }
  return false;
}

/**
 * Whether `<field>.<position>` reaches a value in the stored document, read from its bytes;
 * undefined when only a decoding can tell (the field is a sub-document, an array element is
 * BSON undefined, or an element document has a field named like the position).
 */
export function positionExists(raw: Uint8Array, field: Buffer, position: number): boolean | undefined {
  const last = int32(raw, 0) - 1;
  const positionName = Buffer.from(String(position), 'latin1');
  let offset = 4;
  while (offset < last) {
    const type = raw[offset];
    const nameEnd = cstringEnd(raw, offset + 1);
    const valueStart = nameEnd + 1;
    const end = valueStart + valueSize(type, raw, valueStart);
    if (nameIs(raw, offset + 1, nameEnd, field)) {
      if (type === EMBEDDED_DOCUMENT) return undefined;
      // A scalar has no positions; the path reaches nothing.
      if (type !== ARRAY) return false;
      const arrayEnd = end - 1;
      let elementOffset = valueStart + 4;
      let count = 0;
      let atPosition: number | undefined;
      while (elementOffset < arrayEnd) {
        const elementType = raw[elementOffset];
        const elementNameEnd = cstringEnd(raw, elementOffset + 1);
        if (count === position) atPosition = elementType;
        // The path also reads the field named like the position in every element document.
        if (elementType === EMBEDDED_DOCUMENT && hasField(raw, elementNameEnd + 1, positionName)) return undefined;
        elementOffset = elementNameEnd + 1 + valueSize(elementType, raw, elementNameEnd + 1);
        count += 1;
      }
      if (atPosition === UNDEFINED) return undefined;
      return atPosition !== undefined;
    }
    offset = end;
  }
  return false;
}
