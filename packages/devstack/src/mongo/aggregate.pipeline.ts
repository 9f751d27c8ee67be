// Runs an aggregation pipeline: $match, $sort, $skip, $limit and $count with this server's BSON
// semantics; document-shaping stages ($group, $project, $unwind, $lookup, …) through mingo.
import { Aggregator, ProcessingMode } from 'mingo';
import { isPlainObject, toNumber, typeBracket, TypeBracket, type Document } from './bson-value.order';
import { badValue, ErrorCodes, MongoCommandError } from './mongo-command.error';
import { compileSort, sortFields } from './projection.applier';
import { compileFilter, filterFields } from './query.matcher';

const mingoStages = new Set([
  '$addFields',
  '$set',
  '$project',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$group',
  '$unwind',
  '$lookup',
  '$facet',
  '$bucket',
  '$bucketAuto',
  '$sortByCount',
  '$sample',
  '$redact',
  '$densify',
  '$fill',
  '$setWindowFields',
  '$unionWith',
  '$graphLookup',
]);
const ownStages = new Set(['$match', '$sort', '$skip', '$limit', '$count']);

/** Resolves a collection name of the same database to its documents, for $lookup and $unionWith. */
export type CollectionResolver = (name: string) => Document[];

function stageName(stage: unknown): string {
  if (!isPlainObject(stage) || Object.keys(stage).length !== 1) {
    throw new MongoCommandError(40323, 'A pipeline stage specification object must contain exactly one field.');
  }
  return Object.keys(stage)[0];
}

function translateMingoError(error: unknown): never {
  if (error instanceof MongoCommandError) throw error;
  const message = error instanceof Error ? error.message : String(error);
  const operator = /'?(\$[A-Za-z]+)'? is not registered|operator '?(\$[A-Za-z]+)/.exec(message);
  if (operator) throw new MongoCommandError(ErrorCodes.InvalidPipelineOperator, `Unrecognized expression '${operator[1] ?? operator[2]}'`);
  throw badValue(message);
}

function positiveInteger(stage: string, value: unknown, allowZero: boolean): number {
  const number = toNumber(value);
  if (typeBracket(value) !== TypeBracket.Number || !Number.isInteger(number) || number < 0 || (!allowZero && number === 0)) {
    throw new MongoCommandError(15958, `invalid argument to ${stage} stage: must be a ${allowZero ? 'non-negative' : 'positive'} integer`);
  }
  return number;
}

/** Validates the pipeline up front so a bad stage fails before any work is done. */
export function validatePipeline(pipeline: unknown): Document[] {
  if (!Array.isArray(pipeline)) throw new MongoCommandError(ErrorCodes.TypeMismatch, "'pipeline' option must be specified as an array");
  for (const stage of pipeline) {
    const name = stageName(stage);
    if (!mingoStages.has(name) && !ownStages.has(name)) {
      throw new MongoCommandError(ErrorCodes.UnrecognizedPipelineStage, `Unrecognized pipeline stage name: '${name}'`);
    }
  }
  return pipeline as Document[];
}

export function runPipeline(input: Document[], pipeline: Document[], resolveCollection: CollectionResolver): Document[] {
  let documents = input;
  let pendingMingo: Document[] = [];
  const flushMingo = (): void => {
    if (pendingMingo.length === 0) return;
    try {
      documents = new Aggregator(pendingMingo, {
        processingMode: ProcessingMode.CLONE_INPUT,
        collectionResolver: (name: string) => resolveCollection(name),
      }).run(documents) as Document[];
    } catch (error) {
      translateMingoError(error);
    }
    pendingMingo = [];
  };
  for (const stage of pipeline) {
    const name = stageName(stage);
    const argument = stage[name];
    if (mingoStages.has(name)) {
      pendingMingo.push(stage);
      continue;
    }
    flushMingo();
    switch (name) {
      case '$match': {
        const predicate = compileFilter(argument);
        documents = documents.filter(predicate);
        break;
      }
      case '$sort': {
        if (!isPlainObject(argument) || Object.keys(argument).length === 0) throw new MongoCommandError(15976, '$sort stage must have at least one sort key');
        documents = (compileSort(argument) as (documents: Document[]) => Document[])(documents);
        break;
      }
      case '$skip':
        documents = documents.slice(positiveInteger(name, argument, true));
        break;
      case '$limit':
        documents = documents.slice(0, positiveInteger(name, argument, false));
        break;
      case '$count': {
        if (typeof argument !== 'string' || argument.length === 0) throw new MongoCommandError(40156, 'the count field must be a non-empty string');
        if (argument.startsWith('$')) throw new MongoCommandError(40158, "the count field cannot be a $-prefixed path");
        if (argument.includes('.')) throw new MongoCommandError(40160, "the count field cannot contain '.'");
        documents = documents.length === 0 ? [] : [{ [argument]: documents.length }];
        break;
      }
      default:
        throw new MongoCommandError(ErrorCodes.UnrecognizedPipelineStage, `Unrecognized pipeline stage name: '${name}'`);
    }
  }
  flushMingo();
  return documents;
}

