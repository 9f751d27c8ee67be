// Executes database commands against the storage engine and shapes replies as MongoDB 7 does.
// Each write statement is applied synchronously (atomically with respect to other commands; a long
// bulk write gives other connections turns between its statements, as mongod yields) and a write
// is acknowledged only after its journal records are fsynced.
import os from 'node:os';
import { Long } from 'bson';
import { canonicalKey, compareValues, isPlainObject, toNumber, typeBracket, TypeBracket, type Document } from './bson-value.order';
import { Collection, ID_INDEX_NAME } from './collection.store';
import { type IndexSpec } from './collection.index';
import { CursorRegistry, type CursorReply, type ResultDocument } from './cursor.registry';
import { encodeCursorReply, type EncodedReply } from './cursor-reply.encoder';
import { projectIncluded, withTopLevelFields } from './bson-document.splice';
import { applySplitUpdate, changedFields, splitUpdate, type SplitUpdate } from './bson-update.splice';
import { decodeUndecoded, holdsUndecoded, mayHoldUndecoded, undecodedOnlyIn } from './update-statement.elements';
import { readTopLevelFields } from './bson-field.reader';
import { keyValues } from './document.path';
import { badValue, ErrorCodes, MongoCommandError } from './mongo-command.error';
import { compileProjection, compileSort, sortFields, topLevelProjection } from './projection.applier';
import { compileFilter, filterFields } from './query.matcher';
import { positionExists, splitPositionalExists, type PositionalExists } from './positional-exists.matcher';
import { type StorageEngine } from './storage.engine';
import { StatementTurns } from './statement.turns';
import { applyUpdate, isOperatorUpdate, updatedFields, upsertSeed, type UpdateContext } from './update.applier';
import { pipelineFields, runPipeline, validatePipeline } from './aggregate.pipeline';

export const MAX_WIRE_VERSION = 21;
export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000;
export const MAX_WRITE_BATCH_SIZE = 100_000;
/** Insert batches of at least this many documents start their journal write before the whole batch is applied. */
const EARLY_JOURNAL_DOCUMENTS = 1000;
const SERVER_VERSION = '7.0.0';

export interface ConnectionInfo {
  id: number;
}

type Reply = Document | EncodedReply;
type CommandFunction = (database: string, command: Document, connection: ConnectionInfo, rawDocuments?: Uint8Array[]) => Reply | Promise<Reply>;

interface QueryOptions {
  sort?: unknown;
  skip?: number;
  limit?: number;
  projection?: unknown;
}

function optionalNumber(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeBracket(value) !== TypeBracket.Number) throw new MongoCommandError(ErrorCodes.TypeMismatch, `BSON field '${name}' is the wrong type '${typeof value}', expected types '[long, int, decimal, double]'`);
  return toNumber(value);
}

function collectionName(command: Document, name: string): string {
  const value = command[name];
  if (typeof value !== 'string') throw new MongoCommandError(ErrorCodes.InvalidNamespace, `collection name has invalid type ${typeof value}`);
  if (value.length === 0 || value.includes('$') || value.includes('\0')) throw new MongoCommandError(ErrorCodes.InvalidNamespace, `Invalid collection name: ${value}`);
  return value;
}

function checkCollation(command: Document): void {
  const collation = command.collation;
  if (collation !== undefined && !(isPlainObject(collation) && collation.locale === 'simple')) {
    throw badValue('collation is not supported by this server; only { locale: "simple" } is accepted');
  }
}

function writeErrorOf(index: number, error: unknown): Document {
  if (error instanceof MongoCommandError) return { index, code: error.code, errmsg: error.message, ...error.extra };
  return { index, code: 1, errmsg: error instanceof Error ? error.message : String(error) };
}

function storedBytes(collection: Collection): number {
  let size = 0;
  for (const raw of collection.documents.values()) size += raw.length;
  return size;
}

/** A matched document: its key, its stored bytes and a decoding of (at least) the fields asked for. */
interface Match {
  key: string;
  raw: Uint8Array;
  document: Document;
}

const NO_FIELDS: ReadonlySet<string> = new Set();
const ID_FIELD: ReadonlySet<string> = new Set(['_id']);

/** Decodes what a predicate over `filter` plus the caller's `fields` need: nothing, some top-level fields or everything. */
function decoderFor(filter: unknown, fields: ReadonlySet<string> | undefined): (raw: Uint8Array) => Document {
  const needed = fields ? filterFields(filter, new Set(fields)) : undefined;
  if (!needed) return Collection.decode;
  if (needed.size === 0) return () => ({});
  return (raw) => readTopLevelFields(raw, needed);
}

/** The output field of a `$group` counting every input into one constant group (`{_id: 1, n: {$sum: 1}}`, as countDocuments sends); undefined for any other stage. */
function countGroupField(stage: unknown): string | undefined {
  if (!isPlainObject(stage) || Object.keys(stage).length !== 1 || !isPlainObject(stage.$group)) return undefined;
  const group = stage.$group;
  const fields = Object.keys(group);
  if (fields.length !== 2 || fields[0] !== '_id') return undefined;
  const id = group._id;
  if (!(id === null || typeof id === 'number' || typeof id === 'boolean')) return undefined;
  const sum = group[fields[1]];
  if (!isPlainObject(sum) || Object.keys(sum).length !== 1 || sum.$sum !== 1) return undefined;
  return fields[1];
}

function collectMatches(entries: Iterable<[string, Uint8Array]>, filter: unknown, limit: number, fields: ReadonlySet<string> | undefined): Match[] {
  const predicate = compileFilter(filter);
  const decode = decoderFor(filter, fields);
  const positional = fields ? splitPositionalExists(filter) : undefined;
  if (positional) return collectWithPositionalExists(entries, positional, predicate, decode, limit, fields);
  const result: Match[] = [];
  for (const [key, raw] of entries) {
    const document = decode(raw);
    if (!predicate(document)) continue;
    result.push({ key, raw, document });
    if (result.length >= limit) break;
  }
  return result;
}

/**
 * `collectMatches` for a filter with `<field>.<position>` existence conditions: they are answered
 * from the stored bytes, so the arrays they name are not decoded for them; a document whose bytes
 * cannot answer is decoded and tested whole.
 */
