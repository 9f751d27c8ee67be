// Applies MongoDB update documents ($set, $inc, $push, … with positional `$`, `$[]` and
// `$[<id>]` paths) and replacement documents to a copy of a stored document, with MongoDB's errors.
import { Aggregator } from 'mingo';
import { Long, Timestamp, Double } from 'bson';
import { compareValues, isPlainObject, toNumber, typeBracket, TypeBracket, valuesEqual, type Document } from './bson-value.order';
import { compileFieldOperators, compileFilter, isOperatorObject, type Predicate } from './query.matcher';
import { badValue, ErrorCodes, MongoCommandError } from './mongo-command.error';
import { formatValue } from './value.formatter';

export interface UpdateContext {
  /** The query that selected the document, for the positional `$` operator. */
  filter?: Document;
  arrayFilters?: Document[];
  /** True when the update builds a document for an upsert ($setOnInsert applies). */
  inserting?: boolean;
}

export function cloneDocument<T>(value: T): T {
  if (Array.isArray(value)) return value.map(cloneDocument) as T;
  if (isPlainObject(value)) {
    const copy: Document = {};
    for (const key of Object.keys(value)) copy[key] = cloneDocument(value[key]);
    return copy as T;
  }
  return value;
}

const updateOperators = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$currentDate',
  '$setOnInsert',
  '$push',
  '$addToSet',
  '$pull',
  '$pullAll',
  '$pop',
]);

export function isOperatorUpdate(update: Document): boolean {
  const keys = Object.keys(update);
  return keys.length > 0 && keys[0].startsWith('$');
}

/**
 * The top-level fields an operator update may change (every path's first part, both sides of a
 * `$rename`); undefined for replacements, pipelines and malformed updates.
 */
export function updatedFields(update: unknown): Set<string> | undefined {
  if (!isPlainObject(update) || !isOperatorUpdate(update)) return undefined;
  const fields = new Set<string>();
  for (const [operator, operands] of Object.entries(update)) {
    if (!isPlainObject(operands)) return undefined;
    for (const [path, argument] of Object.entries(operands)) {
      fields.add(path.split('.')[0]);
      if (operator === '$rename') {
        if (typeof argument !== 'string') return undefined;
        fields.add(argument.split('.')[0]);
      }
    }
  }
  return fields;
}

function isArrayIndex(part: string): boolean {
  return /^[0-9]+$/.test(part);
}

function pathError(part: string, container: unknown): MongoCommandError {
  return new MongoCommandError(ErrorCodes.PathNotViable, `Cannot create field '${part}' in element ${formatValue(container)}`);
}

interface ArrayFilter {
  identifier: string;
  predicate: Predicate;
}

function compileArrayFilters(filters: Document[] | undefined): Map<string, ArrayFilter> {
  const compiled = new Map<string, ArrayFilter>();
  for (const filter of filters ?? []) {
    if (!isPlainObject(filter)) throw new MongoCommandError(ErrorCodes.TypeMismatch, 'arrayFilters entries must be objects');
    const identifiers = new Set(Object.keys(filter).map((key) => key.split('.')[0]));
    if (identifiers.size !== 1) throw new MongoCommandError(ErrorCodes.FailedToParse, 'Error parsing array filter :: caused by :: Expected a single top-level field name, found ' + [...identifiers].join(', '));
    const [identifier] = identifiers;
    if (compiled.has(identifier)) throw new MongoCommandError(ErrorCodes.FailedToParse, `Found multiple array filters with the same top-level field name ${identifier}`);
    compiled.set(identifier, { identifier, predicate: compileFilter(filter) });
  }
  return compiled;
}

