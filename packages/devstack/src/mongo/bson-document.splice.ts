// Builds documents from the stored BSON bytes of another one, copying the top-level elements that
// do not change: an update re-encodes only the fields it touched and a top-level projection
// re-encodes nothing.
import { serialize } from 'bson';
import { asBuffer, cstringEnd, int32, matchingName, namesAsBytes, valueSize } from './bson-field.reader';
import { type Document } from './bson-value.order';

interface Element {
  name: string;
  start: number;
  end: number;
}

/** The top-level elements of a document, in stored order. */
function elementsOf(raw: Uint8Array): Element[] {
  const view = asBuffer(raw);
  const last = int32(raw, 0) - 1;
  if (last + 1 !== raw.length || raw[last] !== 0) throw new Error('invalid BSON document length');
  const elements: Element[] = [];
  let offset = 4;
  while (offset < last) {
    const nameEnd = cstringEnd(raw, offset + 1);
    const end = nameEnd + 1 + valueSize(raw[offset], raw, nameEnd + 1);
    if (end > last) throw new Error('invalid BSON document: element overruns the document');
    elements.push({ name: view.toString('utf8', offset + 1, nameEnd), start: offset, end });
    offset = end;
  }
  return elements;
}

/** Concatenates elements (given as byte ranges of their sources) into one document. */
function assemble(parts: [Uint8Array, number, number][]): Uint8Array {
  let size = 5;
  for (const [, start, end] of parts) size += end - start;
  const result = Buffer.allocUnsafe(size);
  result.writeInt32LE(size, 0);
  let position = 4;
  for (const [source, start, end] of parts) {
    result.set(source.subarray(start, end), position);
    position += end - start;
  }
  result[position] = 0;
  return result;
}

/**
 * `raw` with the top-level fields named in `names` set to their values in `fields`: present ones
 * are re-encoded in place, ones missing from `fields` are removed and new ones are appended in
 * `fields` order. Every other element keeps its stored bytes (names are matched as bytes, not decoded).
 */
export function withTopLevelFields(raw: Uint8Array, fields: Document, names: ReadonlySet<string>): Uint8Array {
  const changed: Document = {};
  for (const name of Object.keys(fields)) if (names.has(name)) changed[name] = fields[name];
  const encoded = serialize(changed, { checkKeys: false });
  const replacements = new Map<string, Element>();
  for (const element of elementsOf(encoded)) replacements.set(element.name, element);
  const wanted = namesAsBytes(names);
  const parts: [Uint8Array, number, number][] = [];
  const placed = new Set<string>();
  const last = int32(raw, 0) - 1;
  if (last + 1 !== raw.length || raw[last] !== 0) throw new Error('invalid BSON document length');
  let offset = 4;
  while (offset < last) {
    const nameEnd = cstringEnd(raw, offset + 1);
    const end = nameEnd + 1 + valueSize(raw[offset], raw, nameEnd + 1);
    if (end > last) throw new Error('invalid BSON document: element overruns the document');
    const match = matchingName(raw, offset + 1, nameEnd, wanted.bytes);
    if (match < 0) {
      parts.push([raw, offset, end]);
    } else {
      const name = wanted.names[match];
      const replacement = replacements.get(name);
      if (replacement && !placed.has(name)) {
        parts.push([encoded, replacement.start, replacement.end]);
        placed.add(name);
      }
    }
    offset = end;
  }
  for (const [name, element] of replacements) if (!placed.has(name)) parts.push([encoded, element.start, element.end]);
  return assemble(parts);
}

/** A projection of top-level fields only, applied to stored bytes. */
export interface TopLevelProjection {
  /** Inclusion: `_id` (unless excluded) then `fields` in projection order; exclusion: every field but `fields`. */
  inclusion: boolean;
  fields: string[];
  excludeId: boolean;
}

export function projectTopLevel(raw: Uint8Array, projection: TopLevelProjection): Uint8Array {
  const elements = elementsOf(raw);
  if (!projection.inclusion) {
    const excluded = new Set(projection.fields);
    if (projection.excludeId) excluded.add('_id');
    return assemble(elements.filter((element) => !excluded.has(element.name)).map((element) => [raw, element.start, element.end]));
  }
  const byName = new Map<string, Element>();
  for (const element of elements) if (!byName.has(element.name)) byName.set(element.name, element);
  const parts: [Uint8Array, number, number][] = [];
  const id = projection.excludeId ? undefined : byName.get('_id');
  if (id) parts.push([raw, id.start, id.end]);
  for (const field of projection.fields) {
    const element = field === '_id' ? undefined : byName.get(field);
    if (element) parts.push([raw, element.start, element.end]);
  }
  return assemble(parts);
}

const inclusionNames = new WeakMap<TopLevelProjection, Buffer[]>();

/** The names an inclusion projection copies, in output order, as bytes (kept per projection). */
function namesOfInclusion(projection: TopLevelProjection): Buffer[] {
  let names = inclusionNames.get(projection);
  if (!names) {
    const fields = projection.fields.filter((field) => field !== '_id');
    names = (projection.excludeId ? fields : ['_id', ...fields]).map((field) => Buffer.from(field, 'utf8'));
    inclusionNames.set(projection, names);
  }
  return names;
}

/**
 * `projectTopLevel` of a stored (valid) document for an inclusion projection, matching names as
 * bytes and stopping once every named field was met: names of other elements are not decoded.
 */
export function projectIncluded(raw: Uint8Array, projection: TopLevelProjection): Uint8Array {
  if (!projection.inclusion) return projectTopLevel(raw, projection);
  const names = namesOfInclusion(projection);
  const starts: number[] = new Array<number>(names.length).fill(-1);
  const ends: number[] = new Array<number>(names.length).fill(-1);
  const last = int32(raw, 0) - 1;
  if (last + 1 !== raw.length || raw[last] !== 0) throw new Error('invalid BSON document length');
  let found = 0;
  let offset = 4;
  while (offset < last && found < names.length) {
    const nameEnd = cstringEnd(raw, offset + 1);
    const end = nameEnd + 1 + valueSize(raw[offset], raw, nameEnd + 1);
    if (end > last) throw new Error('invalid BSON document: element overruns the document');
    const match = matchingName(raw, offset + 1, nameEnd, names);
    // The first element of a name wins, as in `projectTopLevel`.
    if (match >= 0 && starts[match] < 0) {
      starts[match] = offset;
      ends[match] = end;
      found += 1;
    }
    offset = end;
  }
  const parts: [Uint8Array, number, number][] = [];
  for (let position = 0; position < names.length; position += 1) if (starts[position] >= 0) parts.push([raw, starts[position], ends[position]]);
  return assemble(parts);
}
