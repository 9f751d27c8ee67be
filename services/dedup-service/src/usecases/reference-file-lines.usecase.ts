import { createReferenceContentRepository, decodeReference, type RawReference, type ReferenceViewSource } from '../data-access/reference-content.repository';
import type { ReferenceRepository } from '../data-access/reference.repository';
import { referenceFileLine, type ReferenceFileLine } from '../domain/reference-file-line.builder';
import { isCanonicalLike } from '../domain/reference.model';

// Robot reference-file lines (§12.2) of deduplicated views, written here from the stored
// documents. Lines are kept with the exact bytes they were written from (the reference's view
// fields and its duplicates'): a reference read again with the same bytes gets the same line
// without being decoded or written again (robots with requests over the same references poll them
// one after another). Equal bytes mean equal content, whoever wrote the documents meanwhile.

/** About how many bytes of documents and lines are kept; the least recently used go first. */
export const REFERENCE_FILE_CACHE_BYTES = 32 * 1024 * 1024;

interface CachedLines {
  bytes: Buffer;
  canonicalLike: boolean;
  duplicates: Buffer[];
  /** By whether the caller may see full texts. */
  lines: { withFullText?: ReferenceFileLine; withoutFullText?: ReferenceFileLine };
  size: number;
}

function sameBytes(kept: readonly Buffer[], current: ReadonlyArray<{ bytes: Buffer }>): boolean {
  return kept.length === current.length && kept.every((bytes, index) => bytes.equals(current[index].bytes));
}

export function createReferenceFileLines(deps: { references: ReferenceRepository; cacheBytes?: number }) {
  const contents = createReferenceContentRepository(deps.references.references);
  const limit = deps.cacheBytes ?? REFERENCE_FILE_CACHE_BYTES;
  const cache = new Map<string, CachedLines>();
  let cachedBytes = 0;

  /** Stores (or refreshes) an entry as the most recently used and drops the oldest beyond the limit. */
  function keep(id: string, entry: CachedLines): void {
    const previous = cache.get(id);
    if (previous) {
      cachedBytes -= previous.size;
      cache.delete(id);
    }
    entry.size = entry.bytes.length + entry.duplicates.reduce((sum, bytes) => sum + bytes.length, 0) + (entry.lines.withFullText?.line.length ?? 0) + (entry.lines.withoutFullText?.line.length ?? 0);
    cache.set(id, entry);
    cachedBytes += entry.size;
    // Only walked when over the limit: a walk from the start also passes the slots of moved entries.
    if (cachedBytes > limit)
      for (const [oldest, dropped] of cache) {
        if (cachedBytes <= limit) break;
        cache.delete(oldest);
        cachedBytes -= dropped.size;
      }
  }

  /** The lines of `ids` in request order, missing references omitted; a duplicate's line is its own view. */
  return async function referenceFileLines(ids: readonly string[], fullTextEntitled: boolean): Promise<ReferenceFileLine[]> {
    // Duplicates are asked for every id, found or not and canonical-like or not, so the two reads go
    // out together and the bytes need not be decoded before the cache is consulted; a duplicate's
    // own line ignores them, and so does a missing reference.
    const [rows, duplicates] = await Promise.all([contents.getManyRaw(ids), contents.duplicatesOf(ids)]);
    const found = new Map(rows.map((raw) => [raw.id, raw]));
    const groups = new Map<string, Array<RawReference & { document: ReferenceViewSource }>>();
    for (const duplicate of duplicates) {
      const canonical = duplicate.document.active_decision?.canonical_reference_id as string;
      const group = groups.get(canonical);
      if (group) group.push(duplicate);
      else groups.set(canonical, [duplicate]);
    }
    // No awaits from here on: concurrent polls of the same references (robots polling at once) find
    // the lines the first of them wrote.
    const variant = fullTextEntitled ? 'withFullText' : 'withoutFullText';
    const lines: ReferenceFileLine[] = [];
    for (const id of ids) {
      const raw = found.get(id);
      if (!raw) continue;
      const group = groups.get(id) ?? [];
      let entry = cache.get(id);
      if (!entry || !entry.bytes.equals(raw.bytes) || !sameBytes(entry.duplicates, entry.canonicalLike ? group : [])) {
        const document = decodeReference(raw.bytes);
        const canonicalLike = isCanonicalLike(document);
        const duplicates = canonicalLike ? group : [];
        // Copies: the driver's bytes may be views of a whole reply, which an entry must not keep alive.
        entry = { bytes: Buffer.from(raw.bytes), canonicalLike, duplicates: duplicates.map((duplicate) => Buffer.from(duplicate.bytes)), lines: {}, size: 0 };
        entry.lines[variant] = referenceFileLine(document, duplicates.map((duplicate) => duplicate.document), fullTextEntitled);
      } else if (!entry.lines[variant]) {
        entry.lines[variant] = referenceFileLine(decodeReference(raw.bytes), entry.canonicalLike ? group.map((duplicate) => duplicate.document) : [], fullTextEntitled);
      }
      keep(id, entry);
      lines.push(entry.lines[variant] as ReferenceFileLine);
    }
    return lines;
  };
}
