// A secondary index: canonical key → document keys, with unique/sparse/partial semantics and
// lazily sorted first-field values for range scans.
import { canonicalKey, compareValues, typeBracket, type Document } from './bson-value.order';
import { keyValues, pathValues } from './document.path';
import { ErrorCodes, MongoCommandError } from './mongo-command.error';
import { compileFilter, type Predicate } from './query.matcher';
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

interface FirstFieldEntry {
  value: unknown;
  documents: Set<string>;
}

interface DocumentKeys {
  /** Canonical keys of the whole (possibly compound) key. */
  full: string[];
  /** Values of the first field, one per distinct entry. */
  first: unknown[];
  /** For the duplicate-key error: the key value of the first full key. */
  keyValues: Document[];
  multikey: boolean;
}

export class CollectionIndex {
  readonly spec: IndexSpec;
  readonly fields: string[];
  readonly unique: boolean;
  multikey = false;
  private readonly partial?: Predicate;
  private readonly byFull = new Map<string, Set<string>>();
  private readonly byFirst = new Map<string, FirstFieldEntry>();
  private readonly keysByDocument = new Map<string, DocumentKeys>();
  private sorted: FirstFieldEntry[] | null = null;

  constructor(spec: IndexSpec) {
    this.spec = spec;
    this.fields = Object.keys(spec.key);
    this.unique = spec.unique === true;
    if (spec.partialFilterExpression !== undefined) this.partial = compileFilter(spec.partialFilterExpression);
  }

  /** Partial and sparse indexes do not hold every document, so queries cannot rely on them. */
  get complete(): boolean {
    return !this.partial && this.spec.sparse !== true;
  }

  private keysOf(document: Document): DocumentKeys | undefined {
    if (this.partial && !this.partial(document)) return undefined;
    const perField = this.fields.map((field) => {
      const values = keyValues(document, field);
      const unique = new Map<string, unknown>();
      for (const value of values) unique.set(canonicalKey(value === undefined ? null : value), value === undefined ? null : value);
      return [...unique.values()];
    });
    if (this.spec.sparse === true && this.fields.every((field) => pathValues(document, field).every((value) => value === undefined))) return undefined;
    const arrayFields = this.fields.filter((_field, index) => perField[index].length > 1 || pathValues(document, this.fields[index]).some(Array.isArray));
    if (arrayFields.length > 1) {
      throw new MongoCommandError(171, `cannot index parallel arrays [${arrayFields[1]}] [${arrayFields[0]}]`);
    }
    let combinations: unknown[][] = [[]];
    for (const values of perField) {
      const next: unknown[][] = [];
      for (const combination of combinations) for (const value of values) next.push([...combination, value]);
      combinations = next;
    }
    const full = combinations.map((combination) => (combination.length === 1 ? canonicalKey(combination[0]) : JSON.stringify(combination.map(canonicalKey))));
    const keyValueDocuments = combinations.map((combination) => Object.fromEntries(this.fields.map((field, index) => [field, combination[index]])));
    return { full, first: perField[0], keyValues: keyValueDocuments, multikey: arrayFields.length > 0 };
  }

  /** Throws the E11000 error if adding `document` (replacing `documentKey`'s old version) breaks uniqueness. */
  checkUnique(namespace: string, documentKey: string, document: Document): void {
    if (!this.unique) return;
    const keys = this.keysOf(document);
    if (!keys) return;
    keys.full.forEach((key, index) => {
      const holders = this.byFull.get(key);
      if (holders && (holders.size > 1 || !holders.has(documentKey))) {
        const keyValue = keys.keyValues[index];
        throw new MongoCommandError(
          ErrorCodes.DuplicateKey,
          `E11000 duplicate key error collection: ${namespace} index: ${this.spec.name} dup key: ${formatFields(keyValue)}`,
          { keyPattern: this.spec.key, keyValue },
        );
      }
    });
  }

  add(documentKey: string, document: Document): void {
    const keys = this.keysOf(document);
    if (!keys) return;
    this.keysByDocument.set(documentKey, keys);
    if (keys.multikey) this.multikey = true;
    for (const key of keys.full) {
      let holders = this.byFull.get(key);
      if (!holders) this.byFull.set(key, (holders = new Set()));
      holders.add(documentKey);
    }
    for (const value of keys.first) {
      const key = canonicalKey(value);
      let entry = this.byFirst.get(key);
      if (!entry) {
        this.byFirst.set(key, (entry = { value, documents: new Set() }));
        this.sorted = null;
      }
      entry.documents.add(documentKey);
    }
  }

  remove(documentKey: string): void {
    const keys = this.keysByDocument.get(documentKey);
    if (!keys) return;
    this.keysByDocument.delete(documentKey);
    for (const key of keys.full) {
      const holders = this.byFull.get(key);
      holders?.delete(documentKey);
      if (holders && holders.size === 0) this.byFull.delete(key);
    }
    for (const value of keys.first) {
      const key = canonicalKey(value);
      const entry = this.byFirst.get(key);
      entry?.documents.delete(documentKey);
      if (entry && entry.documents.size === 0) {
        this.byFirst.delete(key);
        this.sorted = null;
      }
    }
  }

  /** Documents whose first indexed field equals `value` (or holds it in an array). */
  lookup(value: unknown): Iterable<string> {
    return this.byFirst.get(canonicalKey(value))?.documents ?? [];
  }

  /** Documents whose first indexed field has a value of `bound`'s type within the bounds. */
  range(lower: { value: unknown; inclusive: boolean } | undefined, upper: { value: unknown; inclusive: boolean } | undefined): string[] {
    if (!this.sorted) this.sorted = [...this.byFirst.values()].sort((a, b) => compareValues(a.value, b.value));
    const sorted = this.sorted;
    const bracket = typeBracket((lower ?? upper)?.value);
    let start: number;
    if (lower) {
      let low = 0;
      let high = sorted.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        const order = compareValues(sorted[middle].value, lower.value);
        if (order < 0 || (order === 0 && !lower.inclusive)) low = middle + 1;
        else high = middle;
      }
      start = low;
    } else {
      let low = 0;
      let high = sorted.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (typeBracket(sorted[middle].value) < bracket) low = middle + 1;
        else high = middle;
      }
      start = low;
    }
    const result: string[] = [];
    for (let index = start; index < sorted.length; index += 1) {
      const entry = sorted[index];
      if (typeBracket(entry.value) !== bracket) break;
      if (upper) {
        const order = compareValues(entry.value, upper.value);
        if (order > 0 || (order === 0 && !upper.inclusive)) break;
      }
      for (const documentKey of entry.documents) result.push(documentKey);
    }
    return result;
  }

  clear(): void {
    this.byFull.clear();
    this.byFirst.clear();
    this.keysByDocument.clear();
    this.sorted = null;
    this.multikey = false;
  }
}
