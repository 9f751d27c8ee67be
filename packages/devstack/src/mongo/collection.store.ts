// One collection in memory: documents by canonical _id, its indexes, and the choice of index
// (or full scan) that produces candidate documents for a filter.
import { ObjectId } from 'bson';
import { canonicalKey, isPlainObject, type Document } from './bson-value.order';
import { CollectionIndex, type IndexSpec } from './collection.index';
import { ErrorCodes, MongoCommandError } from './mongo-command.error';
import { isOperatorObject, isRegex } from './query.matcher';
import { formatFields } from './value.formatter';

export const ID_INDEX_NAME = '_id_';

/** Counters exposed for tests: how much work queries did. */
export interface ScanStatistics {
  documentsExamined: number;
  lastPlan: string;
}

export class Collection {
  readonly database: string;
  readonly name: string;
  readonly options: Document;
  readonly documents = new Map<string, Document>();
  readonly indexes = new Map<string, CollectionIndex>();
  readonly statistics: ScanStatistics = { documentsExamined: 0, lastPlan: 'COLLSCAN' };

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

  private duplicateIdError(document: Document): MongoCommandError {
    const keyValue = { _id: document._id };
    return new MongoCommandError(ErrorCodes.DuplicateKey, `E11000 duplicate key error collection: ${this.namespace} index: ${ID_INDEX_NAME} dup key: ${formatFields(keyValue)}`, {
      keyPattern: { _id: 1 },
      keyValue,
    });
  }

  /** Inserts atomically: either every index accepts the document or nothing changes. */
  insert(document: Document): string {
    if (Array.isArray(document._id)) throw new MongoCommandError(ErrorCodes.InvalidIdField, `The '_id' value cannot be of type array`);
    if (isRegex(document._id)) throw new MongoCommandError(ErrorCodes.InvalidIdField, `can't use a regex for _id`);
    const key = canonicalKey(document._id);
    if (this.documents.has(key)) throw this.duplicateIdError(document);
    for (const index of this.indexes.values()) index.checkUnique(this.namespace, key, document);
    for (const index of this.indexes.values()) index.add(key, document);
    this.documents.set(key, document);
    return key;
  }

  /** Replaces the stored version of a document (same _id) atomically. */
  replace(key: string, document: Document): void {
    const previous = this.documents.get(key);
    if (!previous) throw new Error(`replace of a missing document ${key}`);
    for (const index of this.indexes.values()) index.checkUnique(this.namespace, key, document);
    for (const index of this.indexes.values()) {
      index.remove(key);
      index.add(key, document);
    }
    this.documents.set(key, document);
  }

  remove(key: string): Document | undefined {
    const previous = this.documents.get(key);
    if (!previous) return undefined;
    for (const index of this.indexes.values()) index.remove(key);
    this.documents.delete(key);
    return previous;
  }

  /** Puts a document as recovered from the journal, bypassing checks already made when it was written. */
  restore(document: Document): void {
    const key = canonicalKey(document._id);
    // An existing key keeps its position in the Map, so natural order survives a restart.
    for (const index of this.indexes.values()) {
      index.remove(key);
      index.add(key, document);
    }
    this.documents.set(key, document);
  }

  createIndex(spec: IndexSpec): void {
    const index = new CollectionIndex(spec);
    for (const [key, document] of this.documents) {
      index.checkUnique(this.namespace, key, document);
      index.add(key, document);
    }
    this.indexes.set(spec.name, index);
  }

  clear(): void {
    this.documents.clear();
    for (const index of this.indexes.values()) index.clear();
  }

  /**
   * Candidate documents for a filter, in natural order for scans; each candidate still has to be
   * tested against the filter. Uses the `_id` map or a complete secondary index on an equality,
   * `$in` or range condition of a top-level field.
   */
  candidates(filter: Document | undefined): Iterable<[string, Document]> {
    const keys = filter ? this.plan(filter) : undefined;
    if (!keys) {
      this.statistics.lastPlan = 'COLLSCAN';
      return this.countingScan(this.documents.entries());
    }
    const seen = new Set<string>();
    const pairs: [string, Document][] = [];
    for (const key of keys) {
      if (seen.has(key)) continue;
      seen.add(key);
      const document = this.documents.get(key);
      if (document) pairs.push([key, document]);
    }
    this.statistics.documentsExamined += pairs.length;
    return pairs;
  }

  private *countingScan(entries: Iterable<[string, Document]>): Iterable<[string, Document]> {
    for (const entry of entries) {
      this.statistics.documentsExamined += 1;
      yield entry;
    }
  }

  private plan(filter: Document): Iterable<string> | undefined {
    const equalities = new Map<string, unknown[]>();
    const ranges = new Map<string, Document>();
    const addClause = (clause: Document): void => {
      for (const [field, condition] of Object.entries(clause)) {
        if (field === '$and' && Array.isArray(condition)) {
          condition.forEach((entry) => isPlainObject(entry) && addClause(entry));
          continue;
        }
        if (field.startsWith('$')) continue;
        const values = indexableValues(condition);
        if (values) equalities.set(field, values);
        else if (isOperatorObject(condition) && isRangeOnly(condition)) ranges.set(field, condition);
      }
    };
    addClause(filter);
    const ids = equalities.get('_id');
    if (ids) {
      this.statistics.lastPlan = 'IDHACK';
      return ids.map((value) => canonicalKey(value));
    }
    for (const index of this.indexes.values()) {
      if (!index.complete) continue;
      const values = equalities.get(index.fields[0]);
      if (values) {
        this.statistics.lastPlan = `IXSCAN ${index.spec.name}`;
        return values.flatMap((value) => [...index.lookup(value)]);
      }
    }
    for (const index of this.indexes.values()) {
      if (!index.complete) continue;
      const range = ranges.get(index.fields[0]);
      if (!range) continue;
      const lowerOperator = '$gt' in range ? '$gt' : '$gte' in range ? '$gte' : undefined;
      const upperOperator = '$lt' in range ? '$lt' : '$lte' in range ? '$lte' : undefined;
      let lower = lowerOperator ? { value: range[lowerOperator], inclusive: lowerOperator === '$gte' } : undefined;
      let upper = upperOperator ? { value: range[upperOperator], inclusive: upperOperator === '$lte' } : undefined;
      // With arrays each bound may be met by a different element, so only one bound narrows the scan.
      if (index.multikey && lower && upper) upper = undefined;
      if (lower && (lower.value === null || lower.value === undefined)) lower = undefined;
      if (upper && (upper.value === null || upper.value === undefined)) upper = undefined;
      if (!lower && !upper) continue;
      this.statistics.lastPlan = `IXSCAN ${index.spec.name}`;
      return index.range(lower, upper);
    }
    return undefined;
  }
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

function isRangeOnly(condition: Document): boolean {
  return Object.keys(condition).every((key) => ['$gt', '$gte', '$lt', '$lte'].includes(key)) && Object.values(condition).every((value) => !isRegex(value) && !Array.isArray(value) && !isPlainObject(value));
}
