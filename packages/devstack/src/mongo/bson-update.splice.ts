// Applies an operator update to stored BSON without decoding the fields it does not need: `$push`
// of plain values or `$each`, and `$pull` of sub-documents matching a condition, splice the stored
// bytes of a top-level array (existing elements are walked, never decoded); every other operator
// runs on a decoding of just its own top-level fields, which are then re-encoded in place.
import { deserialize, serialize } from 'bson';
import { asBuffer, cstringEnd, int32, matchingName, nameIs, namesAsBytes, readTopLevelFields, valueSize } from './bson-field.reader';
import { DESERIALIZE_OPTIONS } from './bson.options';
import { compareValues, isPlainObject, type Document } from './bson-value.order';
import { compileFilter, filterFields, isOperatorObject, type Predicate } from './query.matcher';
import { applyUpdate, cloneDocument, type UpdateContext } from './update.applier';

const ARRAY = 0x04;
/** Operators whose top-level use is applied without the general update machinery. */
const SIMPLE_OPERATORS = new Set(['$set', '$max', '$min']);
const EMBEDDED_DOCUMENT = 0x03;
const DOLLAR = 0x24;

/** An array operator applied to the stored bytes of a top-level array field. */
/** A pushed element as the client sent it: its BSON type and value bytes. */
interface ElementBytes {
  type: number;
  value: Uint8Array;
}

export type ArrayOperation = { kind: 'push'; values: unknown[]; elements?: ElementBytes[] } | { kind: 'pull'; matches: (element: Uint8Array) => boolean };

/** An update split into array operators spliced on bytes and the rest, applied to a partial decoding. */
export interface SplitUpdate {
  arrays: Map<string, ArrayOperation>;
  /** The names of `arrays`. */
  arrayFields: Set<string>;
  /** The update without the spliced operators; undefined when nothing else is left. */
  rest: Document | undefined;
  /** The top-level fields `rest` may change. */
  restFields: Set<string>;
  /**
   * Fields of `restFields` the update only `$set`s whole (and no index reads): their stored values
   * are not decoded, whether they change is read from the bytes where possible.
   */
  wholeSets: Set<string>;
  /** `restFields` without `wholeSets`: what the rest of the update needs decoded. */
  decodedFields: Set<string>;
  /** True when `rest` holds only `$set`, `$max` and `$min` of distinct plain top-level fields (applied directly). */
  restIsSimple: boolean;
  /** Each top-level field's first position among the update's operations: the order new fields are created in. */
  operationOrder: Map<string, number>;
  /**
   * When `rest` is a simple `$set` of scalars (strings, numbers, booleans, null) only: its elements
   * encoded once, by field, since every matched document gets the same values (a claim of a
   * thousand documents would otherwise encode them a thousand times).
   */
  setElements?: Map<string, Uint8Array>;
}

function isConstantScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** The elements of a `$set` of scalars, encoded as `splicedDocument` would encode them for any document. */
function encodedSetElements(rest: Document | undefined, restIsSimple: boolean): Map<string, Uint8Array> | undefined {
  if (!rest || !restIsSimple) return undefined;
  const operators = Object.keys(rest);
  if (operators.length !== 1 || operators[0] !== '$set') return undefined;
  const operands = rest.$set as Document;
  if (!Object.values(operands).every(isConstantScalar)) return undefined;
  return topLevelElements(serialize(operands, { checkKeys: false }));
}

/** The top-level elements of an encoded document by name, as views into it. */
function topLevelElements(encoded: Uint8Array): Map<string, Uint8Array> {
  const elements = new Map<string, Uint8Array>();
  const view = asBuffer(encoded);
  let offset = 4;
  while (offset < encoded.length - 1) {
    const nameEnd = cstringEnd(encoded, offset + 1);
    const end = nameEnd + 1 + valueSize(encoded[offset], encoded, nameEnd + 1);
    elements.set(view.toString('utf8', offset + 1, nameEnd), encoded.subarray(offset, end));
    offset = end;
  }
  return elements;
}

function isArrayIndex(name: string): boolean {
  return /^[0-9]+$/.test(name);
}

