// One collection in memory: documents by canonical _id, its indexes, and the choice of index
// (or full scan) that produces candidate documents for a filter.
import { deserialize, ObjectId, serialize } from 'bson';
import { leadingIdKey, readTopLevelFields } from './bson-field.reader';
import { DESERIALIZE_OPTIONS } from './bson.options';
import { canonicalKey, isPlainObject, TypeBracket, typeBracket, type Document } from './bson-value.order';
import { CollectionIndex, type IndexKeys, type IndexSpec } from './collection.index';
import { ErrorCodes, MongoCommandError } from './mongo-command.error';
import { isOperatorObject, isRegex } from './query.matcher';
import { formatFields } from './value.formatter';
import { SortedValues, type Bound } from './sorted-values.list';

export const ID_INDEX_NAME = '_id_';
const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;
const ID_ONLY: ReadonlySet<string> = new Set(['_id']);

/** Counters exposed for tests: how much work queries did. */
export interface ScanStatistics {
  documentsExamined: number;
  lastPlan: string;
}

interface IdEntry {
  value: unknown;
  key: string;
}

/** How a filter's candidates are found. */
interface Plan {
  name: string;
  keys: Iterable<string>;
  distinct: boolean;
  /** A top-level filter field whose condition the lookup answers exactly, so it needs no check. */
  implied?: string;
  /** Number of candidates of an `_id` or index equality lookup. */
  size?: number;
  /** True when the candidates are exactly the matching documents, each once (a count needs no document). */
  exact?: boolean;
}

/** Candidate documents as stored bytes, plus the filter field the plan already answered. */
export interface Candidates {
  entries: Iterable<[string, Uint8Array]>;
  implied?: string;
}

export class Collection {
  readonly database: string;
  readonly name: string;
  readonly options: Document;
  /** Stored documents as raw BSON by canonical _id: compact, immutable, and outside the JS heap. */
  readonly documents = new Map<string, Uint8Array>();
  readonly indexes = new Map<string, CollectionIndex>();
  readonly statistics: ScanStatistics = { documentsExamined: 0, lastPlan: 'COLLSCAN' };
  /** `_id` values in BSON order, built on the first range or sort on `_id` and then maintained. */
  private idOrder: SortedValues<IdEntry> | undefined;
  /** Top-level fields the secondary indexes read (`_id` only when one names it), or undefined when a whole document is needed. */
  private indexFields: Set<string> | undefined = new Set();
  /** The secondary indexes as an array, kept with `indexes` (inserts walk it for every document). */
  private indexList: CollectionIndex[] = [];
  /** `indexesDependingOn` answers by touched-field set, valid while `indexList` is the same array. */
  private readonly dependentIndexes = new WeakMap<ReadonlySet<string>, { list: CollectionIndex[]; indexes: CollectionIndex[] }>();

  constructor(database: string, name: string, options: Document = {}) {
    this.database = database;
    this.name = name;
    this.options = options;
  }

  get namespace(): string {
    return `${this.database}.${this.name}`;
  }

  indexSpecs(): IndexSpec[] {
    return [{ v: 2, key: { _id: 1 }, name: ID_INDEX_NAME }, ...[...this.indexes.values()].map((index) => index.spec)];
  }

  /** Adds `_id` when missing (as the first field, like mongod). */
  static withId(document: Document): Document {
    if (document._id !== undefined) return document;
    return { _id: new ObjectId(), ...document };
  }

  static decode(raw: Uint8Array): Document {
    return deserialize(raw, DESERIALIZE_OPTIONS);
  }

  /** A fresh decoded copy of a stored document (callers may modify it). */
  document(key: string): Document | undefined {
    const raw = this.documents.get(key);
    return raw ? Collection.decode(raw) : undefined;
  }

  allDocuments(): Document[] {
    const all: Document[] = [];
    for (const raw of this.documents.values()) all.push(Collection.decode(raw));
    return all;
  }

  private refreshIndexFields(): void {
    this.indexList = [...this.indexes.values()];
    const fields = new Set<string>();
    for (const index of this.indexList) {
      if (index.spec.partialFilterExpression !== undefined) {
        this.indexFields = undefined;
        return;
      }
      for (const field of index.fields) fields.add(field.split('.')[0]);
    }
    this.indexFields = fields;
  }

  /** The part of a stored document the secondary indexes need. */
  private indexedFields(raw: Uint8Array): Document {
    return this.indexFields ? readTopLevelFields(raw, this.indexFields) : Collection.decode(raw);
  }

