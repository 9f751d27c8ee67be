// Runs an aggregation pipeline: $match, $sort, $skip, $limit and $count with this server's BSON
// semantics; document-shaping stages ($group, $project, $unwind, $lookup, …) through mingo.
import { Aggregator, ProcessingMode } from 'mingo';
import { isPlainObject, toNumber, typeBracket, TypeBracket, type Document } from './bson-value.order';
import { badValue, ErrorCodes, MongoCommandError } from './mongo-command.error';
import { compileSort } from './projection.applier';
import { compileFilter } from './query.matcher';

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
