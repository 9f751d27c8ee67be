// Contract §16 URL rules: scheme http or https, a host, total length ≤ 2083.
export const MAX_URL_LENGTH = 2083;

export type HttpUrlProblem = 'not_string' | 'too_long' | 'unparseable' | 'invalid_port' | 'scheme' | 'no_host';

export function httpUrlProblem(value: unknown): HttpUrlProblem | null {
  if (typeof value !== 'string') return 'not_string';
  if (value.length > MAX_URL_LENGTH) return 'too_long';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The one failure worth naming apart (as pydantic's URL parser does): a port beyond 65535 or not a number.
    const port = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:]*):([^/?#]*)/i.exec(value)?.[1];
    return port !== undefined && port !== '' && (!/^\d+$/.test(port) || Number(port) > 65535) ? 'invalid_port' : 'unparseable';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme';
  if (url.hostname === '') return 'no_host';
  return null;
}

export function isHttpUrl(value: unknown): boolean {
  return httpUrlProblem(value) === null;
}

/** The echo form of §16: lower-cased scheme and host, IDN as punycode, empty path becomes `/`. */
export function normaliseHttpUrl(value: string): string {
  return new URL(value).toString();
}