  private idOrdering(): SortedValues<IdEntry> {
    if (!this.idOrder) {
      const entries: IdEntry[] = [];
      for (const [key, raw] of this.documents) entries.push({ value: readTopLevelFields(raw, ID_ONLY)._id, key });
      this.idOrder = new SortedValues(entries);
    }
    return this.idOrder;
  }

  private forgetId(key: string, raw: Uint8Array): void {
    this.idOrder?.remove({ value: readTopLevelFields(raw, ID_ONLY)._id, key }, (candidate) => candidate.key === key);
  }

  private duplicateIdError(document: Document): MongoCommandError {
    const keyValue = { _id: document._id };
    return new MongoCommandError(ErrorCodes.DuplicateKey, `E11000 duplicate key error collection: ${this.namespace} index: ${ID_INDEX_NAME} dup key: ${formatFields(keyValue)}`, {
      keyPattern: { _id: 1 },
      keyValue,
    });
  }

  /** Inserts atomically: either every index accepts the document or nothing changes. Returns the stored bytes. */
  insert(document: Document): Uint8Array {
    if (Array.isArray(document._id)) throw new MongoCommandError(ErrorCodes.InvalidIdField, `The '_id' value cannot be of type array`);
    if (isRegex(document._id)) throw new MongoCommandError(ErrorCodes.InvalidIdField, `can't use a regex for _id`);
    const key = canonicalKey(document._id);
    if (this.documents.has(key)) throw this.duplicateIdError(document);
    const indexes = [...this.indexes.values()];
    const keys = indexes.map((index) => index.keysOf(document));
    indexes.forEach((index, position) => index.checkUnique(this.namespace, key, keys[position]));
    const stored = serialize(document, { checkKeys: false });
    if (stored.length > MAX_DOCUMENT_BYTES) throw new MongoCommandError(ErrorCodes.BadValue, `object to insert too large. size in bytes: ${stored.length}, max size: ${MAX_DOCUMENT_BYTES}`);
    indexes.forEach((index, position) => index.add(key, keys[position]));
    this.documents.set(key, stored);
    this.idOrder?.insert({ value: document._id, key });
    return stored;
  }

  /**
   * Inserts a document given as the client's BSON without decoding it: only `_id` and indexed
   * fields are read (an ObjectId `_id` is prepended when missing). `raw` is stored as given, so it
   * must be a view no one modifies (the wire server hands out views into a private copy of each
   * message). Returns the stored bytes.
   */
  insertRaw(raw: Uint8Array): Uint8Array {
    if (raw.length > MAX_DOCUMENT_BYTES) throw new MongoCommandError(ErrorCodes.BadValue, `object to insert too large. size in bytes: ${raw.length}, max size: ${MAX_DOCUMENT_BYTES}`);
    let stored = raw;
    let key = leadingIdKey(stored);
    let id: unknown;
    if (key === undefined) {
      id = readTopLevelFields(stored, ID_ONLY)._id;
      if (id === undefined) {
        id = new ObjectId();
        stored = withLeadingId(stored, id as ObjectId);
      }
      if (Array.isArray(id)) throw new MongoCommandError(ErrorCodes.InvalidIdField, `The '_id' value cannot be of type array`);
      if (isRegex(id)) throw new MongoCommandError(ErrorCodes.InvalidIdField, `can't use a regex for _id`);
      key = canonicalKey(id);
    }
    if (this.documents.has(key)) throw this.duplicateIdError({ _id: id ?? readTopLevelFields(stored, ID_ONLY)._id });
    const indexes = this.indexList;
    if (indexes.length > 0) {
      const fields = this.indexedFields(stored);
      const keys: (IndexKeys | undefined)[] = [];
      for (const index of indexes) {
        const indexKeys = index.keysOf(fields);
        index.checkUnique(this.namespace, key, indexKeys);
        keys.push(indexKeys);
      }
      for (let position = 0; position < indexes.length; position += 1) indexes[position].add(key, keys[position]);
    }
    this.documents.set(key, stored);
    this.idOrder?.insert({ value: id ?? readTopLevelFields(stored, ID_ONLY)._id, key });
    return stored;
  }

