// find() projections (inclusion, exclusion, $slice, $elemMatch; aggregation expressions via
// mingo's $project) and sort specifications with MongoDB's array semantics.
import { Aggregator, ProcessingMode } from 'mingo';
import { compareValues, isPlainObject, toNumber, typeBracket, TypeBracket, type Document } from './bson-value.order';
import { keyValues } from './document.path';
import { badValue, MongoCommandError } from './mongo-command.error';
import { compileFilter } from './query.matcher';
import { cloneDocument } from './update.applier';
import { type TopLevelProjection } from './bson-document.splice';

export type Projector = (document: Document) => Document;

type FieldRule = { kind: 'include' } | { kind: 'exclude' } | { kind: 'slice'; skip: number; limit: number } | { kind: 'elemMatch'; test: (element: unknown) => boolean };

function isFlag(value: unknown): boolean {
  return typeof value === 'boolean' || typeBracket(value) === TypeBracket.Number;
}

function includePath(source: unknown, target: Document, parts: string[]): void {
  const [head, ...rest] = parts;
  if (!isPlainObject(source) || !(head in source)) return;
  const value = source[head];
  if (rest.length === 0) {
    target[head] = cloneDocument(value);
    return;
  }
  if (Array.isArray(value)) {
    const existing = Array.isArray(target[head]) ? (target[head] as unknown[]) : undefined;
    const projected = value
      .map((element, index) => {
        if (!isPlainObject(element)) return undefined;
        const into = existing && isPlainObject(existing[index]) ? (existing[index] as Document) : {};
        includePath(element, into, rest);
        return into;
      })
      .filter((element) => element !== undefined);
    target[head] = projected;
    return;
  }
  if (isPlainObject(value)) {
    const into = isPlainObject(target[head]) ? (target[head] as Document) : {};
    includePath(value, into, rest);
    target[head] = into;
  }
}

function excludePath(target: unknown, parts: string[]): void {
  const [head, ...rest] = parts;
  if (Array.isArray(target)) {
    target.forEach((element) => excludePath(element, parts));
    return;
  }
  if (!isPlainObject(target)) return;
  if (rest.length === 0) delete target[head];
  else excludePath(target[head], rest);
}

function rulePath(document: Document, parts: string[], apply: (value: unknown) => unknown): void {
  let current: unknown = document;
  for (let index = 0; index < parts.length - 1; index += 1) {
    if (!isPlainObject(current)) return;
    current = current[parts[index]];
  }
  const last = parts[parts.length - 1];
  if (isPlainObject(current) && last in current) {
    const result = apply(current[last]);
    if (result === undefined) delete current[last];
    else current[last] = result;
  }
}

export function compileProjection(projection: unknown): Projector | undefined {
  if (projection === undefined || projection === null) return undefined;
  if (!isPlainObject(projection)) throw badValue('projection must be an object');
  const entries = Object.entries(projection);
  if (entries.length === 0) return undefined;
  const positional = entries.find(([field]) => field.endsWith('.$') || field.includes('.$.'));
  if (positional) throw badValue(`positional projection '${positional[0]}' is not supported by this server; use $elemMatch`);
  const needsExpressions = entries.some(([, value]) => !isFlag(value) && !(isPlainObject(value) && ('$slice' in value || '$elemMatch' in value)));
  if (needsExpressions) {
    const pipeline = [{ $project: projection }];
    return (document) => new Aggregator(pipeline, { processingMode: ProcessingMode.CLONE_INPUT }).run([document])[0] as Document;
  }
  const rules = new Map<string, FieldRule>();
  let inclusion: boolean | undefined;
  for (const [field, value] of entries) {
    if (isPlainObject(value)) {
      if ('$slice' in value) {
        const argument = value.$slice;
        if (Array.isArray(argument)) {
          if (argument.length !== 2) throw badValue('$slice array argument must have exactly two elements');
          const limit = toNumber(argument[1]);
          if (limit <= 0) throw badValue('$slice limit must be positive');
          rules.set(field, { kind: 'slice', skip: toNumber(argument[0]), limit });
        } else {
          rules.set(field, { kind: 'slice', skip: Number.NaN, limit: toNumber(argument) });
        }
      } else {
        const predicate = compileFilter({ probe: { $elemMatch: value.$elemMatch } });
        rules.set(field, { kind: 'elemMatch', test: (element) => predicate({ probe: [element] }) });
        if (field !== '_id') inclusion ??= true;
      }
      continue;
    }
    const include = Boolean(isFlag(value) && (typeof value === 'boolean' ? value : toNumber(value) !== 0));
    rules.set(field, { kind: include ? 'include' : 'exclude' });
    if (field === '_id') continue;
    if (inclusion === undefined) inclusion = include;
    else if (inclusion !== include) {
      throw new MongoCommandError(
        include ? 31253 : 31254,
        include ? `Cannot do inclusion on field ${field} in exclusion projection` : `Cannot do exclusion on field ${field} in inclusion projection`,
      );
    }
  }
  const excludeId = rules.get('_id')?.kind === 'exclude';
  if (inclusion === undefined) inclusion = rules.get('_id')?.kind === 'include' && [...rules.values()].every((rule) => rule.kind !== 'slice');
  return (document) => {
    let result: Document;
    if (inclusion) {
      result = {};
      if (!excludeId && '_id' in document) result._id = cloneDocument(document._id);
      for (const [field, rule] of rules) {
        if (field === '_id' || rule.kind === 'exclude') continue;
        includePath(document, result, field.split('.'));
      }
    } else {
      result = cloneDocument(document);
      for (const [field, rule] of rules) if (rule.kind === 'exclude') excludePath(result, field.split('.'));
    }
    for (const [field, rule] of rules) {
      if (rule.kind === 'slice') {
        rulePath(result, field.split('.'), (value) => {
          if (!Array.isArray(value)) return value;
          if (Number.isNaN(rule.skip)) return rule.limit >= 0 ? value.slice(0, rule.limit) : value.slice(Math.max(0, value.length + rule.limit));
          const start = rule.skip >= 0 ? rule.skip : Math.max(0, value.length + rule.skip);
          return value.slice(start, start + rule.limit);
        });
      } else if (rule.kind === 'elemMatch') {
        const source = document[field];
        const match = Array.isArray(source) ? source.find(rule.test) : undefined;
        if (match === undefined) delete result[field];
        else result[field] = [cloneDocument(match)];
      }
    }
    return result;
  };
}