function collectWithPositionalExists(
  entries: Iterable<[string, Uint8Array]>,
  positional: { conditions: PositionalExists[]; rest: Document },
  predicate: (document: Document) => boolean,
  decode: (raw: Uint8Array) => Document,
  limit: number,
  fields: ReadonlySet<string> | undefined,
): Match[] {
  const restPredicate = compileFilter(positional.rest);
  const decodeRest = decoderFor(positional.rest, fields);
  const conditions = positional.conditions.map((condition) => ({ ...condition, name: Buffer.from(condition.field, 'utf8') }));
  const result: Match[] = [];
  for (const [key, raw] of entries) {
    let answered = true;
    let matches = true;
    for (const condition of conditions) {
      const exists = positionExists(raw, condition.name, condition.position);
      if (exists === undefined) answered = false;
      else if (exists !== condition.wanted) matches = false;
    }
    let document: Document;
    if (!answered) {
      document = decode(raw);
      if (!predicate(document)) continue;
    } else {
      if (!matches) continue;
      document = decodeRest(raw);
      if (!restPredicate(document)) continue;
    }
    result.push({ key, raw, document });
    if (result.length >= limit) break;
  }
  return result;
}

function withoutField(filter: Document, field: string): Document {
  const rest: Document = {};
  for (const [name, condition] of Object.entries(filter)) if (name !== field) rest[name] = condition;
  return rest;
}

/**
 * Applies an update to a matched document and stores the result when it changed. With the
 * `touched` top-level fields known, only those are compared and re-encoded (the match must then
 * hold the fields `Collection.fieldsForUpdate` names); otherwise the whole document is.
 */
function applyToMatch(collection: Collection, match: Match, update: unknown, context: UpdateContext, touched: ReadonlySet<string> | undefined): { next: Document; stored?: Uint8Array } {
  const next = applyUpdate(match.document, update, context);
  if (touched) {
    if (!changedFields(match.document, next, touched)) return { next };
    return { next, stored: collection.replaceStored(match.key, withTopLevelFields(match.raw, next, touched), next, match.document, touched) };
  }
  if (compareValues(match.document, next) === 0) return { next };
  return { next, stored: collection.replace(match.key, next) };
}

/**
 * Applies a split update to a matched document (decoded with the fields `Collection.fieldsForUpdate`
 * names for the split's other fields) and stores the result when it changed. A document whose
 * target is not an array takes the general path, which raises MongoDB's error.
 */
function applySplitToMatch(collection: Collection, match: Match, split: SplitUpdate, update: () => unknown, context: UpdateContext, touched: ReadonlySet<string>): Uint8Array | undefined {
  const spliced = applySplitUpdate(match.raw, split, match.document, context);
  if (!spliced) {
    const fields = collection.fieldsForUpdate(touched);
    const document = fields ? readTopLevelFields(match.raw, fields) : Collection.decode(match.raw);
    return applyToMatch(collection, { ...match, document }, update(), context, touched).stored;
  }
  if (!spliced.stored) return undefined;
  return collection.replaceStored(match.key, spliced.stored, spliced.next, match.document, spliced.restChanged ? split.restFields : NO_FIELDS);
}

/** The split of an update statement for the byte-splicing path, when the collection's indexes allow it. */
function splitFor(collection: Collection | undefined, update: unknown, arrayFilters: unknown, rawStatement: Uint8Array | undefined): SplitUpdate | undefined {
  // Array filters name the whole update in their errors, so those updates stay whole.
  if (!collection || arrayFilters !== undefined) return undefined;
  const split = splitUpdate(update, (field) => !collection.indexesDependOn(new Set([field])), rawStatement);
  if (!split || !collection.fieldsForUpdate(split.decodedFields)) return undefined;
  return split;
}

/**
 * The statement and its split for the splice path. A statement received with undecoded `$each`
 * elements stays so only when the splice path copies every one of them as bytes; otherwise it is
 * decoded (and split again) here. `update` of a spliced statement may still hold undecoded
 * elements: a document that cannot be spliced decodes it (`decodeUndecoded`).
 */
function splitStatement(collection: Collection | undefined, statement: Document, rawStatement: Uint8Array | undefined): { statement: Document; split: SplitUpdate | undefined } {
  const split = splitFor(collection, statement.u, statement.arrayFilters, rawStatement);
  if (!rawStatement || !mayHoldUndecoded(rawStatement)) return { statement, split };
  const bytesPushed = new Set<string>();
  if (split) for (const [path, operation] of split.arrays) if (operation.kind === 'push' && operation.elements) bytesPushed.add(path);
  if (split ? undecodedOnlyIn(statement, bytesPushed) : !holdsUndecoded(statement)) return { statement, split };
  const decoded = decodeUndecoded(statement);
  return { statement: decoded, split: splitFor(collection, decoded.u, decoded.arrayFilters, rawStatement) };
}

function defaultIndexName(key: Document): string {
  return Object.entries(key)
    .map(([field, direction]) => `${field}_${String(typeBracket(direction) === TypeBracket.Number ? toNumber(direction) : direction)}`)
    .join('_');
}

export class CommandHandler {
  private readonly engine: StorageEngine;
  private readonly cursors = new CursorRegistry();
  private readonly startedAt = Date.now();
  private readonly commands: Record<string, CommandFunction>;
  connectionCount = 0;

  constructor(engine: StorageEngine) {
    this.engine = engine;
    const hello: CommandFunction = (_database, command, connection) => this.hello(command, connection);
    this.commands = {
      hello,
      isMaster: hello,
      ismaster: hello,
      ping: () => ({ ok: 1 }),
      buildInfo: () => this.buildInfo(),
      buildinfo: () => this.buildInfo(),
      getParameter: (_database, command) => this.getParameter(command),
      getCmdLineOpts: () => ({ argv: ['mongod'], parsed: {}, ok: 1 }),
      serverStatus: (_database, _command, _connection) => this.serverStatus(),
      hostInfo: () => ({ system: { hostname: os.hostname(), numCores: os.cpus().length, memSizeMB: Math.round(os.totalmem() / 1048576) }, os: { type: os.type() }, extra: {}, ok: 1 }),
      whatsmyuri: () => ({ you: '127.0.0.1:0', ok: 1 }),
      connectionStatus: () => ({ authInfo: { authenticatedUsers: [], authenticatedUserRoles: [] }, ok: 1 }),
      endSessions: () => ({ ok: 1 }),
      killAllSessions: () => ({ ok: 1 }),
      insert: (database, command, _connection, rawDocuments) => this.insert(database, command, rawDocuments),
      update: (database, command, _connection, rawStatements) => this.update(database, command, rawStatements),
      delete: (database, command) => this.delete(database, command),
      find: (database, command) => this.find(database, command),
      getMore: (database, command) => this.getMore(database, command),
      killCursors: (database, command) => this.killCursors(database, command),
      findAndModify: (database, command) => this.findAndModify(database, command),
      findandmodify: (database, command) => this.findAndModify(database, { ...command, findAndModify: command.findandmodify }),
      count: (database, command) => this.count(database, command),
      distinct: (database, command) => this.distinct(database, command),
      aggregate: (database, command) => this.aggregate(database, command),
      create: (database, command) => this.create(database, command),
      drop: (database, command) => this.drop(database, command),
      dropDatabase: (database) => this.dropDatabase(database),
      listCollections: (database, command) => this.listCollections(database, command),
      listDatabases: (_database, command) => this.listDatabases(command),
      createIndexes: (database, command) => this.createIndexes(database, command),
      listIndexes: (database, command) => this.listIndexes(database, command),
      dropIndexes: (database, command) => this.dropIndexes(database, command),
      deleteIndexes: (database, command) => this.dropIndexes(database, { ...command, dropIndexes: command.deleteIndexes }),
      collStats: (database, command) => this.collStats(database, command),
      dbStats: (database) => this.dbStats(database),
      renameCollection: (_database, command) => this.renameCollection(command),
      explain: (database, command) => this.explain(database, command),
    };
  }