  /** Replaces the stored version of a document (same _id) atomically. Returns the stored bytes. */
  replace(key: string, document: Document): Uint8Array {
    const previous = this.documents.get(key);
    if (!previous) throw new Error(`replace of a missing document ${key}`);
    const indexes = [...this.indexes.values()];
    const keys = indexes.map((index) => index.keysOf(document));
    indexes.forEach((index, position) => index.checkUnique(this.namespace, key, keys[position]));
    const stored = serialize(document, { checkKeys: false });
    if (stored.length > MAX_DOCUMENT_BYTES) throw new MongoCommandError(17419, `Resulting document after update is larger than ${MAX_DOCUMENT_BYTES}`);
    if (indexes.length > 0) {
      const previousKeys = this.indexedFields(previous);
      indexes.forEach((index, position) => {
        index.remove(key, index.keysOf(previousKeys));
        index.add(key, keys[position]);
      });
    }
    this.documents.set(key, stored);
    return stored;
  }

  /**
   * The top-level fields to decode for an update of the `touched` fields: those, `_id` and what
   * the indexes they affect read; undefined when whole documents are needed.
   */
  fieldsForUpdate(touched: ReadonlySet<string>): Set<string> | undefined {
    const fields = new Set(touched).add('_id');
    for (const index of this.indexes.values()) {
      if (!index.dependsOn(touched)) continue;
      if (!index.readFields) return undefined;
      for (const field of index.readFields) fields.add(field);
    }
    return fields;
  }

  /** True when an index reads one of the `touched` top-level fields (or whole documents). */
  indexesDependOn(touched: ReadonlySet<string>): boolean {
    for (const index of this.indexList) if (index.dependsOn(touched)) return true;
    return false;
  }

  /** The secondary indexes whose keys may change with the `touched` fields (kept per set: an update statement passes the same set for every document). */
  private indexesDependingOn(touched: ReadonlySet<string>): CollectionIndex[] {
    if (touched.size === 0) return [];
    const cached = this.dependentIndexes.get(touched);
    if (cached && cached.list === this.indexList) return cached.indexes;
    const indexes = this.indexList.filter((index) => index.dependsOn(touched));
    this.dependentIndexes.set(touched, { list: this.indexList, indexes });
    return indexes;
  }

  /**
   * Stores new bytes for a document (same _id) after an update of the `touched` top-level fields;
   * the keys of indexes those affect are read from `next` and `previous`, decodings holding at
   * least the fields `fieldsForUpdate` named. Returns the stored bytes.
   */
  replaceStored(key: string, stored: Uint8Array, next: Document, previous: Document, touched: ReadonlySet<string>): Uint8Array {
    if (!this.documents.has(key)) throw new Error(`replace of a missing document ${key}`);
    const indexes = this.indexesDependingOn(touched);
    // A scalar → scalar change of a plain single-field index moves one holder without key lists.
    const moves = indexes.map((index) => index.scalarMove(previous, next));
    const keys = indexes.map((index, position) => (moves[position] ? undefined : index.keysOf(next)));
    indexes.forEach((index, position) => index.checkUnique(this.namespace, key, keys[position]));
    if (stored.length > MAX_DOCUMENT_BYTES) throw new MongoCommandError(17419, `Resulting document after update is larger than ${MAX_DOCUMENT_BYTES}`);
    indexes.forEach((index, position) => {
      const move = moves[position];
      if (move) {
        index.applyMove(key, move);
      } else {
        index.remove(key, index.keysOf(previous));
        index.add(key, keys[position]);
      }
    });
    this.documents.set(key, stored);
    return stored;
  }

  remove(key: string): boolean {
    const previous = this.documents.get(key);
    if (!previous) return false;
    if (this.indexes.size > 0) {
      const previousKeys = this.indexedFields(previous);
      for (const index of this.indexList) index.remove(key, index.keysOf(previousKeys));
    }
    this.forgetId(key, previous);
    this.documents.delete(key);
    return true;
  }

  /**
   * Puts a document as recovered from the journal or a snapshot, bypassing checks already made
   * when it was written. `raw` is kept as given (a view into the recovery's read buffer); returns
   * the bytes of the version it replaced, if any.
   */
  restore(raw: Uint8Array, fromSnapshot: boolean): Uint8Array | undefined {
    const key = leadingIdKey(raw) ?? canonicalKey(readTopLevelFields(raw, ID_ONLY)._id);
    // A snapshot holds only live documents, each once, so no earlier version can exist.
    const previous = fromSnapshot ? undefined : this.documents.get(key);
    if (this.indexList.length > 0) {
      const fields = this.indexedFields(raw);
      const previousFields = previous ? this.indexedFields(previous) : undefined;
      for (const index of this.indexList) {
        if (previousFields) index.remove(key, index.keysOf(previousFields));
        index.addDocument(key, fields);
      }
    }
    // An existing key keeps its position in the Map, so natural order survives a restart.
    this.documents.set(key, raw);
    if (this.idOrder && !previous) this.idOrder.insert({ value: readTopLevelFields(raw, ID_ONLY)._id, key });
    return previous;
  }

