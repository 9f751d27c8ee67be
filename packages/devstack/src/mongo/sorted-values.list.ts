// Entries kept in BSON order of their `value`, maintained incrementally (binary search + splice;
// appends in increasing order, the common case for dates and ObjectIds, cost nothing extra).
// Removal leaves a tombstone that reads skip, compacted once tombstones are a quarter of the
// list: a splice per removal moved the whole tail, which made draining a queue-shaped index
// (remove the oldest thousand of 100k entries) quadratic.
import { compareValues, typeBracket } from './bson-value.order';

export interface Bound {
  value: unknown;
  inclusive: boolean;
}

export class SortedValues<T extends { value: unknown }> {
  private entries: T[];
  private readonly removed = new Set<T>();

  constructor(entries: Iterable<T>) {
    this.entries = [...entries].sort((a, b) => compareValues(a.value, b.value));
  }

  /** First position whose value is not below `value` (or above it when `after`). */
  private position(value: unknown, after: boolean): number {
    const entries = this.entries;
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const order = compareValues(entries[middle].value, value);
      if (order < 0 || (after && order === 0)) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  insert(entry: T): void {
    // Still in place (values never change), so reviving it keeps the order.
    if (this.removed.delete(entry)) return;
    const entries = this.entries;
    if (entries.length === 0 || compareValues(entries[entries.length - 1].value, entry.value) < 0) entries.push(entry);
    else entries.splice(this.position(entry.value, true), 0, entry);
  }

  /** Removes the first entry with an equal value that `matches` (by default: this very entry). */
  remove(entry: T, matches: (candidate: T) => boolean = (candidate) => candidate === entry): void {
    let index = this.position(entry.value, false);
    while (index < this.entries.length && compareValues(this.entries[index].value, entry.value) === 0) {
      const candidate = this.entries[index];
      if (!this.removed.has(candidate) && matches(candidate)) {
        this.removed.add(candidate);
        if (this.removed.size > 1024 && this.removed.size * 4 > this.entries.length) this.compact();
        return;
      }
      index += 1;
    }
  }

  /**
   * `remove(entry)` for the very object inserted and still listed, which callers holding their
   * entries know: it is tombstoned without the binary search (a claim drains a thousand entries
   * of a 100k-entry index, and each search touched ~17 entries spread over memory).
   */
  removeListed(entry: T): void {
    if (this.removed.has(entry)) return;
    this.removed.add(entry);
    if (this.removed.size > 1024 && this.removed.size * 4 > this.entries.length) this.compact();
  }

  private compact(): void {
    this.entries = this.entries.filter((entry) => !this.removed.has(entry));
    this.removed.clear();
  }

  *ordered(direction: 1 | -1): Iterable<T> {
    const entries = this.entries;
    const removed = this.removed;
    if (direction === 1) {
      for (const entry of entries) if (!removed.has(entry)) yield entry;
    } else {
      for (let index = entries.length - 1; index >= 0; index -= 1) if (!removed.has(entries[index])) yield entries[index];
    }
  }

  /** Entries of the bounds' type bracket within the bounds, in ascending order. */
  *range(lower: Bound | undefined, upper: Bound | undefined): Iterable<T> {
    const entries = this.entries;
    const bracket = typeBracket((lower ?? upper)?.value);
    let start: number;
    if (lower) {
      start = this.position(lower.value, !lower.inclusive);
    } else {
      let low = 0;
      let high = entries.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (typeBracket(entries[middle].value) < bracket) low = middle + 1;
        else high = middle;
      }
      start = low;
    }
    for (let index = start; index < entries.length; index += 1) {
      const entry = entries[index];
      if (typeBracket(entry.value) !== bracket) break;
      if (upper) {
        const order = compareValues(entry.value, upper.value);
        if (order > 0 || (order === 0 && !upper.inclusive)) break;
      }
      if (this.removed.has(entry)) continue;
      yield entry;
    }
  }
}
