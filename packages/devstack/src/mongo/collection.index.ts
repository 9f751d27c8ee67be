// A secondary index: canonical key → document keys, with unique/sparse/partial semantics and
// lazily sorted first-field values for range scans. Keys are recomputed from the old document on
// removal instead of being stored per document, which keeps memory close to one entry per key.
import { canonicalKey, type Document } from './bson-value.order';
import { SortedValues, type Bound } from './sorted-values.list';
import { keyValues, pathValues } from './document.path';
import { ErrorCodes, MongoCommandError } from './mongo-command.error';
import { compileFilter, filterFields, type Predicate } from './query.matcher';
import { formatFields } from './value.formatter';

export interface IndexSpec {
  v?: number;
  key: Document;
  name: string;
  unique?: boolean;
  sparse?: boolean;
  partialFilterExpression?: Document;
  [option: string]: unknown;
}

/** A document's move between the keys of two scalar values in a single-field index. */
export interface ScalarMove {
  from: string;
  to: string;
  value: unknown;
}

/** `canonicalKey(null)`, the key of every document missing an indexed field. */
const NULL_KEY = canonicalKey(null);

/** Document keys holding one index key: a single key is kept as a string, several as a Set. */
type Holders = string | Set<string>;

interface FirstFieldEntry {
  value: unknown;
  holders: Holders;
}

/** The keys of one document in an index. */
export interface IndexKeys {
  /** Canonical keys of the whole (possibly compound) key; for one field, the first-field keys. */
  full: string[];
  /** Distinct values of the first field. */
  first: unknown[];
  /** Value combinations behind `full` of a compound index, for the duplicate-key error. */
  combinations?: unknown[][];
  multikey: boolean;
}

/** The key of a compound index entry: its fields' canonical keys, in index order. */
function wholeKey(combination: readonly unknown[]): string {
  return JSON.stringify(combination.map(canonicalKey));
}

function addHolder(holders: Holders | undefined, documentKey: string): Holders {
  if (holders === undefined) return documentKey;
  if (typeof holders === 'string') return holders === documentKey ? holders : new Set([holders, documentKey]);
  holders.add(documentKey);
  return holders;
}

/** Returns the remaining holders, or undefined when none is left. */
function removeHolder(holders: Holders, documentKey: string): Holders | undefined {
  if (typeof holders === 'string') return holders === documentKey ? undefined : holders;
  holders.delete(documentKey);
  if (holders.size === 0) return undefined;
  return holders;
}

function* eachHolder(holders: Holders | undefined, direction: 1 | -1 = 1): Iterable<string> {
  if (holders === undefined) return;
  if (typeof holders === 'string') yield holders;
  else if (direction === 1) yield* holders;
  // A backward index scan meets equal keys in reverse insertion order, as in MongoDB.
  else yield* [...holders].reverse();
}

function distinctValues(values: unknown[]): { keys: string[]; values: unknown[] } {
  if (values.length === 1) {
    const value = values[0] === undefined ? null : values[0];
    return { keys: [canonicalKey(value)], values: [value] };
  }
  const unique = new Map<string, unknown>();
  for (const raw of values) {
    const value = raw === undefined ? null : raw;
    unique.set(canonicalKey(value), value);
  }
  return { keys: [...unique.keys()], values: [...unique.values()] };
}