  close(): void {
    this.cursors.close();
  }

  /** Runs one command; failures become MongoDB error replies, never exceptions. */
  async execute(database: string, command: Document, connection: ConnectionInfo, rawDocuments?: Uint8Array[]): Promise<Reply> {
    const name = Object.keys(command)[0];
    try {
      if (name === undefined) throw new MongoCommandError(ErrorCodes.CommandNotFound, "no such command: ''");
      const handler = Object.prototype.hasOwnProperty.call(this.commands, name) ? this.commands[name] : undefined;
      if (!handler) throw new MongoCommandError(ErrorCodes.CommandNotFound, `no such command: '${name}'`);
      if (command.txnNumber !== undefined || command.startTransaction !== undefined || command.autocommit !== undefined) {
        throw new MongoCommandError(ErrorCodes.IllegalOperation, 'Transaction numbers are only allowed on a replica set member or mongos');
      }
      if (typeof database !== 'string' || database.length === 0) throw new MongoCommandError(ErrorCodes.InvalidNamespace, 'Invalid database name');
      return await handler(database, command, connection, rawDocuments);
    } catch (error) {
      if (error instanceof MongoCommandError) return error.toReply();
      return { ok: 0, errmsg: error instanceof Error ? error.message : String(error), code: 1, codeName: 'InternalError' };
    }
  }

  // ---- handshake and diagnostics ---------------------------------------------------------------

  private hello(command: Document, connection: ConnectionInfo): Document {
    const reply: Document = {};
    if (command.hello !== undefined) reply.isWritablePrimary = true;
    else reply.ismaster = true;
    Object.assign(reply, {
      helloOk: true,
      maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
      maxMessageSizeBytes: MAX_MESSAGE_SIZE_BYTES,
      maxWriteBatchSize: MAX_WRITE_BATCH_SIZE,
      localTime: new Date(),
      connectionId: connection.id,
      minWireVersion: 0,
      maxWireVersion: MAX_WIRE_VERSION,
      readOnly: false,
      ok: 1,
    });
    return reply;
  }

  private buildInfo(): Document {
    return {
      version: SERVER_VERSION,
      gitVersion: 'destiny-devstack-mongo',
      versionArray: [7, 0, 0, 0],
      bits: 64,
      debug: false,
      maxBsonObjectSize: MAX_BSON_OBJECT_SIZE,
      storageEngines: ['devstack'],
      ok: 1,
    };
  }

  private getParameter(command: Document): Document {
    const reply: Document = { ok: 1 };
    if (command.featureCompatibilityVersion !== undefined || command.getParameter === '*') reply.featureCompatibilityVersion = { version: '7.0' };
    return reply;
  }

  private serverStatus(): Document {
    return {
      host: os.hostname(),
      version: SERVER_VERSION,
      process: 'mongod',
      pid: Long.fromNumber(process.pid),
      uptime: (Date.now() - this.startedAt) / 1000,
      uptimeMillis: Long.fromNumber(Date.now() - this.startedAt),
      localTime: new Date(),
      connections: { current: this.connectionCount, available: 100000 },
      mem: { resident: Math.round(process.memoryUsage().rss / 1048576), bits: 64 },
      ok: 1,
    };
  }

  // ---- reads ----------------------------------------------------------------------------------

  /**
   * Matching documents with the top-level `fields` decoded (undefined: whole documents), plus
   * whatever the filter reads. Conditions the index lookup answered exactly are not re-checked.
   */
  private matchingEntries(collection: Collection | undefined, filter: unknown, limit = Number.POSITIVE_INFINITY, fields?: ReadonlySet<string>): Match[] {
    if (filter !== undefined && filter !== null && !isPlainObject(filter)) throw new MongoCommandError(ErrorCodes.TypeMismatch, 'filter must be an object');
    if (!collection) {
      compileFilter(filter);
      return [];
    }
    const { entries, implied } = collection.candidates(filter as Document | undefined);
    return collectMatches(entries, implied ? withoutField(filter as Document, implied) : filter, limit, fields);
  }

  /**
   * Matching documents for a sort with a limit, walking an index on the (single) sort field so
   * only the first matches are decoded; undefined when no index fits, or when an `_id` or index
   * equality in the filter has fewer candidates than the walk had to examine (then those
   * candidates sorted in memory are cheaper, as a plan race in mongod would find).
   */
  private indexSortedEntries(collection: Collection | undefined, filter: unknown, sort: unknown, limit: number, fields?: ReadonlySet<string>): Match[] | undefined {
    if (!collection || !isPlainObject(sort)) return undefined;
    const keys = Object.keys(sort);
    if (keys.length !== 1) return undefined;
    const direction = toNumber(sort[keys[0]]);
    if (direction !== 1 && direction !== -1) return undefined;
    const filterDocument = isPlainObject(filter) ? filter : undefined;
    const budget = collection.equalityCandidateCount(filterDocument) ?? Number.POSITIVE_INFINITY;
    const ordered = collection.sortedCandidates(keys[0], direction, filterDocument);
    if (!ordered) return undefined;
    let examined = 0;
    const counted = function* (): Iterable<[string, Uint8Array]> {
      for (const entry of ordered.entries) {
        examined += 1;
        if (examined > budget) return;
        yield entry;
      }
    };
    const result = collectMatches(counted(), ordered.implied ? withoutField(filter as Document, ordered.implied) : filter, limit, fields);
    return result.length < limit && examined > budget ? undefined : result;
  }