  /** Removes a document by _id value, as recovered from the journal; returns its bytes, if it existed. */
  restoreDeletion(id: unknown): Uint8Array | undefined {
    const key = canonicalKey(id);
    const previous = this.documents.get(key);
    this.remove(key);
    return previous;
  }

  /** Every held document with the fields the index reads decoded (whole for a partial index, whose filter may read any). */
  private *indexedDocuments(index: CollectionIndex): Iterable<[string, Document]> {
    const fields = new Set(['_id', ...index.fields.map((field) => field.split('.')[0])]);
    const whole = index.spec.partialFilterExpression !== undefined;
    for (const [key, raw] of this.documents) yield [key, whole ? Collection.decode(raw) : readTopLevelFields(raw, fields)];
  }

  createIndex(spec: IndexSpec): void {
    const index = new CollectionIndex(spec);
    for (const [key, document] of this.indexedDocuments(index)) {
      const keys = index.keysOf(document);
      index.checkUnique(this.namespace, key, keys);
      index.add(key, keys);
    }
    this.indexes.set(spec.name, index);
    this.refreshIndexFields();
  }

  dropIndex(name: string): void {
    this.indexes.delete(name);
    this.refreshIndexFields();
  }

  /**
   * Candidate documents for a filter, in natural order for scans; each candidate still has to be
   * tested against the filter, except for the `implied` field. Uses the `_id` map or a complete
   * secondary index on an equality, `$in` or range condition of a field.
   */
  candidates(filter: Document | undefined): Candidates {
    const plan = filter ? this.plan(filter) : undefined;
    if (!plan) {
      this.statistics.lastPlan = 'COLLSCAN';
      return { entries: this.examineAll() };
    }
    this.statistics.lastPlan = plan.name;
    return { entries: this.examine(plan.keys, plan.distinct), implied: plan.implied };
  }

  /** How many candidates an `_id` or index equality lookup would give for the filter; undefined without one. */
  equalityCandidateCount(filter: Document | undefined): number | undefined {
    return filter ? this.plan(filter)?.size : undefined;
  }

  /**
   * The number of matching documents when index equalities answer the whole filter, as mongod's
   * COUNT_SCAN counts index keys without fetching; undefined when documents have to be examined.
   */
  indexedCount(filter: Document): number | undefined {
    const plan = this.plan(filter);
    if (!plan?.exact) return undefined;
    this.statistics.lastPlan = `COUNT_SCAN ${plan.name.replace(/^IXSCAN /, '')}`;
    return plan.size;
  }

  /**
   * Documents in the order of a single-field sort, read from a complete index on that field that
   * never held an array (so index order is MongoDB's sort order); undefined without such an index.
   */
  sortedCandidates(field: string, direction: 1 | -1, filter?: Document): Candidates | undefined {
    // A range condition on the sort field narrows the walk to its bounds.
    const condition = filter?.[field];
    const ranged = isOperatorObject(condition) && isRangeOnly(condition);
    const [lower, upper] = ranged ? rangeBounds(condition, false) : [undefined, undefined];
    const implied = ranged && walksExactly(condition) ? field : undefined;
    if (field === '_id') {
      this.statistics.lastPlan = `IXSCAN ${ID_INDEX_NAME}`;
      const order = this.idOrdering();
      const entries = lower || upper ? order.range(lower, upper) : order.ordered(direction);
      const inOrder = (lower || upper) && direction === -1 ? [...entries].reverse() : entries;
      return { entries: this.examine(mapKeys(inOrder), true), implied };
    }
    for (const index of this.indexes.values()) {
      if (index.fields.length === 1 && index.fields[0] === field && servesRange(index, lower, upper) && !index.multikey) {
        this.statistics.lastPlan = `IXSCAN ${index.spec.name}`;
        return { entries: this.examine(index.ordered(direction, lower, upper), true), implied };
      }
    }
    return undefined;
  }

  private *examineAll(): Iterable<[string, Uint8Array]> {
    for (const entry of this.documents) {
      this.statistics.documentsExamined += 1;
      yield entry;
    }
  }