/** How many paths of the update (both sides of a `$rename`) fall under each top-level field; undefined when malformed. */
function pathsPerField(update: Document): Map<string, number> | undefined {
  const counts = new Map<string, number>();
  const count = (path: string): void => {
    const field = path.split('.')[0];
    counts.set(field, (counts.get(field) ?? 0) + 1);
  };
  for (const [operator, operands] of Object.entries(update)) {
    if (!isPlainObject(operands)) return undefined;
    for (const [path, argument] of Object.entries(operands)) {
      count(path);
      if (operator === '$rename') {
        if (typeof argument !== 'string') return undefined;
        count(argument);
      }
    }
  }
  return counts;
}

/** The values a `$push` argument appends, or undefined when it needs `$position`, `$slice`, `$sort` or is malformed. */
function pushedValues(argument: unknown): unknown[] | undefined {
  if (!isPlainObject(argument) || !('$each' in argument)) return [argument];
  const keys = Object.keys(argument);
  if (keys.length !== 1 || !Array.isArray(argument.$each)) return undefined;
  return argument.$each;
}

/** Whether a stored sub-document has a `$`-prefixed field (then it may decode as a DBRef, not a plain object). */
function hasDollarField(document: Uint8Array): boolean {
  const last = document.length - 1;
  let offset = 4;
  while (offset < last) {
    if (document[offset + 1] === DOLLAR) return true;
    const nameEnd = cstringEnd(document, offset + 1);
    offset = nameEnd + 1 + valueSize(document[offset], document, nameEnd + 1);
  }
  return false;
}

/** A test of stored sub-documents against a `$pull` condition, decoding only the fields it reads. */
function pullMatcher(condition: Document): ((element: Uint8Array) => boolean) | undefined {
  let predicate: Predicate;
  try {
    predicate = compileFilter(condition);
  } catch {
    // Malformed conditions take the general path, which raises the error when (and if) MongoDB would.
    return undefined;
  }
  const needed = filterFields(condition);
  return (element) => {
    if (!needed || hasDollarField(element)) {
      const decoded = deserialize(element, DESERIALIZE_OPTIONS);
      return isPlainObject(decoded) && predicate(decoded);
    }
    return predicate(readTopLevelFields(element, needed));
  };
}

/**
 * Splits an operator update into byte-spliced array operators and the rest; undefined when no
 * operator qualifies. A `$push`/`$pull` (and a whole-field `$set`) qualifies on a top-level
 * field no other path of the update touches (a conflict is left to the general path to report)
 * and for which `unindexed` holds.
 */
export function splitUpdate(update: unknown, unindexed: (field: string) => boolean, rawStatement?: Uint8Array): SplitUpdate | undefined {
  if (!isPlainObject(update)) return undefined;
  const operators = Object.keys(update);
  if (operators.length === 0 || !operators[0].startsWith('$')) return undefined;
  const counts = pathsPerField(update);
  if (!counts) return undefined;
  const arrays = new Map<string, ArrayOperation>();
  const rest: Document = {};
  const restFields = new Set<string>();
  const wholeSets = new Set<string>();
  let restIsSimple = true;
  const operationOrder = new Map<string, number>();
  for (const operator of operators) {
    const operands = update[operator] as Document;
    const kept: Document = {};
    let keptAny = false;
    for (const [path, argument] of Object.entries(operands)) {
      if (!operationOrder.has(path)) operationOrder.set(path, operationOrder.size);
      const plain = counts.get(path) === 1 && isSplicedField(path);
      const alone = plain && unindexed(path);
      const operation = alone ? arrayOperation(operator, argument) : undefined;
      if (operation) {
        if (operation.kind === 'push' && rawStatement) operation.elements = pushedElementBytes(rawStatement, path, operation.values.length);
        arrays.set(path, operation);
        continue;
      }
      if (alone && operator === '$set' && argument !== undefined) wholeSets.add(path);
      // Indexed fields may be simple too: they are decoded, and their index entries maintained.
      if (!plain || !SIMPLE_OPERATORS.has(operator)) restIsSimple = false;
      kept[path] = argument;
      keptAny = true;
      restFields.add(path.split('.')[0]);
      if (operator === '$rename' && typeof argument === 'string') restFields.add(argument.split('.')[0]);
    }
    // An operator left with no operands is dropped: an empty one changes nothing.
    if (keptAny || Object.keys(operands).length === 0) rest[operator] = kept;
  }
  if (arrays.size === 0 && wholeSets.size === 0) return undefined;
  const decodedFields = new Set([...restFields].filter((field) => !wholeSets.has(field)));
  const restUpdate = Object.keys(rest).length > 0 ? rest : undefined;
  const setElements = encodedSetElements(restUpdate, restIsSimple);
  return { arrays, arrayFields: new Set(arrays.keys()), rest: restUpdate, restFields, wholeSets, decodedFields, restIsSimple, operationOrder, setElements };
}

