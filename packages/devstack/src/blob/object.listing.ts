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

/** S3 orders keys by their UTF-8 bytes. */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
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
  for (const entry of sorted) {
    const { key } = entry;
    if (!key.startsWith(prefix) || compareKeys(key, after) <= 0) continue;
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