  /** Yields stored documents lazily (a query with a limit stops early) and counts them as examined. */
  private *examine(keys: Iterable<string>, distinct: boolean): Iterable<[string, Uint8Array]> {
    const seen = distinct ? undefined : new Set<string>();
    for (const key of keys) {
      if (seen) {
        if (seen.has(key)) continue;
        seen.add(key);
      }
      const raw = this.documents.get(key);
      if (!raw) continue;
      this.statistics.documentsExamined += 1;
      yield [key, raw];
    }
  }

  private plan(filter: Document): Plan | undefined {
    const equalities = new Map<string, { values: unknown[]; topLevel: boolean }>();
    const ranges = new Map<string, Document>();
    const addClause = (clause: Document, topLevel: boolean): void => {
      for (const [field, condition] of Object.entries(clause)) {
        if (field === '$and' && Array.isArray(condition)) {
          condition.forEach((entry) => isPlainObject(entry) && addClause(entry, false));
          continue;
        }
        if (field.startsWith('$')) continue;
        const values = indexableValues(condition);
        if (values) equalities.set(field, { values, topLevel });
        else if (isOperatorObject(condition) && isRangeOnly(condition)) ranges.set(field, condition);
      }
    };
    addClause(filter, true);
    const ids = equalities.get('_id');
    if (ids) {
      const keys = ids.values.map((value) => canonicalKey(value));
      return { name: 'IDHACK', keys, distinct: keys.length === 1, implied: ids.topLevel ? '_id' : undefined, size: keys.length };
    }
    // Conditions of other fields, or of the same ones nested in `$and`, still have to be checked.
    const onlyEqualitiesOn = (fields: readonly string[]) =>
      Object.keys(filter).length === fields.length && fields.every((field) => equalities.get(field)?.topLevel === true);
    // An equality on a plain non-null value never matches a document without the field, so a
    // sparse index serves it as mongod's planner lets it.
    const serves = (index: CollectionIndex) => index.complete || index.sparseOnly;
    for (const index of this.indexes.values()) {
      // A compound index with an equality on every field finds exactly the documents holding one of the combinations.
      if (index.fields.length < 2 || !serves(index) || !index.fields.every((field) => equalities.has(field))) continue;
      const perField = index.fields.map((field) => distinctByKey((equalities.get(field) as { values: unknown[] }).values));
      if (perField.reduce((product, values) => product * values.length, 1) > MAX_WHOLE_KEY_COMBINATIONS) continue;
      const combinations = valueCombinations(perField);
      if (!index.keepsWholeKeys) index.keepWholeKeys(this.indexedDocuments(index));
      const first = equalities.get(index.fields[0]) as { topLevel: boolean };
      const distinct = combinations.length === 1 || !index.multikey;
      return {
        name: `IXSCAN ${index.spec.name}`,
        keys: index.lookupWhole(combinations),
        distinct,
        implied: first.topLevel ? index.fields[0] : undefined,
        size: index.countWhole(combinations),
        exact: distinct && onlyEqualitiesOn(index.fields),
      };
    }
    for (const index of this.indexes.values()) {
      if (!serves(index)) continue;
      const field = index.fields[0];
      const equality = equalities.get(field);
      if (equality) {
        const { topLevel } = equality;
        const values = distinctByKey(equality.values);
        const distinct = values.length === 1;
        return {
          name: `IXSCAN ${index.spec.name}`,
          keys: concat(values.map((value) => index.lookup(value))),
          distinct,
          implied: topLevel ? field : undefined,
          size: values.reduce((total: number, value) => total + index.count(value), 0),
          exact: (distinct || !index.multikey) && onlyEqualitiesOn([field]),
        };
      }
    }
    const idRange = ranges.get('_id');
    if (idRange) {
      const [lower, upper] = rangeBounds(idRange, false);
      if (lower || upper) return { name: `IXSCAN ${ID_INDEX_NAME}`, keys: mapKeys(this.idOrdering().range(lower, upper)), distinct: true };
    }
    for (const index of this.indexes.values()) {
      const range = ranges.get(index.fields[0]);
      if (!range) continue;
      const [lower, upper] = rangeBounds(range, index.multikey);
      if ((!lower && !upper) || !servesRange(index, lower, upper)) continue;
      return { name: `IXSCAN ${index.spec.name}`, keys: index.range(lower, upper), distinct: !index.multikey };
    }
    return undefined;
  }
}