/** Expands `$`, `$[]` and `$[id]` in a path into the concrete paths it designates in the document. */
function expandPath(document: Document, parts: string[], context: ExpandContext): string[][] {
  const results: string[][] = [];
  const walk = (value: unknown, index: number, prefix: string[]): void => {
    if (index === parts.length) {
      results.push(prefix);
      return;
    }
    const part = parts[index];
    if (part === '$' || part.startsWith('$[')) {
      if (!Array.isArray(value)) {
        throw new MongoCommandError(2, `The path '${prefix.join('.')}' must exist in the document in order to apply array updates.`);
      }
      if (part === '$') {
        const position = context.positional(prefix);
        walk(value[position], index + 1, [...prefix, String(position)]);
        return;
      }
      const identifier = part.slice(2, -1);
      const filter = identifier === '' ? undefined : context.arrayFilters.get(identifier);
      if (identifier !== '' && !filter) {
        throw new MongoCommandError(2, `No array filter found for identifier '${identifier}' in path '${parts.join('.')}'`);
      }
      context.usedIdentifiers.add(identifier);
      value.forEach((element, position) => {
        if (!filter || filter.predicate({ [identifier]: element })) walk(element, index + 1, [...prefix, String(position)]);
      });
      return;
    }
    const next = Array.isArray(value) ? (isArrayIndex(part) ? value[Number(part)] : undefined) : isPlainObject(value) ? value[part] : undefined;
    walk(next, index + 1, [...prefix, part]);
  };
  walk(document, 0, []);
  return results;
}

interface ExpandContext {
  arrayFilters: Map<string, ArrayFilter>;
  usedIdentifiers: Set<string>;
  positional(prefix: string[]): number;
}

interface Slot {
  container: Document | unknown[];
  key: string;
  exists: boolean;
  value: unknown;
}

/** Finds (optionally creating) the container of the last path part. */
function locate(document: Document, parts: string[], create: boolean): Slot | undefined {
  let current: Document | unknown[] = document;
  for (let index = 0; index < parts.length - 1; index += 1) {
    const part = parts[index];
    let next: unknown;
    if (Array.isArray(current)) {
      if (!isArrayIndex(part)) {
        if (!create) return undefined;
        throw pathError(part, current);
      }
      next = current[Number(part)];
    } else {
      next = current[part];
    }
    if (next === undefined || next === null) {
      if (!create) return undefined;
      if (next === null) throw pathError(parts[index + 1], { [part]: null });
      next = {};
      if (Array.isArray(current)) {
        const position = Number(part);
        while (current.length < position) current.push(null);
        current[position] = next;
      } else {
        current[part] = next;
      }
    } else if (!Array.isArray(next) && !isPlainObject(next)) {
      if (!create) return undefined;
      throw pathError(parts[index + 1], { [part]: next });
    }
    current = next as Document | unknown[];
  }
  const key = parts[parts.length - 1];
  if (Array.isArray(current)) {
    if (!isArrayIndex(key)) {
      if (!create) return undefined;
      throw pathError(key, current);
    }
    const position = Number(key);
    return { container: current, key, exists: position < current.length, value: current[position] };
  }
  return { container: current, key, exists: Object.prototype.hasOwnProperty.call(current, key), value: current[key] };
}

function assign(slot: Slot, value: unknown): void {
  if (Array.isArray(slot.container)) {
    const position = Number(slot.key);
    while (slot.container.length < position) slot.container.push(null);
    slot.container[position] = value;
  } else {
    slot.container[slot.key] = value;
  }
}

function remove(slot: Slot): void {
  if (Array.isArray(slot.container)) {
    const position = Number(slot.key);
    if (position < slot.container.length) slot.container[position] = null;
  } else {
    delete slot.container[slot.key];
  }
}

function isInt32(value: number): boolean {
  return Number.isInteger(value) && value >= -2147483648 && value <= 2147483647;
}

