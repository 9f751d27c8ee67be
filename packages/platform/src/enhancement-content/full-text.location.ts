// Where a stored full text lives. The stored enhancement's `file_url` names the copy with a URL in
// the reserved `.invalid` domain (RFC 2606: never resolves, so it can neither be fetched nor
// forged into a working download); outputs replace it with a signed URL of the blob key.

const STORED_PREFIX = 'https://stored-full-text.invalid/sha256/';
const KEY_PREFIX = 'full-texts/sha256/';

export function storedFullTextKey(sha256: string): string {
  return `${KEY_PREFIX}${sha256}`;
}

export function storedFullTextUrl(sha256: string): string {
  return `${STORED_PREFIX}${sha256}`;
}

/** The blob key of a stored copy named by `fileUrl`, or null when the URL is not one of ours. */
export function storedFullTextKeyOf(fileUrl: unknown): string | null {
  if (typeof fileUrl !== 'string' || !fileUrl.startsWith(STORED_PREFIX)) return null;
  const sha256 = fileUrl.slice(STORED_PREFIX.length);
  return /^[0-9a-f]{64}$/.test(sha256) ? storedFullTextKey(sha256) : null;
}