  /** Matching documents, sorted, skipped and limited, with the top-level `fields` decoded (undefined: whole documents). */
  private select(collection: Collection | undefined, filter: unknown, options: QueryOptions, fields?: ReadonlySet<string>): Match[] {
    const sorter = compileSort(options.sort);
    const skip = options.skip ?? 0;
    const limit = options.limit !== undefined && options.limit !== 0 ? Math.abs(options.limit) : undefined;
    if (skip < 0) throw badValue('skip value must be non-negative');
    const needed = sorter && fields ? new Set([...fields, ...sortFields(options.sort)]) : fields;
    // The index walk gives the order, so only the caller's fields are decoded there.
    const viaIndex = sorter && limit !== undefined ? this.indexSortedEntries(collection, filter, options.sort, skip + limit, fields) : undefined;
    if (viaIndex) return viaIndex.slice(skip);
    const early = !sorter && limit !== undefined ? skip + limit : undefined;
    let matches = this.matchingEntries(collection, filter, early, needed);
    if (sorter) {
      const byDocument = new Map(matches.map((match) => [match.document, match]));
      matches = sorter(matches.map((match) => match.document)).map((document) => byDocument.get(document) as Match);
    }
    if (skip > 0 || limit !== undefined) matches = matches.slice(skip, limit === undefined ? undefined : skip + limit);
    return matches;
  }

  /** Whole matching documents, projected. */
  private query(collection: Collection | undefined, filter: unknown, options: QueryOptions): Document[] {
    const projector = compileProjection(options.projection);
    const documents = this.select(collection, filter, options).map((match) => match.document);
    return projector ? documents.map(projector) : documents;
  }

  private find(database: string, command: Document): EncodedReply {
    const name = collectionName(command, 'find');
    checkCollation(command);
    const limitOption = optionalNumber(command.limit, 'limit');
    const batchSize = optionalNumber(command.batchSize, 'batchSize');
    if (limitOption !== undefined && limitOption < 0) throw badValue(`LIMIT must be non-negative, but received: ${limitOption}`);
    if (batchSize !== undefined && batchSize < 0) throw badValue(`BatchSize value must be non-negative, but received: ${batchSize}`);
    const projector = compileProjection(command.projection);
    // Without a projection, or with one of top-level fields only, replies copy the stored bytes.
    const rawProjection = projector ? topLevelProjection(command.projection) : undefined;
    const options = { sort: command.sort, skip: optionalNumber(command.skip, 'skip'), limit: limitOption };
    const matches = this.select(this.engine.collection(database, name), command.filter, options, projector && !rawProjection ? undefined : NO_FIELDS);
    let documents: ResultDocument[];
    if (!projector) documents = matches.map((match) => match.raw);
    else if (rawProjection) documents = matches.map((match) => projectIncluded(match.raw, rawProjection));
    else documents = matches.map((match) => projector(match.document));
    const singleBatch = command.singleBatch === true;
    return encodeCursorReply(this.cursors.open(`${database}.${name}`, documents, batchSize, singleBatch));
  }

  private cursorReply(reply: CursorReply): Document {
    return { cursor: reply, ok: 1 };
  }

  private getMore(database: string, command: Document): EncodedReply {
    const id = command.getMore;
    if (!(id instanceof Long) && typeof id !== 'number') throw new MongoCommandError(ErrorCodes.TypeMismatch, "Field 'getMore' must be of type long");
    const cursorId = id instanceof Long ? id : Long.fromNumber(id);
    const name = collectionName(command, 'collection');
    const reply = this.cursors.next(cursorId, `${database}.${name}`, optionalNumber(command.batchSize, 'batchSize'));
    if (!reply) throw new MongoCommandError(ErrorCodes.CursorNotFound, `cursor id ${cursorId.toString()} not found`);
    return encodeCursorReply(reply);
  }

  private killCursors(_database: string, command: Document): Document {
    const ids = command.cursors;
    if (!Array.isArray(ids)) throw badValue('killCursors requires a cursors array');
    const killed: Long[] = [];
    const notFound: Long[] = [];
    for (const id of ids) {
      const cursorId = id instanceof Long ? id : Long.fromNumber(toNumber(id));
      (this.cursors.kill(cursorId) ? killed : notFound).push(cursorId);
    }
    return { cursorsKilled: killed, cursorsNotFound: notFound, cursorsAlive: [], cursorsUnknown: [], ok: 1 };
  }

  private count(database: string, command: Document): Document {
    const name = collectionName(command, 'count');
    checkCollation(command);
    const collection = this.engine.collection(database, name);
    const skip = optionalNumber(command.skip, 'skip') ?? 0;
    const limit = optionalNumber(command.limit, 'limit');
    if (skip < 0) throw badValue('skip value is negative in count query');
    const query = command.query;
    // Without a filter every document counts; with one an index may answer exactly (a COUNT_SCAN).
    const unfiltered = query === undefined || query === null || (isPlainObject(query) && Object.keys(query).length === 0);
    const known = !collection ? undefined : unfiltered ? collection.documents.size : isPlainObject(query) ? collection.indexedCount(query) : undefined;
    if (known !== undefined) {
      let n = Math.max(0, known - skip);
      if (limit !== undefined && limit !== 0) n = Math.min(n, Math.abs(limit));
      return { n, ok: 1 };
    }
    // Only what the filter reads is decoded (nothing when an index answered it), as mongod counts without fetching.
    const n = this.select(collection, query, { skip, limit }, NO_FIELDS).length;
    return { n, ok: 1 };
  }

  private distinct(database: string, command: Document): Document {
    const name = collectionName(command, 'distinct');
    checkCollation(command);
    const key = command.key;
    if (typeof key !== 'string') throw new MongoCommandError(ErrorCodes.TypeMismatch, "BSON field 'distinct.key' is missing but a required field");
    const documents = this.select(this.engine.collection(database, name), command.query, {}, new Set([key.split('.')[0]])).map((match) => match.document);
    const seen = new Map<string, unknown>();
    for (const document of documents) {
      for (const value of keyValues(document, key)) {
        if (value === undefined) continue;
        const canonical = canonicalKey(value);
        if (!seen.has(canonical)) seen.set(canonical, value);
      }
    }
    return { values: [...seen.values()].sort(compareValues), ok: 1 };
  }

