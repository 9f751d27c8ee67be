// ListObjects/ListObjectsV2 paging: prefix filter, delimiter roll-up into common prefixes, and a
// resume point (marker, start-after or continuation token) that is never returned again.

export interface ListingRequest {
  prefix: string;
  delimiter: string;
  /** List only entries after this key or common prefix. */
  after: string;
  maxKeys: number;
}

export interface ListingPage<T> {
  contents: T[];
  commonPrefixes: string[];
  isTruncated: boolean;
  /** The last key or common prefix returned, to resume from when truncated. */
  nextMarker?: string;
}

/**
 * S3 orders keys by their UTF-8 bytes, which is code point order. UTF-16 code unit order agrees except
 * that surrogates (U+D800-DFFF, used for code points above U+FFFF) must sort after U+E000-FFFF.
 */
export function compareKeys(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let index = 0; index < length; index += 1) {
    let x = a.charCodeAt(index);
    let y = b.charCodeAt(index);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      x = x < 0xe000 ? x + 0x2000 : x - 0x800;
      y = y < 0xe000 ? y + 0x2000 : y - 0x800;
    }
    return x - y;
  }
  return a.length - b.length;
}

/** Index of the first entry whose key sorts after `key` (or at it, when inclusive). */
function searchFrom<T extends { key: string }>(sorted: readonly T[], key: string, inclusive: boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareKeys(sorted[middle].key, key);
    if (order < 0 || (order === 0 && !inclusive)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Pages through entries already sorted by compareKeys. */
export function listPage<T extends { key: string }>(sorted: readonly T[], request: ListingRequest): ListingPage<T> {
  const { prefix, delimiter, after, maxKeys } = request;
  const contents: T[] = [];
  const commonPrefixes: string[] = [];
  // A resume point that is itself a common prefix covers every key under it.
  const skipUnder = delimiter !== '' && after.startsWith(prefix) && after.endsWith(delimiter) && after.length > prefix.length ? after : undefined;
  let last: string | undefined;
  let isTruncated = false;
  // Keys under the prefix are contiguous in sorted order: start at the later of the prefix and the
  // resume point, stop at the first key past the prefix.
  const start = Math.max(searchFrom(sorted, prefix, true), searchFrom(sorted, after, false));
  for (let index = start; index < sorted.length; index += 1) {
    const entry = sorted[index];
    const { key } = entry;
    if (!key.startsWith(prefix)) break;
    if (skipUnder !== undefined && key.startsWith(skipUnder)) continue;
    const delimiterAt = delimiter === '' ? -1 : key.indexOf(delimiter, prefix.length);
    const rolledUp = delimiterAt === -1 ? undefined : key.slice(0, delimiterAt + delimiter.length);
    if (rolledUp !== undefined && rolledUp === commonPrefixes[commonPrefixes.length - 1]) continue;
    if (contents.length + commonPrefixes.length >= maxKeys) {
      isTruncated = true;
      break;
    }
    if (rolledUp !== undefined) {
      commonPrefixes.push(rolledUp);
      last = rolledUp;
    } else {
      contents.push(entry);
      last = key;
    }
  }
  return { contents, commonPrefixes, isTruncated, nextMarker: isTruncated ? last : undefined };
}
