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
    for (const [oldest, dropped] of cache) {
      if (cachedBytes <= limit) break;
      cache.delete(oldest);
      cachedBytes -= dropped.size;
    }
  }

  /** The lines of `ids` in request order, missing references omitted; a duplicate's line is its own view. */
  return async function referenceFileLines(ids: readonly string[], fullTextEntitled: boolean): Promise<ReferenceFileLine[]> {
    const found = new Map<string, { raw: RawReference; cached?: CachedLines; document?: ReferenceViewSource; canonicalLike: boolean }>();
    for (const raw of await contents.getManyRaw(ids)) {
      const cached = cache.get(raw.id);
      if (cached?.bytes.equals(raw.bytes)) found.set(raw.id, { raw, cached, canonicalLike: cached.canonicalLike });
      else {
        const document = decodeReference(raw.bytes);
        found.set(raw.id, { raw, document, canonicalLike: isCanonicalLike(document) });
      }
    }
    const groups = new Map<string, Array<RawReference & { document: ReferenceViewSource }>>();
    for (const duplicate of await contents.duplicatesOf([...found.values()].filter((item) => item.canonicalLike).map((item) => item.raw.id))) {
      const canonical = duplicate.document.active_decision?.canonical_reference_id as string;
      const group = groups.get(canonical);
      if (group) group.push(duplicate);
      else groups.set(canonical, [duplicate]);
    }
    const lines: ReferenceFileLine[] = [];
    for (const id of ids) {
      const item = found.get(id);
      if (!item) continue;
      const duplicates = item.canonicalLike ? (groups.get(id) ?? []) : [];
      let entry = item.cached;
      // Copies: the driver's bytes may be views of a whole reply, which an entry must not keep alive.
      if (!entry || !sameBytes(entry.duplicates, duplicates)) entry = { bytes: Buffer.from(item.raw.bytes), canonicalLike: item.canonicalLike, duplicates: duplicates.map((duplicate) => Buffer.from(duplicate.bytes)), lines: {}, size: 0 };
      const variant = fullTextEntitled ? 'withFullText' : 'withoutFullText';
      let line = entry.lines[variant];
      if (!line) {
        line = referenceFileLine(item.document ?? decodeReference(item.raw.bytes), duplicates.map((duplicate) => duplicate.document), fullTextEntitled);
        entry.lines[variant] = line;
      }
      keep(id, entry);
      lines.push(line);
    }
    return lines;
  };
}