/**
 * Adds the top-level fields an aggregation expression reads; false when it reads the whole
 * document (`$$ROOT`, `$$CURRENT`). Other `$$` names are variables, not document fields; a
 * `$literal` string that looks like a path only makes the answer wider, never wrong.
 */
function addExpressionFields(expression: unknown, into: Set<string>): boolean {
  if (typeof expression === 'string') {
    if (expression.startsWith('$$')) return !/^\$\$(ROOT|CURRENT)\b/.test(expression);
    if (expression.startsWith('$')) into.add(expression.slice(1).split('.')[0]);
    return true;
  }
  if (Array.isArray(expression)) return expression.every((item) => addExpressionFields(item, into));
  if (isPlainObject(expression)) return Object.values(expression).every((item) => addExpressionFields(item, into));
  return true;
}

/** A projection value that excludes: 0 or false, at its top or inside a nested projection (`{ a: { b: 0 } }`). */
function excludes(value: unknown): boolean {
  if (value === 0 || value === false) return true;
  if (!isPlainObject(value)) return false;
  return Object.entries(value).some(([key, inner]) => !key.startsWith('$') && excludes(inner));
}

/** An inclusion projection's fields (`_id` unless excluded); undefined for an exclusion projection. */
function addProjectionFields(projection: unknown, into: Set<string>): boolean {
  if (!isPlainObject(projection)) return false;
  let includesId = true;
  for (const [path, value] of Object.entries(projection)) {
    if (path === '_id' && (value === 0 || value === false)) {
      includesId = false;
      continue;
    }
    if (excludes(value)) return false;
    into.add(path.split('.')[0]);
    if (!addExpressionFields(value, into)) return false;
  }
  if (includesId) into.add('_id');
  return true;
}

/**
 * The top-level fields the stages after a leading `$match` read from its documents, so only those
 * are decoded (as mongod's dependency analysis lets a count or a group skip fetching); undefined
 * when whole documents are needed or the stages are not understood here. Stages that replace the
 * documents ($group, $count, $sortByCount, an inclusion $project) end what is read from them.
 */
export function pipelineFields(stages: readonly Document[]): Set<string> | undefined {
  const fields = new Set<string>();
  for (const stage of stages) {
    if (!isPlainObject(stage) || Object.keys(stage).length !== 1) return undefined;
    const [name] = Object.keys(stage);
    const argument = stage[name];
    switch (name) {
      case '$match':
        if (!filterFields(argument, fields)) return undefined;
        break;
      case '$sort':
        if (!isPlainObject(argument)) return undefined;
        for (const field of sortFields(argument)) fields.add(field);
        break;
      case '$skip':
      case '$limit':
        break;
      case '$unwind': {
        const path = isPlainObject(argument) ? argument.path : argument;
        if (typeof path !== 'string' || !path.startsWith('$') || path.startsWith('$$')) return undefined;
        fields.add(path.slice(1).split('.')[0]);
        break;
      }
      case '$count':
        return fields;
      case '$group':
      case '$sortByCount':
        return addExpressionFields(argument, fields) ? fields : undefined;
      case '$project':
        return addProjectionFields(argument, fields) ? fields : undefined;
      default:
        return undefined;
    }
  }
  return undefined;
}