function arithmetic(operator: '$inc' | '$mul', current: unknown, argument: unknown): unknown {
  const useLong = current instanceof Long || argument instanceof Long;
  if (useLong && (current === undefined || current instanceof Long || (typeof current === 'number' && Number.isInteger(current))) && (argument instanceof Long || Number.isInteger(argument))) {
    const a = current === undefined ? Long.fromNumber(operator === '$inc' ? 0 : 0) : Long.fromValue(current as Long | number);
    const b = Long.fromValue(argument as Long | number);
    if (current === undefined) return operator === '$inc' ? b : Long.ZERO;
    return operator === '$inc' ? a.add(b) : a.multiply(b);
  }
  const a = current === undefined ? 0 : toNumber(current);
  const b = toNumber(argument);
  const result = operator === '$inc' ? (current === undefined ? b : a + b) : current === undefined ? 0 : a * b;
  // Int32 arithmetic overflowing into a double in JS would come back as an int64 in MongoDB.
  if (typeof current === 'number' && isInt32(current) && isInt32(b) && Number.isInteger(result) && !isInt32(result)) return Long.fromNumber(result);
  if (current instanceof Double || argument instanceof Double) return new Double(result);
  return result;
}

function idOf(document: Document): string {
  return `{_id: ${formatValue(document._id)}}`;
}

function checkNumeric(operator: string, field: string, argument: unknown): void {
  if (typeBracket(argument) !== TypeBracket.Number) {
    const verb = operator === '$inc' ? 'increment' : 'multiply';
    throw new MongoCommandError(ErrorCodes.TypeMismatch, `Cannot ${verb} with non-numeric argument: {${field}: ${formatValue(argument)}}`);
  }
}

function eachSpec(argument: unknown): { values: unknown[]; slice?: number; position?: number; sort?: unknown } {
  if (isPlainObject(argument) && '$each' in argument) {
    const each = argument.$each;
    if (!Array.isArray(each)) throw badValue(`The argument to $each in $push must be an array but it was of type: ${typeof each}`);
    for (const key of Object.keys(argument)) {
      if (!['$each', '$slice', '$position', '$sort'].includes(key)) throw badValue(`Unrecognized clause in $push: ${key}`);
    }
    return {
      values: each,
      slice: argument.$slice === undefined ? undefined : toNumber(argument.$slice),
      position: argument.$position === undefined ? undefined : toNumber(argument.$position),
      sort: argument.$sort,
    };
  }
  return { values: [argument] };
}

function sortArray(values: unknown[], spec: unknown): void {
  if (typeof spec === 'number' || spec instanceof Long) {
    const direction = toNumber(spec);
    values.sort((a, b) => direction * compareValues(a, b));
    return;
  }
  if (!isPlainObject(spec)) throw badValue('The $sort is invalid: use 1/-1 to sort the whole element, or {field:1/-1} to sort embedded fields');
  const keys = Object.entries(spec).map(([path, direction]) => [path, toNumber(direction)] as const);
  values.sort((a, b) => {
    for (const [path, direction] of keys) {
      const order = compareValues(getField(a, path), getField(b, path));
      if (order !== 0) return direction * order;
    }
    return 0;
  });
}

function getField(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    if (!isPlainObject(current)) return undefined;
    current = current[part];
  }
  return current;
}

function requireArrayField(slot: Slot, field: string, document: Document): unknown[] | undefined {
  if (!slot.exists || slot.value === undefined) return undefined;
  if (!Array.isArray(slot.value)) {
    throw badValue(`The field '${field}' must be an array but is of type ${typeName(slot.value)} in document ${idOf(document)}`);
  }
  return slot.value;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  if (typeof value === 'boolean') return 'bool';
  if (isPlainObject(value)) return 'object';
  return ((value as { _bsontype?: string })._bsontype ?? 'object').toLowerCase();
}

function pullTest(condition: unknown): (element: unknown) => boolean {
  if (isOperatorObject(condition)) {
    const test = compileFieldOperators(condition);
    return (element) => test([element]);
  }
  if (isPlainObject(condition)) {
    const predicate = compileFilter(condition);
    return (element) => isPlainObject(element) && predicate(element);
  }
  return (element) => valuesEqual(element, condition);
}

function checkConflicts(paths: string[]): void {
  const sorted = [...paths].sort();
  for (let index = 1; index < sorted.length; index += 1) {
    const previous = sorted[index - 1];
    const current = sorted[index];
    if (current === previous || current.startsWith(`${previous}.`)) {
      throw new MongoCommandError(ErrorCodes.ConflictingUpdateOperators, `Updating the path '${current}' would create a conflict at '${previous}'`);
    }
  }
}