  private aggregate(database: string, command: Document): Document {
    checkCollation(command);
    const pipeline = validatePipeline(command.pipeline);
    if (command.cursor === undefined && command.explain !== true) throw badValue("The 'cursor' option is required, except for aggregate with the explain argument");
    const collectionless = command.aggregate === 1;
    const name = collectionless ? '$cmd.aggregate' : collectionName(command, 'aggregate');
    if (collectionless) throw badValue('collectionless aggregate is not supported by this server');
    const collection = this.engine.collection(database, name);
    let stages = pipeline;
    let input: Document[];
    const first = pipeline[0];
    const counted = collection && first && isPlainObject(first) && isPlainObject(first.$match) && pipeline.length === 2 ? countGroupField(pipeline[1]) : undefined;
    const indexed = counted !== undefined ? collection?.indexedCount((first as { $match: Document }).$match) : undefined;
    if (counted !== undefined && indexed !== undefined) {
      // countDocuments' pipeline over an index equality: the keys are counted, no document is read.
      const output = indexed === 0 ? [] : [{ _id: (pipeline[1] as { $group: Document }).$group._id, [counted]: indexed }];
      return this.cursorReply(this.cursors.open(`${database}.${name}`, output, undefined, false));
    } else if (first && isPlainObject(first) && '$match' in first) {
      stages = pipeline.slice(1);
      // Only the fields the later stages read are decoded (countDocuments' $group reads none).
      input = this.select(collection, first.$match, {}, pipelineFields(stages)).map((match) => match.document);
    } else {
      input = collection ? collection.allDocuments() : [];
    }
    const output = runPipeline(input, stages, (other) => {
      const target = this.engine.collection(database, other);
      return target ? target.allDocuments() : [];
    });
    const cursorOptions = isPlainObject(command.cursor) ? command.cursor : {};
    const batchSize = optionalNumber(cursorOptions.batchSize, 'cursor.batchSize');
    return this.cursorReply(this.cursors.open(`${database}.${name}`, output, batchSize, false));
  }

  private explain(database: string, command: Document): Document {
    const inner = command.explain;
    if (!isPlainObject(inner)) throw badValue('explain command requires a nested object');
    const innerName = Object.keys(inner)[0];
    if (!['find', 'count', 'aggregate', 'distinct'].includes(innerName)) throw badValue(`Explain for ${innerName} is not supported`);
    const name = collectionName(inner, innerName);
    const collection = this.engine.collection(database, name);
    const examinedBefore = collection?.statistics.documentsExamined ?? 0;
    let returned: number;
    if (innerName === 'find') {
      returned = this.query(collection, inner.filter, { sort: inner.sort, skip: optionalNumber(inner.skip, 'skip'), limit: optionalNumber(inner.limit, 'limit'), projection: inner.projection }).length;
    } else if (innerName === 'count' || innerName === 'distinct') {
      returned = this.query(collection, inner.query, {}).length;
    } else {
      const reply = this.aggregate(database, { ...inner, cursor: {} }) as { cursor: CursorReply };
      returned = reply.cursor.firstBatch?.length ?? 0;
      if (!reply.cursor.id.isZero()) this.cursors.kill(reply.cursor.id);
    }
    const plan = collection?.statistics.lastPlan ?? 'EOF';
    const [stage, indexName] = plan.split(' ');
    return {
      queryPlanner: { namespace: `${database}.${name}`, winningPlan: indexName ? { stage: 'FETCH', inputStage: { stage, indexName } } : { stage }, rejectedPlans: [] },
      executionStats: {
        executionSuccess: true,
        nReturned: returned,
        totalDocsExamined: (collection?.statistics.documentsExamined ?? 0) - examinedBefore,
        totalKeysExamined: 0,
      },
      ok: 1,
    };
  }

  // ---- writes ---------------------------------------------------------------------------------

  private async insert(database: string, command: Document, rawDocuments?: Uint8Array[]): Promise<Document> {
    const name = collectionName(command, 'insert');
    const documents: unknown[] | undefined = rawDocuments ?? (Array.isArray(command.documents) ? command.documents : undefined);
    if (!documents) throw new MongoCommandError(ErrorCodes.FailedToParse, "BSON field 'insert.documents' is missing but a required field");
    if (documents.length > MAX_WRITE_BATCH_SIZE) throw new MongoCommandError(ErrorCodes.InvalidOptions, `Write batch sizes must be between 1 and ${MAX_WRITE_BATCH_SIZE}. Got ${documents.length} operations.`);
    const ordered = command.ordered !== false;
    const collection = this.engine.ensureCollection(database, name);
    const inserted: Uint8Array[] = [];
    const writeErrors: Document[] = [];
    // The first part of a large batch is journaled early, so the disk writes it while the rest is applied.
    const early = documents.length >= EARLY_JOURNAL_DOCUMENTS ? Math.floor((documents.length * 3) / 4) : -1;
    let journaled = 0;
    for (let index = 0; index < documents.length; index += 1) {
      if (index === early) {
        this.engine.journalPut(collection, inserted);
        this.engine.startWrite();
        journaled = inserted.length;
      }
      const document = documents[index];
      try {
        if (document instanceof Uint8Array) {
          inserted.push(collection.insertRaw(document));
        } else {
          if (!isPlainObject(document)) throw new MongoCommandError(ErrorCodes.TypeMismatch, 'document to insert must be an object');
          inserted.push(collection.insert(Collection.withId(document)));
        }
      } catch (error) {
        writeErrors.push(writeErrorOf(index, error));
        if (ordered) break;
      }
    }
    this.engine.journalPut(collection, journaled > 0 ? inserted.slice(journaled) : inserted);
    await this.engine.commit();
    const reply: Document = { n: inserted.length };
    if (writeErrors.length > 0) reply.writeErrors = writeErrors;
    reply.ok = 1;
    return reply;
  }

  /** Inserts the document an upsert builds; returns it and its stored bytes. */
  private upsertInsert(collection: Collection, filter: unknown, update: unknown, arrayFilters: Document[] | undefined): { document: Document; raw: Uint8Array } {
    const seed = upsertSeed(isPlainObject(filter) ? filter : undefined);
    let document: Document;
    if (Array.isArray(update) || (isPlainObject(update) && isOperatorUpdate(update))) {
      document = applyUpdate(seed, update, { filter: isPlainObject(filter) ? filter : undefined, arrayFilters, inserting: true });
    } else {
      const replacement = applyUpdate({}, update, {});
      document = seed._id !== undefined && replacement._id === undefined ? { _id: seed._id, ...replacement } : replacement;
    }
    if (document._id === undefined) document = Collection.withId(document);
    else if (Object.keys(document)[0] !== '_id') {
      const { _id, ...rest } = document;
      document = { _id, ...rest };
    }
    return { document, raw: collection.insert(document) };
  }