/** The document with an `_id` ObjectId element inserted first. */
function withLeadingId(raw: Uint8Array, id: ObjectId): Uint8Array {
  const element = Buffer.concat([Buffer.from([0x07]), Buffer.from('_id\0', 'latin1'), id.id]);
  const result = Buffer.allocUnsafe(raw.length + element.length);
  result.writeInt32LE(result.length, 0);
  result.set(element, 4);
  result.set(raw.subarray(4), 4 + element.length);
  return result;
}

function* mapKeys(entries: Iterable<IdEntry>): Iterable<string> {
  for (const entry of entries) yield entry.key;
}

/** Index bounds of a range condition; with arrays (multikey) each bound may be met by a different element, so only one bound narrows the scan. */
function rangeBounds(range: Document, multikey: boolean): [Bound | undefined, Bound | undefined] {
  const lowerOperator = '$gt' in range ? '$gt' : '$gte' in range ? '$gte' : undefined;
  const upperOperator = '$lt' in range ? '$lt' : '$lte' in range ? '$lte' : undefined;
  let lower = lowerOperator ? { value: range[lowerOperator], inclusive: lowerOperator === '$gte' } : undefined;
  let upper = upperOperator ? { value: range[upperOperator], inclusive: upperOperator === '$lte' } : undefined;
  if (multikey && lower && upper) upper = undefined;
  if (lower && (lower.value === null || lower.value === undefined)) lower = undefined;
  if (upper && (upper.value === null || upper.value === undefined)) upper = undefined;
  return [lower, upper];
}

/**
 * True when a walk between these bounds finds every match in the index: always for a complete one;
 * for a sparse one when a bound is a real value (not null, MinKey or MaxKey), which matches only
 * values of its own type, never a missing field.
 */
function servesRange(index: CollectionIndex, lower: Bound | undefined, upper: Bound | undefined): boolean {
  if (index.complete) return true;
  if (!index.sparseOnly) return false;
  const real = (bound: Bound | undefined) => bound !== undefined && ![TypeBracket.Null, TypeBracket.MinKey, TypeBracket.MaxKey].includes(typeBracket(bound.value));
  return real(lower) || real(upper);
}

/** Whole-key lookups a compound index equality may expand to before a first-field lookup is preferred. */
const MAX_WHOLE_KEY_COMBINATIONS = 256;

/** The values without repeats (by canonical key), so no lookup yields a document twice for one value. */
function distinctByKey(values: unknown[]): unknown[] {
  if (values.length < 2) return values;
  return [...new Map(values.map((value) => [canonicalKey(value), value])).values()];
}

/** One value per field, in every combination. */
function valueCombinations(perField: unknown[][]): unknown[][] {
  let combinations: unknown[][] = [[]];
  for (const values of perField) combinations = combinations.flatMap((combination) => values.map((value) => [...combination, value]));
  return combinations;
}

function* concat(sources: Iterable<string>[]): Iterable<string> {
  for (const source of sources) yield* source;
}

function isPlainScalar(value: unknown): boolean {
  return value !== null && value !== undefined && !Array.isArray(value) && !isRegex(value) && !isOperatorObject(value);
}

/** The values an index lookup may use for a condition, or undefined when it cannot. */
function indexableValues(condition: unknown): unknown[] | undefined {
  if (isOperatorObject(condition)) {
    const keys = Object.keys(condition);
    if (keys.length === 1 && keys[0] === '$eq' && isPlainScalar(condition.$eq)) return [condition.$eq];
    if (keys.length === 1 && keys[0] === '$in' && Array.isArray(condition.$in) && condition.$in.every(isPlainScalar)) return condition.$in;
    return undefined;
  }
  return isPlainScalar(condition) ? [condition] : undefined;
}

/**
 * True when a range-only condition's bounds are all strings, at most one per side: the walk
 * between them (over an index holding one scalar key per document) is then exactly the documents
 * the condition matches, so they need no check.
 */
function walksExactly(condition: Document): boolean {
  if (('$gt' in condition && '$gte' in condition) || ('$lt' in condition && '$lte' in condition)) return false;
  return Object.values(condition).every((bound) => typeof bound === 'string');
}

function isRangeOnly(condition: Document): boolean {
  return Object.keys(condition).every((key) => ['$gt', '$gte', '$lt', '$lte'].includes(key)) && Object.values(condition).every((value) => !isRegex(value) && !Array.isArray(value) && !isPlainObject(value));
}