function positionalFinder(document: Document, filter: Document | undefined): (prefix: string[]) => number {
  return (prefix) => {
    const arrayPath = prefix.join('.');
    const array = getField(document, arrayPath);
    const failure = new MongoCommandError(2, 'The positional operator did not find the match needed from the query.');
    if (!filter || !Array.isArray(array)) throw failure;
    const relevant: Document = {};
    for (const [key, condition] of Object.entries(filter)) {
      if (key === arrayPath || key.startsWith(`${arrayPath}.`)) relevant[key] = condition;
    }
    if (Object.keys(relevant).length === 0) throw failure;
    const predicate = compileFilter(relevant);
    for (let position = 0; position < array.length; position += 1) {
      const probe = cloneDocument(document);
      const parts = arrayPath.split('.');
      const slot = locate(probe, parts, false);
      if (!slot) break;
      assign(slot, [array[position]]);
      if (predicate(probe)) return position;
    }
    throw failure;
  };
}

function applyPipeline(original: Document, pipeline: unknown[]): Document {
  const allowed = new Set(['$addFields', '$set', '$project', '$unset', '$replaceRoot', '$replaceWith']);
  for (const stage of pipeline) {
    const name = isPlainObject(stage) ? Object.keys(stage)[0] : undefined;
    if (!name || !allowed.has(name)) {
      throw new MongoCommandError(ErrorCodes.InvalidOptions, `${name ?? 'stage'} is not allowed to be used within an update`);
    }
  }
  const [result] = new Aggregator(pipeline as Document[], {}).run([cloneDocument(original)]) as Document[];
  if (!isPlainObject(result)) throw badValue('pipeline update must produce a document');
  return result;
}