  private async update(database: string, command: Document, rawStatements?: Uint8Array[]): Promise<Document> {
    const name = collectionName(command, 'update');
    const updates = command.updates;
    if (!Array.isArray(updates)) throw new MongoCommandError(ErrorCodes.FailedToParse, "BSON field 'update.updates' is missing but a required field");
    const ordered = command.ordered !== false;
    // Like mongod, an update creates its collection only when it may insert (upsert).
    const mayInsert = updates.some((statement) => isPlainObject(statement) && statement.upsert === true);
    const collection = mayInsert ? this.engine.ensureCollection(database, name) : this.engine.collection(database, name);
    const changed: Uint8Array[] = [];
    const writeErrors: Document[] = [];
    const upserted: Document[] = [];
    let matched = 0;
    let modified = 0;
    const turns = new StatementTurns();
    const droppedError = () => new MongoCommandError(ErrorCodes.QueryPlanKilled, `collection ${database}.${name} was dropped during the update`);
    /**
     * A long update lets other connections' commands run, between its statements and between the
     * documents of a multi-document statement, as mongod yields; what it changed so far is
     * journaled first, in order. False when the collection was dropped meanwhile.
     */
    const yieldTurn = async (): Promise<boolean> => {
      if (collection) this.engine.journalPut(collection, changed.splice(0));
      await turns.yield();
      return !collection || this.engine.collection(database, name) === collection;
    };
    let dropped = false;
    try {
      for (let index = 0; index < updates.length && !dropped; index += 1) {
        const statement = updates[index];
        if (turns.due() && !(await yieldTurn())) {
          writeErrors.push(writeErrorOf(index, droppedError()));
          break;
        }
        try {
          if (!isPlainObject(statement)) throw new MongoCommandError(ErrorCodes.TypeMismatch, 'update statement must be an object');
          checkCollation(statement);
          if (statement.multi === true && isPlainObject(statement.u) && !isOperatorUpdate(statement.u) && Object.keys(statement.u).length > 0) {
            throw new MongoCommandError(ErrorCodes.FailedToParse, 'multi update is not supported for replacement-style update');
          }
          const rawStatement = rawStatements?.length === updates.length ? rawStatements[index] : undefined;
          const { statement: decoded, split } = splitStatement(collection, statement, rawStatement);
          const { q: filter, u: update, multi, upsert } = decoded;
          const arrayFilters = decoded.arrayFilters as Document[] | undefined;
          // An operator update reads and rewrites only the fields it touches (plus indexed ones).
          const touched = updatedFields(update);
          const fields = split ? (collection as Collection).fieldsForUpdate(split.decodedFields) : touched && collection ? collection.fieldsForUpdate(touched) : undefined;
          const entries = this.matchingEntries(collection, filter, multi === true ? Number.POSITIVE_INFINITY : 1, fields);
          if (entries.length === 0 && upsert === true && collection) {
            const { document, raw } = this.upsertInsert(collection, filter, decodeUndecoded(update), arrayFilters);
            changed.push(raw);
            upserted.push({ index, _id: document._id });
            continue;
          }
          const context = { filter: isPlainObject(filter) ? filter : undefined, arrayFilters };
          let yielded = false;
          for (let position = 0; position < entries.length; position += 1) {
            let match = entries[position];
            if (position > 0 && turns.due()) {
              if (!(await yieldTurn())) {
                dropped = true;
                throw droppedError();
              }
              yielded = true;
            }
            // Like mongod after a yield, each remaining document that changed meanwhile is checked
            // again, so a row another client took in between is not taken a second time.
            if (yielded) {
              const current = (collection as Collection).documents.get(match.key);
              if (current !== match.raw) {
                const again = current ? collectMatches([[match.key, current]], filter, 1, fields) : [];
                if (again.length === 0) continue;
                match = again[0];
              }
            }
            const stored = split ? applySplitToMatch(collection as Collection, match, split, () => decodeUndecoded(update), context, touched as Set<string>) : applyToMatch(collection as Collection, match, update, context, touched).stored;
            matched += 1;
            if (stored) {
              changed.push(stored);
              modified += 1;
            }
          }
        } catch (error) {
          writeErrors.push(writeErrorOf(index, error));
          if (ordered) break;
        }
      }
    } finally {
      if (collection) this.engine.journalPut(collection, changed);
    }
    await this.engine.commit();
    const reply: Document = { n: matched + upserted.length, nModified: modified };
    if (upserted.length > 0) reply.upserted = upserted;
    if (writeErrors.length > 0) reply.writeErrors = writeErrors;
    reply.ok = 1;
    return reply;
  }

  private async delete(database: string, command: Document): Promise<Document> {
    const name = collectionName(command, 'delete');
    const deletes = command.deletes;
    if (!Array.isArray(deletes)) throw new MongoCommandError(ErrorCodes.FailedToParse, "BSON field 'delete.deletes' is missing but a required field");
    const ordered = command.ordered !== false;
    const collection = this.engine.collection(database, name);
    const removedIds: unknown[] = [];
    const writeErrors: Document[] = [];
    for (let index = 0; index < deletes.length; index += 1) {
      const statement = deletes[index];
      try {
        if (!isPlainObject(statement)) throw new MongoCommandError(ErrorCodes.TypeMismatch, 'delete statement must be an object');
        checkCollation(statement);
        const limit = optionalNumber(statement.limit, 'limit');
        if (limit !== 0 && limit !== 1) throw new MongoCommandError(ErrorCodes.FailedToParse, `The limit field in delete objects must be 0 or 1. Got ${String(limit)}`);
        const entries = this.matchingEntries(collection, statement.q, limit === 1 ? 1 : Number.POSITIVE_INFINITY, ID_FIELD);
        for (const { key, document } of entries) {
          collection?.remove(key);
          removedIds.push(document._id);
        }
      } catch (error) {
        writeErrors.push(writeErrorOf(index, error));
        if (ordered) break;
      }
    }
    if (collection) this.engine.journalDelete(collection, removedIds);
    await this.engine.commit();
    const reply: Document = { n: removedIds.length };
    if (writeErrors.length > 0) reply.writeErrors = writeErrors;
    reply.ok = 1;
    return reply;
  }