function isSplicedField(path: string): boolean {
  // Integer-like names would be reordered by a JS object; `_id` and `$` names have their own errors.
  return path !== '' && !path.includes('.') && !path.startsWith('$') && path !== '_id' && !isArrayIndex(path);
}

function arrayOperation(operator: string, argument: unknown): ArrayOperation | undefined {
  if (operator === '$push') {
    const values = pushedValues(argument);
    return values ? { kind: 'push', values } : undefined;
  }
  if (operator === '$pull' && isPlainObject(argument) && !isOperatorObject(argument)) {
    const matches = pullMatcher(argument);
    return matches ? { kind: 'pull', matches } : undefined;
  }
  return undefined;
}

/** A stored top-level array: where its element starts and its value lies. */
interface StoredArray {
  elementStart: number;
  valueStart: number;
  end: number;
  count: number;
}

/** Whether the bytes between `start` and `end` spell the decimal `index`. */
function isIndexName(raw: Uint8Array, start: number, end: number, index: number): boolean {
  let remaining = index;
  let position = end - 1;
  do {
    if (position < start || raw[position] !== 0x30 + (remaining % 10)) return false;
    remaining = Math.floor(remaining / 10);
    position -= 1;
  } while (remaining > 0);
  return position === start - 1;
}

/**
 * Counts the elements of a stored document or array value; with `numbered`, undefined when its
 * keys are not 0, 1, 2… (then the general path renumbers them).
 */
function countElements(raw: Uint8Array, valueStart: number, numbered: boolean): number | undefined {
  const last = valueStart + int32(raw, valueStart) - 1;
  let offset = valueStart + 4;
  let count = 0;
  while (offset < last) {
    const nameEnd = cstringEnd(raw, offset + 1);
    if (numbered && !isIndexName(raw, offset + 1, nameEnd, count)) return undefined;
    offset = nameEnd + 1 + valueSize(raw[offset], raw, nameEnd + 1);
    count += 1;
  }
  return count;
}

/**
 * Finds the stored arrays the split's operators change; undefined when one is not an array (the
 * general path raises MongoDB's error) or when a `$push` creates an array whose place among other
 * new fields only the general path knows (the rest of the update is not simple).
 */
export function locateArrays(raw: Uint8Array, split: SplitUpdate): Map<string, StoredArray> | undefined {
  const wanted = namesAsBytes(split.arrayFields);
  const last = int32(raw, 0) - 1;
  const found = new Map<string, StoredArray>();
  let offset = 4;
  while (offset < last) {
    const type = raw[offset];
    const nameEnd = cstringEnd(raw, offset + 1);
    const valueStart = nameEnd + 1;
    const end = valueStart + valueSize(type, raw, valueStart);
    const match = matchingName(raw, offset + 1, nameEnd, wanted.bytes);
    const name = match < 0 ? undefined : wanted.names[match];
    if (name !== undefined && !found.has(name)) {
      if (type !== ARRAY) return undefined;
      const count = countElements(raw, valueStart, true);
      if (count === undefined) return undefined;
      found.set(name, { elementStart: offset, valueStart, end, count });
    }
    offset = end;
  }
  if (split.rest && !split.restIsSimple) {
    for (const [name, operation] of split.arrays) if (operation.kind === 'push' && !found.has(name)) return undefined;
  }
  return found;
}