function checkId(original: Document, updated: Document, replacement: boolean): void {
  if (original._id === undefined) return;
  if (!('_id' in updated)) {
    if (replacement) {
      const withId: Document = { _id: original._id, ...updated };
      Object.keys(updated).forEach((key) => delete updated[key]);
      Object.assign(updated, withId);
      return;
    }
    throw new MongoCommandError(ErrorCodes.ImmutableField, "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  if (!valuesEqual(original._id, updated._id)) {
    if (replacement) {
      throw new MongoCommandError(
        ErrorCodes.ImmutableField,
        `After applying the update, the (immutable) field '_id' was found to have been altered to _id: ${formatValue(updated._id)}`,
      );
    }
    throw new MongoCommandError(ErrorCodes.ImmutableField, "Performing an update on the path '_id' would modify the immutable field '_id'");
  }
}

function checkReplacement(replacement: Document): void {
  for (const key of Object.keys(replacement)) {
    if (key.startsWith('$')) {
      throw new MongoCommandError(ErrorCodes.DollarPrefixedFieldName, `The dollar ($) prefixed field '${key}' in '${key}' is not allowed in the context of an update's replacement document. Consider using an aggregation pipeline with $replaceWith.`);
    }
  }
}

/**
 * A copy of `original` the update may modify: operators on a whole top-level field only ever
 * assign it a new value (arrays are rebuilt, not changed in place), so only the fields a dotted
 * path reaches into are copied deeply; the others are shared with `original`.
 */
function copyForUpdate(original: Document, update: Document): Document {
  const deep = new Set<string>();
  for (const [operator, operands] of Object.entries(update)) {
    if (!isPlainObject(operands)) continue;
    for (const [path, argument] of Object.entries(operands)) {
      if (path.includes('.')) deep.add(path.split('.')[0]);
      if (operator === '$rename' && typeof argument === 'string' && argument.includes('.')) deep.add(argument.split('.')[0]);
    }
  }
  const copy: Document = {};
  for (const key of Object.keys(original)) copy[key] = deep.has(key) ? cloneDocument(original[key]) : original[key];
  return copy;
}

/**
 * Returns the updated copy of `original` (never mutated) or throws MongoDB's error. `update` is an
 * operator document, a replacement document or a pipeline.
 */
export function applyUpdate(original: Document, update: unknown, context: UpdateContext = {}): Document {
  if (Array.isArray(update)) {
    const result = applyPipeline(original, update);
    checkId(original, result, true);
    return result;
  }
  if (!isPlainObject(update)) throw new MongoCommandError(ErrorCodes.FailedToParse, 'Update argument must be either an object or an array');
  if (!isOperatorUpdate(update)) {
    checkReplacement(update);
    const replacement = cloneDocument(update);
    checkId(original, replacement, true);
    return replacement;
  }
  const document = copyForUpdate(original, update);
  const arrayFilters = compileArrayFilters(context.arrayFilters);
  const expand: ExpandContext = { arrayFilters, usedIdentifiers: new Set(), positional: positionalFinder(original, context.filter) };
  const touched: string[] = [];
  const operations: (() => void)[] = [];

  for (const [operator, fields] of Object.entries(update)) {
    if (!updateOperators.has(operator)) {
      throw new MongoCommandError(ErrorCodes.FailedToParse, `Unknown modifier: ${operator}. Expected a valid update modifier or pipeline-style update specified as an array`);
    }
    if (!isPlainObject(fields)) {
      throw new MongoCommandError(ErrorCodes.FailedToParse, `Modifiers operate on fields but we found type ${typeName(fields)} instead. For example: {$mod: {<field>: ...}} not {${operator}: ${formatValue(fields)}}`);
    }
    if (operator === '$setOnInsert' && !context.inserting) {
      touched.push(...Object.keys(fields));
      continue;
    }
    for (const [field, argument] of Object.entries(fields)) {
      if (field === '') throw new MongoCommandError(56, 'An empty update path is not valid.');
      const parts = field.split('.');
      if (operator === '$rename') {
        if (typeof argument !== 'string') throw badValue(`The 'to' field for $rename must be a string: ${field}: ${formatValue(argument)}`);
        if (argument === field) throw badValue(`The source and target field for $rename must differ: ${field}: "${argument}"`);
        touched.push(field, argument);
        operations.push(() => {
          const source = locate(document, parts, false);
          if (!source || !source.exists) return;
          if (Array.isArray(source.container)) throw badValue(`The source field cannot be an array element, '${field}' in doc with _id: ${formatValue(document._id)} has an array field called '${parts[parts.length - 2]}'`);
          const value = source.value;
          remove(source);
          assign(locate(document, argument.split('.'), true) as Slot, value);
        });
        continue;
      }
      if (operator === '$inc' || operator === '$mul') checkNumeric(operator, field, argument);
      const concretePaths = expandPath(document, parts, expand);
      for (const concrete of concretePaths) {
        touched.push(concrete.join('.'));
        operations.push(() => applyOperator(document, operator, concrete, field, argument));
      }
    }
  }
  for (const identifier of arrayFilters.keys()) {
    if (!expand.usedIdentifiers.has(identifier)) {
      throw new MongoCommandError(ErrorCodes.FailedToParse, `The array filter for identifier '${identifier}' was not used in the update ${formatValue(update)}`);
    }
  }
  checkConflicts(touched);
  for (const operation of operations) operation();
  checkId(original, document, false);
  return document;
}

function applyOperator(document: Document, operator: string, parts: string[], field: string, argument: unknown): void {
  const create = operator !== '$unset' && operator !== '$pull' && operator !== '$pullAll' && operator !== '$pop';
  const slot = locate(document, parts, create);
  if (!slot) return;
  switch (operator) {
    case '$set':
    case '$setOnInsert':
      assign(slot, cloneDocument(argument));
      return;
    case '$unset':
      if (slot.exists) remove(slot);
      return;
    case '$inc':
    case '$mul': {
      const current = slot.exists ? slot.value : undefined;
      if (current !== undefined && typeBracket(current) !== TypeBracket.Number) {
        throw new MongoCommandError(
          ErrorCodes.TypeMismatch,
          `Cannot apply ${operator} to a value of non-numeric type. ${idOf(document)} has the field '${parts[parts.length - 1]}' of non-numeric type ${typeName(current)}`,
        );
      }
      assign(slot, arithmetic(operator, current, argument));
      return;
    }
    case '$min':
    case '$max': {
      const order = slot.exists ? compareValues(argument, slot.value) : operator === '$min' ? -1 : 1;
      if ((operator === '$min' && order < 0) || (operator === '$max' && order > 0)) assign(slot, cloneDocument(argument));
      return;
    }
    case '$currentDate': {
      const wantsTimestamp = isPlainObject(argument) && argument.$type === 'timestamp';
      if (isPlainObject(argument) && argument.$type !== 'timestamp' && argument.$type !== 'date') {
        throw badValue("The '$type' string field is required to be 'date' or 'timestamp': {$currentDate: {field : {$type: 'date'}}}");
      }
      if (!isPlainObject(argument) && typeof argument !== 'boolean') throw badValue(`${field} is not valid type for $currentDate. Please use a boolean ('true') or a $type expression ({$type: 'timestamp/date'}).`);
      const now = Date.now();
      assign(slot, wantsTimestamp ? new Timestamp({ t: Math.floor(now / 1000), i: 1 }) : new Date(now));
      return;
    }
    case '$push': {
      const spec = eachSpec(argument);
      const array = [...(requireArrayField(slot, field, document) ?? [])];
      const values = spec.values.map(cloneDocument);
      const position = spec.position === undefined ? array.length : spec.position < 0 ? Math.max(0, array.length + spec.position) : Math.min(spec.position, array.length);
      array.splice(position, 0, ...values);
      if (spec.sort !== undefined) sortArray(array, spec.sort);
      let result = array;
      if (spec.slice !== undefined) result = spec.slice >= 0 ? array.slice(0, spec.slice) : array.slice(Math.max(0, array.length + spec.slice));
      assign(slot, result);
      return;
    }
    case '$addToSet': {
      const values = isPlainObject(argument) && '$each' in argument ? eachSpec(argument).values : [argument];
      const array = [...(requireArrayField(slot, field, document) ?? [])];
      for (const value of values) {
        if (!array.some((existing) => valuesEqual(existing, value))) array.push(cloneDocument(value));
      }
      assign(slot, array);
      return;
    }
    case '$pull':
    case '$pullAll': {
      const array = requireArrayField(slot, field, document);
      if (!array) return;
      let test: (element: unknown) => boolean;
      if (operator === '$pullAll') {
        if (!Array.isArray(argument)) throw badValue(`$pullAll requires an array argument but was given a ${typeName(argument)}`);
        test = (element) => argument.some((value) => valuesEqual(element, value));
      } else {
        test = pullTest(argument);
      }
      assign(slot, array.filter((element) => !test(element)));
      return;
    }
    case '$pop': {
      const array = requireArrayField(slot, field, document);
      if (!array || array.length === 0) return;
      const direction = toNumber(argument);
      if (direction !== 1 && direction !== -1) throw new MongoCommandError(ErrorCodes.FailedToParse, `$pop expects 1 or -1, found: ${formatValue(argument)}`);
      assign(slot, direction === 1 ? array.slice(0, -1) : array.slice(1));
      return;
    }
    default:
      throw new MongoCommandError(ErrorCodes.FailedToParse, `Unknown modifier: ${operator}`);
  }
}

/** The document an upsert starts from: the filter's equality conditions. */
export function upsertSeed(filter: Document | undefined): Document {
  const seed: Document = {};
  const addFrom = (clause: Document): void => {
    for (const [key, condition] of Object.entries(clause)) {
      if (key === '$and' && Array.isArray(condition)) {
        condition.forEach((entry) => isPlainObject(entry) && addFrom(entry));
        continue;
      }
      if (key.startsWith('$')) continue;
      let value: unknown;
      if (isOperatorObject(condition)) {
        if (!('$eq' in condition)) continue;
        value = condition.$eq;
      } else {
        value = condition;
      }
      if (value instanceof RegExp) continue;
      const slot = locate(seed, key.split('.'), true);
      if (slot) assign(slot, cloneDocument(value));
    }
  };
  if (filter) addFrom(filter);
  return seed;
}