/**
 * The projection as a rule over top-level fields, when it is only inclusions or exclusions of
 * top-level fields (so it can be applied to stored bytes); call after `compileProjection` accepted it.
 */
export function topLevelProjection(projection: unknown): TopLevelProjection | undefined {
  if (!isPlainObject(projection)) return undefined;
  const fields: string[] = [];
  let inclusion: boolean | undefined;
  let idRule: boolean | undefined;
  for (const [field, value] of Object.entries(projection)) {
    // Integer-like names are reordered by JS objects, which the decoded path would reproduce.
    if (!isFlag(value) || field.includes('.') || field.startsWith('$') || /^[0-9]+$/.test(field)) return undefined;
    const include = typeof value === 'boolean' ? value : toNumber(value) !== 0;
    if (field === '_id') {
      idRule = include;
      continue;
    }
    inclusion ??= include;
    fields.push(field);
  }
  if (fields.length === 0 && idRule === undefined) return undefined;
  return { inclusion: inclusion ?? idRule === true, fields, excludeId: idRule === false };
}

/** Sorts documents (stable) by a sort specification; sort keys are computed once per document. */
export type DocumentSorter = (documents: Document[]) => Document[];

/** Sort key of a document for one field: arrays sort by their smallest (ascending) or largest element. */
function sortKey(document: Document, field: string, direction: number): unknown {
  const values = keyValues(document, field);
  let best: unknown = values[0] === undefined ? null : values[0];
  for (const value of values.slice(1)) {
    const candidate = value === undefined ? null : value;
    const order = compareValues(candidate, best);
    if ((direction > 0 && order < 0) || (direction < 0 && order > 0)) best = candidate;
  }
  return best;
}

/** The top-level fields a sort specification reads. */
export function sortFields(sort: unknown): string[] {
  return isPlainObject(sort) ? Object.keys(sort).map((field) => field.split('.')[0]) : [];
}

export function compileSort(sort: unknown): DocumentSorter | undefined {
  if (sort === undefined || sort === null) return undefined;
  if (!isPlainObject(sort)) throw badValue('sort must be an object');
  const keys = Object.entries(sort).map(([field, direction]) => {
    if (isPlainObject(direction)) throw badValue(`$meta sort is not supported: ${field}`);
    const value = toNumber(direction);
    if (value !== 1 && value !== -1) throw badValue('$sort key ordering must be 1 (for ascending) or -1 (for descending)');
    return { field, direction: value };
  });
  if (keys.length === 0) return undefined;
  return (documents) =>
    documents
      .map((document) => ({ document, keys: keys.map(({ field, direction }) => sortKey(document, field, direction)) }))
      .sort((a, b) => {
        for (let index = 0; index < keys.length; index += 1) {
          const order = compareValues(a.keys[index], b.keys[index]);
          if (order !== 0) return keys[index].direction * order;
        }
        return 0;
      })
      .map((entry) => entry.document);
}