/** Byte chunks of one output document, with their total size. */
class DocumentBuilder {
  private readonly chunks: Uint8Array[] = [];
  private size = 5;

  add(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  build(): Uint8Array {
    const result = Buffer.allocUnsafe(this.size);
    result.writeInt32LE(this.size, 0);
    let position = 4;
    for (const chunk of this.chunks) {
      result.set(chunk, position);
      position += chunk.length;
    }
    result[position] = 0;
    return result;
  }
}

function int32Bytes(value: number): Uint8Array {
  const bytes = Buffer.allocUnsafe(4);
  bytes.writeInt32LE(value, 0);
  return bytes;
}

/** The elements `values` encode to as array entries numbered from `first`. */
function encodedElements(values: unknown[], first: number): Uint8Array {
  const entries: Document = {};
  values.forEach((value, position) => {
    entries[String(first + position)] = value;
  });
  const encoded = serialize(entries, { checkKeys: false });
  return encoded.subarray(4, encoded.length - 1);
}

/** The new element of a stored array after the operation, or undefined when it is unchanged. */
function splicedArray(raw: Uint8Array, stored: StoredArray, operation: ArrayOperation): Uint8Array[] | undefined {
  const header = raw.subarray(stored.elementStart, stored.valueStart);
  const arrayEnd = stored.end - 1;
  if (operation.kind === 'push') {
    if (operation.values.length === 0) return undefined;
    const added = operation.elements ? numberedElements(operation.elements, stored.count) : encodedElements(operation.values, stored.count);
    return [header, int32Bytes(stored.end - stored.valueStart + added.length), raw.subarray(stored.valueStart + 4, arrayEnd), added, new Uint8Array(1)];
  }
  const kept: Uint8Array[] = [];
  let size = 5;
  let index = 0;
  let removed = false;
  let offset = stored.valueStart + 4;
  while (offset < arrayEnd) {
    const type = raw[offset];
    const nameEnd = cstringEnd(raw, offset + 1);
    const valueStart = nameEnd + 1;
    const end = valueStart + valueSize(type, raw, valueStart);
    if (type === EMBEDDED_DOCUMENT && operation.matches(raw.subarray(valueStart, end))) {
      removed = true;
    } else {
      // Survivors are renumbered: keys follow positions.
      const key = Buffer.from(`\0${index}\0`, 'latin1');
      key[0] = type;
      kept.push(key, raw.subarray(valueStart, end));
      size += key.length + end - valueStart;
      index += 1;
    }
    offset = end;
  }
  if (!removed) return undefined;
  return [header, int32Bytes(size), ...kept, new Uint8Array(1)];
}

/**
 * The document after the split update: spliced arrays, the `restFields` re-encoded from `restResult`
 * (dropped when missing there, new ones appended in its order), every other element as stored.
 * Undefined when no array changed and `restChanged` is false.
 */
export function splicedDocument(raw: Uint8Array, split: SplitUpdate, arrays: Map<string, StoredArray>, restResult: Document | undefined, restChanged: boolean): Uint8Array | undefined {
  const replacedArrays = new Map<number, Uint8Array[]>();
  for (const [name, stored] of arrays) {
    const chunks = splicedArray(raw, stored, split.arrays.get(name) as ArrayOperation);
    if (chunks) replacedArrays.set(stored.elementStart, chunks);
  }
  // A `$push` onto a missing field creates the array (even an empty one).
  const created: [string, Uint8Array][] = [];
  for (const [name, operation] of split.arrays) {
    if (operation.kind !== 'push' || arrays.has(name)) continue;
    if (operation.elements) {
      const header = Buffer.from(`\0${name}\0`, 'utf8');
      header[0] = ARRAY;
      const elements = numberedElements(operation.elements, 0);
      created.push([name, Buffer.concat([header, int32Bytes(elements.length + 5), elements, new Uint8Array(1)])]);
      continue;
    }
    const encoded = serialize({ [name]: operation.values }, { checkKeys: false });
    created.push([name, encoded.subarray(4, encoded.length - 1)]);
  }
  if (replacedArrays.size === 0 && created.length === 0 && !restChanged) return undefined;
  let replacements = new Map<string, Uint8Array>();
  if (restResult && split.setElements) {
    // The rest set every one of its fields to these values; new ones are appended in `$set` order, as `restResult` holds them.
    replacements = split.setElements;
  } else if (restResult) {
    const changed: Document = {};
    for (const name of Object.keys(restResult)) if (split.restFields.has(name)) changed[name] = restResult[name];
    replacements = topLevelElements(serialize(changed, { checkKeys: false }));
  }
  const builder = new DocumentBuilder();
  const wanted = namesAsBytes(split.restFields);
  const last = int32(raw, 0) - 1;
  const placed = new Set<string>();
  // Unchanged elements are copied as runs of stored bytes.
  let runStart = 4;
  let offset = 4;
  while (offset < last) {
    const nameEnd = cstringEnd(raw, offset + 1);
    const end = nameEnd + 1 + valueSize(raw[offset], raw, nameEnd + 1);
    const chunks = replacedArrays.get(offset);
    const match = chunks || !restResult ? -1 : matchingName(raw, offset + 1, nameEnd, wanted.bytes);
    if (chunks || match >= 0) {
      if (runStart < offset) builder.add(raw.subarray(runStart, offset));
      runStart = end;
    }
    if (chunks) {
      for (const chunk of chunks) builder.add(chunk);
    } else if (match >= 0) {
      const name = wanted.names[match];
      const replacement = replacements.get(name);
      if (replacement && !placed.has(name)) {
        builder.add(replacement);
        placed.add(name);
      }
    }
    offset = end;
  }
  if (runStart < last) builder.add(raw.subarray(runStart, last));
  const appended = [...replacements].filter(([name]) => !placed.has(name));
  if (created.length > 0) {
    // New fields follow the order of the operations that create them (the rest being simple, each field has one).
    appended.push(...created);
    appended.sort(([left], [right]) => (split.operationOrder.get(left) as number) - (split.operationOrder.get(right) as number));
  }
  for (const [, element] of appended) builder.add(element);
  return builder.build();
}

/** True when an update changed one of the `touched` top-level fields of `before` (decoded with at least those fields). */
export function changedFields(before: Document, after: Document, touched: ReadonlySet<string>): boolean {
  for (const name of touched) {
    const had = before[name] !== undefined;
    const has = after[name] !== undefined;
    if (had !== has || (had && compareValues(before[name], after[name]) !== 0)) return true;
  }
  return false;
}

export interface SplicedUpdate {
  /** The new bytes, or undefined when the document is unchanged. */
  stored: Uint8Array | undefined;
  /** `document` after the rest of the update. */
  next: Document;
  /** Whether the rest of the update changed one of its fields (then indexes on them need maintenance). */
  restChanged: boolean;
}

/**
 * Applies a split update to stored bytes, `document` holding (at least) `_id` and the split's
 * other fields decoded; undefined when a target is not an array (or a `$push` target is missing):
 * the general path then applies the whole update and raises MongoDB's errors in MongoDB's order.
 */
export function applySplitUpdate(raw: Uint8Array, split: SplitUpdate, document: Document, context: UpdateContext): SplicedUpdate | undefined {
  const arrays = locateArrays(raw, split);
  if (!arrays) return undefined;
  let next = document;
  let restChanged = false;
  if (split.rest) {
    next = split.restIsSimple ? applySimpleRest(document, split.rest) : applyUpdate(document, split.rest, context);
    restChanged = changedFields(document, next, split.decodedFields) || wholeSetChanged(raw, split.wholeSets, next, split.setElements);
  }
  // Like the general path, a changed document gets every field the update names re-encoded.
  return { stored: splicedDocument(raw, split, arrays, split.rest ? next : undefined, restChanged), next, restChanged };
}

/** BSON types whose values compare equal exactly when their bytes are equal. */
const BYTE_COMPARABLE = new Set([0x02, 0x05, 0x07, 0x08, 0x09, 0x0a, 0x10, 0x11, 0x12]);

function bytesEqual(left: Uint8Array, leftStart: number, leftEnd: number, right: Uint8Array, rightStart: number): boolean {
  for (let index = 0; index < leftEnd - leftStart; index += 1) if (left[leftStart + index] !== right[rightStart + index]) return false;
  return true;
}

/**
 * Whether a whole-field `$set` changed one of `fields`, as `changedFields` would decide on the
 * decoded values: equal bytes are equal values; different bytes of a type compared by its bytes,
 * or documents and arrays of different lengths, are different; anything else is decoded and compared.
 */
function wholeSetChanged(raw: Uint8Array, fields: ReadonlySet<string>, next: Document, setElements?: Map<string, Uint8Array>): boolean {
  if (fields.size === 0) return false;
  const wanted = namesAsBytes(fields);
  const seen = new Set<string>();
  const last = int32(raw, 0) - 1;
  let offset = 4;
  while (offset < last) {
    const type = raw[offset];
    const nameEnd = cstringEnd(raw, offset + 1);
    const valueStart = nameEnd + 1;
    const end = valueStart + valueSize(type, raw, valueStart);
    const match = matchingName(raw, offset + 1, nameEnd, wanted.bytes);
    // The first element of a name is what a partial decoding reads.
    if (match >= 0 && !seen.has(wanted.names[match])) {
      const name = wanted.names[match];
      seen.add(name);
      if (storedValueChanged(raw, type, valueStart, end, name, next[name], setElements?.get(name))) return true;
    }
    offset = end;
  }
  for (const name of fields) if (!seen.has(name) && next[name] !== undefined) return true;
  return false;
}

/** `element`: the encoded element of `value`, when known (a `$set` of a scalar). */
function storedValueChanged(raw: Uint8Array, type: number, valueStart: number, end: number, name: string, value: unknown, element?: Uint8Array): boolean {
  if (value !== undefined) {
    // The element as a view of its own: type, name, value (a document's elements start at 4 and end before its last byte).
    const encoded = element ?? serialize({ [name]: value }, { checkKeys: false });
    const elementStart = element ? 0 : 4;
    const valueEnd = element ? element.length : encoded.length - 1;
    const newType = encoded[elementStart];
    const newValueStart = elementStart + 1 + Buffer.byteLength(name, 'utf8') + 1;
    const sameLength = valueEnd - newValueStart === end - valueStart;
    if (newType === type) {
      if (sameLength && bytesEqual(raw, valueStart, end, encoded, newValueStart)) return false;
      if (BYTE_COMPARABLE.has(type)) return true;
      if ((type === EMBEDDED_DOCUMENT || type === ARRAY) && countElements(raw, valueStart, false) !== countElements(encoded, newValueStart, false)) return true;
    }
  }
  const before = readTopLevelFields(raw, new Set([name]))[name];
  return changedFields({ [name]: before }, { [name]: value }, new Set([name]));
}

/**
 * `$set`, `$max` and `$min` of distinct plain top-level fields applied as `applyUpdate` does
 * (an existing field keeps its position, a new one is appended), without its path machinery:
 * such an update can raise no error.
 */
function applySimpleRest(document: Document, rest: Document): Document {
  const next: Document = { ...document };
  for (const operator of Object.keys(rest)) {
    const operands = rest[operator] as Document;
    for (const field of Object.keys(operands)) {
      const argument = operands[field];
      if (operator !== '$set') {
        const exists = Object.prototype.hasOwnProperty.call(next, field);
        const order = exists ? compareValues(argument, next[field]) : operator === '$min' ? -1 : 1;
        if ((operator === '$min' && order >= 0) || (operator === '$max' && order <= 0)) continue;
      }
      next[field] = cloneDocument(argument);
    }
  }
  return next;
}

/** The elements as array entries numbered from `first`. */
function numberedElements(elements: ElementBytes[], first: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  elements.forEach((element, position) => {
    const key = Buffer.from(`\0${first + position}\0`, 'latin1');
    key[0] = element.type;
    chunks.push(key, element.value);
    size += key.length + element.value.length;
  });
  return Buffer.concat(chunks, size);
}

/** The value of the only element named `name` of the document at `start`, or undefined (missing or repeated). */
function onlyElement(raw: Uint8Array, start: number, name: Buffer): { type: number; valueStart: number; end: number } | undefined {
  const last = start + int32(raw, start) - 1;
  let found: { type: number; valueStart: number; end: number } | undefined;
  let offset = start + 4;
  while (offset < last) {
    const type = raw[offset];
    const nameEnd = cstringEnd(raw, offset + 1);
    const end = nameEnd + 1 + valueSize(type, raw, nameEnd + 1);
    if (nameIs(raw, offset + 1, nameEnd, name)) {
      if (found) return undefined;
      found = { type, valueStart: nameEnd + 1, end };
    }
    offset = end;
  }
  return found;
}

const FIELD_U = Buffer.from('u');
const FIELD_PUSH = Buffer.from('$push');
const FIELD_EACH = Buffer.from('$each');
/** Leaf types whose decoding encodes back to the same bytes. */
const ROUND_TRIP_TYPES = new Set([0x02, 0x07, 0x09, 0x0a, 0x10, 0x11, 0x12, 0x13]);

/**
 * Whether the value decodes and encodes back to the same bytes, so copying it stores what
 * re-encoding the decoded value would: no int32-valued doubles (they come back as int32), no
 * `$` fields (DBRefs), arrays numbered 0, 1, 2…, no types the decoder changes.
 */
function roundTrips(type: number, raw: Uint8Array, valueStart: number, end: number): boolean {
  if (ROUND_TRIP_TYPES.has(type)) return true;
  if (type === 0x01) {
    const value = asBuffer(raw).readDoubleLE(valueStart);
    return !Number.isNaN(value) && !(Number.isInteger(value) && value >= -2147483648 && value <= 2147483647);
  }
  if (type === 0x08) return raw[valueStart] === 0 || raw[valueStart] === 1;
  if (type === 0x05) return raw[valueStart + 4] !== 0x02;
  if (type !== EMBEDDED_DOCUMENT && type !== ARRAY) return false;
  const last = end - 1;
  let offset = valueStart + 4;
  let index = 0;
  while (offset < last) {
    const elementType = raw[offset];
    const nameEnd = cstringEnd(raw, offset + 1);
    if (type === ARRAY ? !isIndexName(raw, offset + 1, nameEnd, index) : raw[offset + 1] === DOLLAR) return false;
    const elementEnd = nameEnd + 1 + valueSize(elementType, raw, nameEnd + 1);
    if (!roundTrips(elementType, raw, nameEnd + 1, elementEnd)) return false;
    offset = elementEnd;
    index += 1;
  }
  return true;
}

/**
 * The bytes of the elements a `$push` of `field` appends, read from the update statement as the
 * client sent it; undefined when they may not equal the decoded values encoded again.
 */
function pushedElementBytes(statement: Uint8Array, field: string, count: number): ElementBytes[] | undefined {
  const update = onlyElement(statement, 0, FIELD_U);
  if (!update || update.type !== EMBEDDED_DOCUMENT) return undefined;
  const push = onlyElement(statement, update.valueStart, FIELD_PUSH);
  if (!push || push.type !== EMBEDDED_DOCUMENT) return undefined;
  const argument = onlyElement(statement, push.valueStart, Buffer.from(field, 'utf8'));
  if (!argument) return undefined;
  const each = argument.type === EMBEDDED_DOCUMENT ? onlyElement(statement, argument.valueStart, FIELD_EACH) : undefined;
  const elements: ElementBytes[] = [];
  if (each) {
    if (each.type !== ARRAY) return undefined;
    let offset = each.valueStart + 4;
    while (offset < each.end - 1) {
      const type = statement[offset];
      const nameEnd = cstringEnd(statement, offset + 1);
      const end = nameEnd + 1 + valueSize(type, statement, nameEnd + 1);
      elements.push({ type, value: statement.subarray(nameEnd + 1, end) });
      offset = end;
    }
  } else {
    elements.push({ type: argument.type, value: statement.subarray(argument.valueStart, argument.end) });
  }
  if (elements.length !== count) return undefined;
  for (const element of elements) if (!roundTrips(element.type, element.value, 0, element.value.length)) return undefined;
  return elements;
}