export class CollectionIndex {
  readonly spec: IndexSpec;
  readonly fields: string[];
  readonly unique: boolean;
  multikey = false;
  /** Top-level fields a document's keys depend on (indexed fields and a partial filter's fields); undefined: any field. */
  readonly readFields: ReadonlySet<string> | undefined;
  private readonly partial?: Predicate;
  /** The field of a single-field index on a top-level field (no dots), for the fast path. */
  private readonly topLevelField?: string;
  /** Whole compound keys: kept where uniqueness has to be checked, and built on a non-unique one's first whole-key lookup. */
  private readonly byFull = new Map<string, Holders>();
  private fullBuilt = false;
  private readonly byFirst = new Map<string, FirstFieldEntry>();
  /** Built on the first range or ordered scan, then maintained with every change. */
  private sorted: SortedValues<FirstFieldEntry> | undefined;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    this.unique = spec.unique === true;
    this.topLevelField = this.fields.length === 1 && !this.fields[0].includes('.') ? this.fields[0] : undefined;
    if (spec.partialFilterExpression !== undefined) this.partial = compileFilter(spec.partialFilterExpression);
    const fields = new Set(this.fields.map((field) => field.split('.')[0]));
    this.readFields = spec.partialFilterExpression === undefined ? fields : filterFields(spec.partialFilterExpression, fields);
  }

  /** True when changing the `touched` top-level fields may change a document's keys. */
  dependsOn(touched: ReadonlySet<string>): boolean {
    if (!this.readFields) return true;
    for (const field of touched) if (this.readFields.has(field)) return true;
    return false;
  }

  /** Partial and sparse indexes do not hold every document, so queries cannot rely on them. */
  get complete(): boolean {
    return !this.partial && this.spec.sparse !== true;
  }

  /** Sparse and not partial: it holds every document that has one of its fields (nulls included). */
  get sparseOnly(): boolean {
    return !this.partial && this.spec.sparse === true;
  }

  /** The document's keys, or undefined when the index does not hold it (sparse/partial). */
  keysOf(document: Document): IndexKeys | undefined {
    if (this.partial && !this.partial(document)) return undefined;
    if (this.topLevelField !== undefined) {
      // Fast path for the common single top-level field holding a scalar.
      const raw = document[this.topLevelField];
      if (!Array.isArray(raw) && (raw !== undefined || this.spec.sparse !== true)) {
        const value = raw === undefined ? null : raw;
        return { full: [canonicalKey(value)], first: [value], multikey: false };
      }
    }
    if (this.spec.sparse === true && this.fields.every((field) => pathValues(document, field).every((value) => value === undefined))) return undefined;
    if (this.fields.length === 1) {
      const values = keyValues(document, this.fields[0]);
      const multikey = values.length !== 1 || pathValues(document, this.fields[0]).some(Array.isArray);
      const { keys, values: distinct } = distinctValues(values);
      return { full: keys, first: distinct, multikey };
    }
    const perField = this.fields.map((field) => distinctValues(keyValues(document, field)).values);
    const arrayFields = this.fields.filter((field, index) => perField[index].length > 1 || pathValues(document, field).some(Array.isArray));
    if (arrayFields.length > 1) {
      throw new MongoCommandError(171, `cannot index parallel arrays [${arrayFields[1]}] [${arrayFields[0]}]`);
    }
    let combinations: unknown[][] = [[]];
    for (const values of perField) {
      const next: unknown[][] = [];
      for (const combination of combinations) for (const value of values) next.push([...combination, value]);
      combinations = next;
    }
    const full = combinations.map(wholeKey);
    return { full, first: perField[0], combinations, multikey: arrayFields.length > 0 };
  }

  private fullMap(): Map<string, Holders> | undefined {
    return this.fields.length > 1 && (this.unique || this.fullBuilt) ? this.byFull : undefined;
  }

  /** True when `lookupWhole` can answer: a compound index whose whole keys are kept. */
  get keepsWholeKeys(): boolean {
    return this.fullMap() !== undefined;
  }

  /**
   * Starts keeping whole compound keys, from the documents held now (their indexed fields
   * decoded); from then on every change maintains them. A non-unique compound index builds them
   * only once a query names all its fields, so indexes queried by their first field alone (such as
   * a multikey one holding many keys per document) never pay the memory.
   */
  keepWholeKeys(documents: Iterable<[string, Document]>): void {
    if (this.fields.length < 2 || this.keepsWholeKeys) return;
    for (const [documentKey, document] of documents) {
      const keys = this.keysOf(document);
      if (keys) for (const key of keys.full) this.byFull.set(key, addHolder(this.byFull.get(key), documentKey));
    }
    this.fullBuilt = true;
  }

  /** Documents whose indexed fields equal one of the value combinations (one value per field, in index order). */
  *lookupWhole(combinations: readonly unknown[][]): Iterable<string> {
    for (const combination of combinations) yield* eachHolder(this.byFull.get(wholeKey(combination)));
  }

  /** How many documents `lookupWhole(combinations)` yields. */
  countWhole(combinations: readonly unknown[][]): number {
    let total = 0;
    for (const combination of combinations) {
      const holders = this.byFull.get(wholeKey(combination));
      if (holders !== undefined) total += typeof holders === 'string' ? 1 : holders.size;
    }
    return total;
  }

  /** Throws the E11000 error if storing `keys` for `documentKey` breaks uniqueness. */
  checkUnique(namespace: string, documentKey: string, keys: IndexKeys | undefined): void {
    if (!this.unique || !keys) return;
    for (let index = 0; index < keys.full.length; index += 1) {
      const key = keys.full[index];
      const holders = this.fields.length > 1 ? this.byFull.get(key) : this.byFirst.get(key)?.holders;
      if (holders === undefined || holders === documentKey) continue;
      if (typeof holders !== 'string' && holders.size === 1 && holders.has(documentKey)) continue;
      const combination = keys.combinations ? keys.combinations[index] : [keys.first[index]];
      const keyValue = Object.fromEntries(this.fields.map((field, position) => [field, combination[position]]));
      throw new MongoCommandError(
        ErrorCodes.DuplicateKey,
        `E11000 duplicate key error collection: ${namespace} index: ${this.spec.name} dup key: ${formatFields(keyValue)}`,
        { keyPattern: this.spec.key, keyValue },
      );
    }
  }

  add(documentKey: string, keys: IndexKeys | undefined): void {
    if (!keys) return;
    if (keys.multikey) this.multikey = true;
    const full = this.fullMap();
    if (full) for (const key of keys.full) full.set(key, addHolder(full.get(key), documentKey));
    for (let position = 0; position < keys.first.length; position += 1) {
      const value = keys.first[position];
      this.holdFirstValue(this.fields.length === 1 ? keys.full[position] : canonicalKey(value), value, documentKey);
    }
  }

  /** Records the document under the value of the index's first field. */
  private holdFirstValue(canonical: string, value: unknown, documentKey: string): void {
    const entry = this.byFirst.get(canonical);
    if (entry) {
      entry.holders = addHolder(entry.holders, documentKey);
    } else {
      const created = { value, holders: documentKey };
      this.byFirst.set(canonical, created);
      this.sorted?.insert(created);
    }
  }

  /**
   * The move of a document between two scalar values of a single top-level field index, when
   * `applyMove` can stand in for `remove` + `add` of their key lists; undefined when the general
   * path has to run (compound, dotted, unique, sparse or partial indexes, or an array on either side).
   */
  scalarMove(previous: Document, next: Document): ScalarMove | undefined {
    const field = this.topLevelField;
    if (field === undefined || this.unique || this.partial || this.spec.sparse === true) return undefined;
    const before = previous[field];
    const after = next[field];
    if (Array.isArray(before) || Array.isArray(after)) return undefined;
    const previousValue = before === undefined ? null : before;
    const nextValue = after === undefined ? null : after;
    return { from: previousValue === null ? NULL_KEY : canonicalKey(previousValue), to: nextValue === null ? NULL_KEY : canonicalKey(nextValue), value: nextValue };
  }

  /** Changes the holders exactly as `remove` then `add` of the move's two single keys do. */
  applyMove(documentKey: string, move: ScalarMove): void {
    this.releaseFirstValue(move.from, documentKey);
    this.holdFirstValue(move.to, move.value, documentKey);
  }

  /** Adds a document known to satisfy uniqueness (recovery), skipping the key list for the common single scalar field. */
  addDocument(documentKey: string, document: Document): void {
    if (this.topLevelField !== undefined && !this.partial) {
      const raw = document[this.topLevelField];
      if (!Array.isArray(raw) && (raw !== undefined || this.spec.sparse !== true)) {
        const value = raw === undefined ? null : raw;
        this.holdFirstValue(canonicalKey(value), value, documentKey);
        return;
      }
    }
    this.add(documentKey, this.keysOf(document));
  }

  remove(documentKey: string, keys: IndexKeys | undefined): void {
    if (!keys) return;
    const full = this.fullMap();
    if (full) {
      for (const key of keys.full) {
        const holders = full.get(key);
        if (holders === undefined) continue;
        const remaining = removeHolder(holders, documentKey);
        if (remaining === undefined) full.delete(key);
        else full.set(key, remaining);
      }
    }
    for (let position = 0; position < keys.first.length; position += 1) {
      this.releaseFirstValue(this.fields.length === 1 ? keys.full[position] : canonicalKey(keys.first[position]), documentKey);
    }
  }

  /** Drops the document from the holders of a first-field value (and the value when none is left). */
  private releaseFirstValue(canonical: string, documentKey: string): void {
    const entry = this.byFirst.get(canonical);
    if (!entry) return;
    const remaining = removeHolder(entry.holders, documentKey);
    if (remaining === undefined) {
      this.byFirst.delete(canonical);
      // Every entry of `byFirst` is listed in `sorted` (built from them, then given each new one).
      this.sorted?.removeListed(entry);
    } else {
      entry.holders = remaining;
    }
  }

  /** Documents whose first indexed field equals `value` (or holds it in an array). */
  lookup(value: unknown): Iterable<string> {
    return eachHolder(this.byFirst.get(canonicalKey(value))?.holders);
  }

  /** How many documents `lookup(value)` yields. */
  count(value: unknown): number {
    const holders = this.byFirst.get(canonicalKey(value))?.holders;
    if (holders === undefined) return 0;
    return typeof holders === 'string' ? 1 : holders.size;
  }

  private sortedEntries(): SortedValues<FirstFieldEntry> {
    this.sorted ??= new SortedValues(this.byFirst.values());
    return this.sorted;
  }

  /**
   * Held documents in first-field order, ascending or descending (ties by insertion order,
   * reversed when descending), optionally only within bounds.
   */
  *ordered(direction: 1 | -1, lower?: Bound, upper?: Bound): Iterable<string> {
    const sorted = this.sortedEntries();
    const entries = lower || upper ? sorted.range(lower, upper) : sorted.ordered(direction);
    const inOrder = (lower || upper) && direction === -1 ? [...entries].reverse() : entries;
    // Holders are walked in place rather than through a generator per key: a poll walks a thousand keys.
    for (const entry of inOrder) {
      const holders = entry.holders;
      if (typeof holders === 'string') yield holders;
      else if (direction === 1) for (const documentKey of holders) yield documentKey;
      else yield* [...holders].reverse();
    }
  }

  /** Documents whose first indexed field has a value of the bounds' type within the bounds. */
  *range(lower: Bound | undefined, upper: Bound | undefined): Iterable<string> {
    for (const entry of this.sortedEntries().range(lower, upper)) yield* eachHolder(entry.holders);
  }
}