  private async findAndModify(database: string, command: Document): Promise<Document> {
    const name = collectionName(command, 'findAndModify');
    checkCollation(command);
    const { query: filter, sort, remove, update, fields, upsert } = command;
    const returnNew = command.new === true;
    const arrayFilters = command.arrayFilters as Document[] | undefined;
    if (remove === true && update !== undefined) throw new MongoCommandError(ErrorCodes.FailedToParse, 'Cannot specify both an update and remove=true');
    if (remove !== true && update === undefined) throw new MongoCommandError(ErrorCodes.FailedToParse, 'Either an update or remove=true must be specified');
    if (remove === true && (upsert === true || returnNew)) throw new MongoCommandError(ErrorCodes.FailedToParse, 'Cannot specify both upsert=true and remove=true');
    const projector = compileProjection(fields);
    const project = (document: Document | null): Document | null => (document && projector ? projector(document) : document);
    const collection = upsert === true ? this.engine.ensureCollection(database, name) : this.engine.collection(database, name);
    if (filter !== undefined && filter !== null && !isPlainObject(filter)) throw new MongoCommandError(ErrorCodes.TypeMismatch, 'filter must be an object');
    const match = this.select(collection, filter, { sort, limit: 1 })[0];
    if (remove === true) {
      if (match && collection) {
        collection.remove(match.key);
        this.engine.journalDelete(collection, [match.document._id]);
        await this.engine.commit();
      }
      return { lastErrorObject: { n: match ? 1 : 0 }, value: project(match ? match.document : null), ok: 1 };
    }
    const target = collection as Collection;
    if (match) {
      const { next, stored } = applyToMatch(target, match, update, { filter: isPlainObject(filter) ? filter : undefined, arrayFilters }, updatedFields(update));
      if (stored) {
        this.engine.journalPut(target, [stored]);
        await this.engine.commit();
      }
      return { lastErrorObject: { n: 1, updatedExisting: true }, value: project(returnNew ? next : match.document), ok: 1 };
    }
    if (upsert === true) {
      const { document, raw } = this.upsertInsert(target, filter, update, arrayFilters);
      this.engine.journalPut(target, [raw]);
      await this.engine.commit();
      return { lastErrorObject: { n: 1, updatedExisting: false, upserted: document._id }, value: project(returnNew ? document : null), ok: 1 };
    }
    await this.engine.commit();
    return { lastErrorObject: { n: 0, updatedExisting: false }, value: null, ok: 1 };
  }

  // ---- catalog --------------------------------------------------------------------------------

  private async create(database: string, command: Document): Promise<Document> {
    const name = collectionName(command, 'create');
    if (this.engine.collection(database, name)) throw new MongoCommandError(ErrorCodes.NamespaceExists, `Collection ${database}.${name} already exists.`);
    if (command.viewOn !== undefined) throw badValue('views are not supported by this server');
    if (command.capped === true) throw badValue('capped collections are not supported by this server');
    for (const option of ['validator', 'timeseries', 'clusteredIndex', 'changeStreamPreAndPostImages', 'encryptedFields']) {
      // Accepting these without enforcing them would silently change behaviour.
      if (command[option] !== undefined) throw badValue(`the '${option}' collection option is not supported by this server`);
    }
    const options: Document = {};
    for (const [key, value] of Object.entries(command)) {
      if (key !== 'create' && !key.startsWith('$') && key !== 'lsid' && key !== 'writeConcern') options[key] = value;
    }
    this.engine.ensureCollection(database, name, options);
    await this.engine.commit();
    return { ok: 1 };
  }

  private async drop(database: string, command: Document): Promise<Document> {
    const name = collectionName(command, 'drop');
    const collection = this.engine.collection(database, name);
    if (!collection) return { ok: 1 };
    const indexes = collection.indexes.size + 1;
    this.engine.dropCollection(database, name);
    await this.engine.commit();
    return { nIndexesWas: indexes, ns: `${database}.${name}`, ok: 1 };
  }

  private async dropDatabase(database: string): Promise<Document> {
    this.engine.dropDatabase(database);
    await this.engine.commit();
    return { ok: 1 };
  }

  private listCollections(database: string, command: Document): Document {
    const collections = this.engine.databases.get(database);
    const nameOnly = command.nameOnly === true;
    let entries: Document[] = [...(collections?.values() ?? [])].map((collection) =>
      nameOnly
        ? { name: collection.name, type: 'collection' }
        : { name: collection.name, type: 'collection', options: collection.options, info: { readOnly: false }, idIndex: { v: 2, key: { _id: 1 }, name: ID_INDEX_NAME } },
    );
    if (command.filter !== undefined) entries = entries.filter(compileFilter(command.filter));
    const cursorOptions = isPlainObject(command.cursor) ? command.cursor : {};
    return this.cursorReply(this.cursors.open(`${database}.$cmd.listCollections`, entries, optionalNumber(cursorOptions.batchSize, 'batchSize'), false));
  }

  private listDatabases(command: Document): Document {
    let databases: Document[] = [...this.engine.databases.entries()].map(([name, collections]) => {
      let size = 0;
      if (command.nameOnly !== true) for (const collection of collections.values()) size += storedBytes(collection);
      return command.nameOnly === true ? { name } : { name, sizeOnDisk: size, empty: size === 0 };
    });
    if (command.filter !== undefined) databases = databases.filter(compileFilter(command.filter));
    const totalSize = databases.reduce((total, database) => total + ((database.sizeOnDisk as number | undefined) ?? 0), 0);
    return command.nameOnly === true ? { databases, ok: 1 } : { databases, totalSize, totalSizeMb: Math.round(totalSize / 1048576), ok: 1 };
  }

