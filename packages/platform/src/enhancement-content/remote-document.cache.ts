import type { OutboundHttpClient } from '../outbound-http/outbound-http';

// Contexts and vocabularies are fetched through the SSRF-guarded client, size- and time-limited,
// and kept (parsed) for a TTL: an import of thousands of lines naming one vocabulary fetches it
// once. Concurrent loads of one URL share a fetch, and a failure is remembered briefly so that
// an unreachable host does not cost every line a timeout.

export interface FetchedDocument {
  url: string;
  contentType: string;
  body: Buffer;
}

export interface RemoteDocumentCacheOptions {
  outbound: OutboundHttpClient;
  maxBytes: number;
  timeoutMs: number;
  ttlMs: number;
  /** How long a failure is remembered (capped by ttlMs). */
  failureTtlMs: number;
  /** Entries kept; the oldest go first. */
  maxEntries?: number;
  now?: () => number;
}

export interface RemoteDocumentCache {
  /** `parse` turns the fetched bytes into what is cached; its errors are cached like fetch errors. */
  load<T>(url: string, accept: string, parse: (document: FetchedDocument) => Promise<T>): Promise<T>;
}

interface Entry {
  expiresAt: number;
  value: Promise<unknown>;
}

export function createRemoteDocumentCache(options: RemoteDocumentCacheOptions): RemoteDocumentCache {
  const entries = new Map<string, Entry>();
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 1000;

  async function fetchDocument(url: string, accept: string): Promise<FetchedDocument> {
    const response = await options.outbound.request({ url, headers: { accept }, maxBytes: options.maxBytes, timeoutMs: options.timeoutMs });
    if (response.status < 200 || response.status >= 300) throw new Error(`${url} answered HTTP ${response.status}`);
    return { url, contentType: String(response.headers['content-type'] ?? '').toLowerCase(), body: response.body };
  }

  return {
    load<T>(url: string, accept: string, parse: (document: FetchedDocument) => Promise<T>): Promise<T> {
      const key = `${accept} ${url}`;
      const cached = entries.get(key);
      if (cached && cached.expiresAt > now()) return cached.value as Promise<T>;
      entries.delete(key);
      const entry: Entry = { expiresAt: Number.POSITIVE_INFINITY, value: Promise.resolve() };
      entry.value = fetchDocument(url, accept)
        .then(parse)
        .then(
          (value) => {
            entry.expiresAt = now() + options.ttlMs;
            return value;
          },
          (error: unknown) => {
            entry.expiresAt = now() + Math.min(options.ttlMs, options.failureTtlMs);
            throw error;
          },
        );
      // Callers that share a failed load each see it; this catch only keeps it from being "unhandled".
      entry.value.catch(() => undefined);
      entries.set(key, entry);
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      return entry.value as Promise<T>;
    },
  };
}
