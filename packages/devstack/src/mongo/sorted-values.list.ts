// Entries kept in BSON order of their `value`, maintained incrementally (binary search + splice;
// appends in increasing order, the common case for dates and ObjectIds, cost nothing extra).
import { compareValues, typeBracket } from './bson-value.order';

export interface Bound {
  value: unknown;
  inclusive: boolean;
}

export class SortedValues<T extends { value: unknown }> {
  private readonly entries: T[];

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
    const entries = this.entries;
    if (entries.length === 0 || compareValues(entries[entries.length - 1].value, entry.value) < 0) entries.push(entry);
    else entries.splice(this.position(entry.value, true), 0, entry);
  }

  /** Removes the first entry with an equal value that `matches` (by default: this very entry). */
  remove(entry: T, matches: (candidate: T) => boolean = (candidate) => candidate === entry): void {
    let index = this.position(entry.value, false);
    while (index < this.entries.length && compareValues(this.entries[index].value, entry.value) === 0) {
      if (matches(this.entries[index])) {
        this.entries.splice(index, 1);
        return;
      }
      index += 1;
    }
  }

  *ordered(direction: 1 | -1): Iterable<T> {
    const entries = this.entries;
    if (direction === 1) yield* entries;
    else for (let index = entries.length - 1; index >= 0; index -= 1) yield entries[index];
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
      yield entry;
    }
  }
}