  private async createIndexes(database: string, command: Document): Promise<Document> {
    const name = collectionName(command, 'createIndexes');
    const indexes = command.indexes;
    if (!Array.isArray(indexes) || indexes.length === 0) throw badValue('Must specify at least one index to create');
    const existedBefore = this.engine.collection(database, name) !== undefined;
    const collection = this.engine.ensureCollection(database, name);
    const before = collection.indexes.size + 1;
    const specs: IndexSpec[] = [];
    for (const entry of indexes) {
      if (!isPlainObject(entry) || !isPlainObject(entry.key) || Object.keys(entry.key).length === 0) {
        throw new MongoCommandError(ErrorCodes.CannotCreateIndex, 'Index key pattern must be a non-empty object');
      }
      for (const [field, direction] of Object.entries(entry.key)) {
        const numeric = typeBracket(direction) === TypeBracket.Number && toNumber(direction) !== 0;
        if (!numeric && direction !== 'hashed') {
          throw new MongoCommandError(ErrorCodes.CannotCreateIndex, `Index type '${String(direction)}' on field '${field}' is not supported by this server`);
        }
      }
      const spec = { v: 2, ...entry, name: typeof entry.name === 'string' ? entry.name : defaultIndexName(entry.key) } as IndexSpec;
      if (spec.collation !== undefined) checkCollation({ collation: spec.collation });
      specs.push(spec);
    }
    let created = 0;
    for (const spec of specs) {
      const sameKey = collection.indexSpecs().find((existing) => compareValues(existing.key, spec.key) === 0);
      const sameName = collection.indexSpecs().find((existing) => existing.name === spec.name);
      if (sameName && compareValues(sameName.key, spec.key) !== 0) {
        throw new MongoCommandError(ErrorCodes.IndexKeySpecsConflict, `An existing index has the same name as the requested index. When index names are not specified, they are auto generated and can cause conflicts. Please refer to our documentation. Requested index: ${JSON.stringify(spec)}, existing index: ${JSON.stringify(sameName)}`);
      }
      if (sameKey && sameKey.name !== spec.name) {
        throw new MongoCommandError(ErrorCodes.IndexOptionsConflict, `Index already exists with a different name: ${sameKey.name}`);
      }
      if (sameKey) {
        if (Boolean(sameKey.unique) !== Boolean(spec.unique) && sameKey.name !== ID_INDEX_NAME) {
          throw new MongoCommandError(ErrorCodes.IndexKeySpecsConflict, `An existing index has the same name as the requested index but different options: ${spec.name}`);
        }
        continue;
      }
      this.engine.createIndex(collection, spec);
      created += 1;
    }
    await this.engine.commit();
    const reply: Document = { numIndexesBefore: before, numIndexesAfter: before + created, createdCollectionAutomatically: !existedBefore };
    if (created === 0) reply.note = 'all indexes already exist';
    reply.ok = 1;
    return reply;
  }

  private listIndexes(database: string, command: Document): Document {
    const name = collectionName(command, 'listIndexes');
    const collection = this.engine.collection(database, name);
    if (!collection) throw new MongoCommandError(ErrorCodes.NamespaceNotFound, `ns does not exist: ${database}.${name}`);
    const cursorOptions = isPlainObject(command.cursor) ? command.cursor : {};
    return this.cursorReply(this.cursors.open(`${database}.$cmd.listIndexes.${name}`, collection.indexSpecs(), optionalNumber(cursorOptions.batchSize, 'batchSize'), false));
  }

  private async dropIndexes(database: string, command: Document): Promise<Document> {
    const name = collectionName(command, 'dropIndexes');
    const collection = this.engine.collection(database, name);
    if (!collection) throw new MongoCommandError(ErrorCodes.NamespaceNotFound, `ns not found ${database}.${name}`);
    const before = collection.indexes.size + 1;
    const target = command.index;
    let names: string[];
    if (target === '*') names = [...collection.indexes.keys()];
    else if (typeof target === 'string') names = [target];
    else if (Array.isArray(target)) names = target.map(String);
    else if (isPlainObject(target)) {
      const spec = collection.indexSpecs().find((existing) => compareValues(existing.key, target) === 0);
      if (!spec) throw new MongoCommandError(ErrorCodes.IndexNotFound, `can't find index with key: ${JSON.stringify(target)}`);
      names = [spec.name];
    } else throw badValue('dropIndexes requires an index name, key pattern or "*"');
    for (const indexName of names) {
      if (indexName === ID_INDEX_NAME) throw new MongoCommandError(ErrorCodes.InvalidOptions, 'cannot drop _id index');
      if (!collection.indexes.has(indexName)) throw new MongoCommandError(ErrorCodes.IndexNotFound, `index not found with name [${indexName}]`);
    }
    for (const indexName of names) this.engine.dropIndex(collection, indexName);
    await this.engine.commit();
    return { nIndexesWas: before, ok: 1 };
  }

  private collStats(database: string, command: Document): Document {
    const name = collectionName(command, 'collStats');
    const collection = this.engine.collection(database, name);
    if (!collection) throw new MongoCommandError(ErrorCodes.NamespaceNotFound, `Collection [${database}.${name}] not found.`);
    const size = storedBytes(collection);
    const count = collection.documents.size;
    const indexSizes = Object.fromEntries(collection.indexSpecs().map((spec) => [spec.name, 0]));
    return { ns: `${database}.${name}`, count, size, avgObjSize: count === 0 ? 0 : Math.round(size / count), storageSize: size, nindexes: collection.indexes.size + 1, totalIndexSize: 0, indexSizes, ok: 1 };
  }

  private dbStats(database: string): Document {
    const collections = [...(this.engine.databases.get(database)?.values() ?? [])];
    let objects = 0;
    let dataSize = 0;
    let indexes = 0;
    for (const collection of collections) {
      objects += collection.documents.size;
      indexes += collection.indexes.size + 1;
      dataSize += storedBytes(collection);
    }
    return { db: database, collections: collections.length, views: 0, objects, avgObjSize: objects === 0 ? 0 : dataSize / objects, dataSize, storageSize: dataSize, indexes, indexSize: 0, ok: 1 };
  }

  private async renameCollection(command: Document): Promise<Document> {
    const from = command.renameCollection;
    const to = command.to;
    if (typeof from !== 'string' || typeof to !== 'string') throw badValue('renameCollection and to must be namespace strings');
    const split = (namespace: string): [string, string] => {
      const dot = namespace.indexOf('.');
      if (dot <= 0 || dot === namespace.length - 1) throw new MongoCommandError(ErrorCodes.InvalidNamespace, `Invalid namespace specified '${namespace}'`);
      return [namespace.slice(0, dot), namespace.slice(dot + 1)];
    };
    const [fromDatabase, fromName] = split(from);
    const [toDatabase, toName] = split(to);
    const source = this.engine.collection(fromDatabase, fromName);
    if (!source) throw new MongoCommandError(ErrorCodes.NamespaceNotFound, 'source namespace does not exist');
    if (this.engine.collection(toDatabase, toName) && command.dropTarget !== true) throw new MongoCommandError(ErrorCodes.NamespaceExists, 'target namespace exists');
    this.engine.renameCollection(source, toDatabase, toName);
    await this.engine.commit();
    return { ok: 1 };
  }
}
