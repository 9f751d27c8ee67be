import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { createAddressPolicy, type AddressPolicy } from './address-policy';

export type OutboundFailure = 'invalid_url' | 'scheme_not_allowed' | 'blocked_address' | 'redirect' | 'too_large' | 'timeout' | 'network' | 'undecodable';

export class OutboundRequestError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
    /** True once the whole request had been handed to the network: the peer may have received it. */
    readonly requestSent = false,
  ) {
    super(message);
    this.name = 'OutboundRequestError';
  }
}

/** A decompressor for a Content-Encoding; undefined for none (identity), null when unsupported. */
function decoderFor(encoding: string): Transform | undefined | null {
  switch (encoding) {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/**
 * Passes at most maxBytes through. Past them it hands on the bytes up to the limit and errors with
 * too_large only once the reader has taken those: a line reader downstream keeps every line that
 * ended before the limit. (An error raised at once would discard what is still buffered.)
 */
class ByteLimit extends Transform {
  private received = 0;
  private overflow: OutboundRequestError | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly onOverflow: () => void,
  ) {
    // No read-ahead on the readable side, so _read runs only when the reader has taken everything.
    super({ readableHighWaterMark: 0 });
  }

  get overflowed(): boolean {
    return this.overflow !== undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null, data?: Buffer) => void): void {
    if (this.overflow) return callback();
    this.received += chunk.length;
    if (this.received <= this.maxBytes) return callback(null, chunk);
    this.overflow = new OutboundRequestError('too_large', `response exceeds the limit of ${this.maxBytes} bytes`);
    const head = chunk.subarray(0, chunk.length - (this.received - this.maxBytes));
    this.onOverflow();
    if (head.length > 0) return callback(null, head);
    callback();
    // Nothing pushed means no later _read while the reader waits; with nothing buffered there is nothing to hand on.
    if (this.readableLength === 0) this.destroy(this.overflow);
  }

  override _read(size: number): void {
    if (this.overflow) {
      this.destroy(this.overflow);
      return;
    }
    super._read(size);
  }
}

export interface OutboundRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Overrides the client's limits for this call. */
  maxBytes?: number;
  timeoutMs?: number;
}

export interface OutboundStreamResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /**
   * Decoded as its Content-Encoding says (gzip, deflate, br), as HTTP clients such as httpx do;
   * errors with OutboundRequestError('too_large') once more than maxBytes arrive (decoded bytes),
   * after handing on the bytes up to the limit.
   */
  body: Readable;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface OutboundHttpClient {
  /** Streams the response body (for large files such as import batches). */
  stream(request: OutboundRequest): Promise<OutboundStreamResponse>;
  /** Reads the whole (size-limited) response. */
  request(request: OutboundRequest): Promise<OutboundResponse>;
  /**
   * Checks a URL against the scheme and host rules without connecting (DNS is resolved). A host
   * that does not resolve now passes: that is a network condition, not a refusal, and the request
   * itself is guarded again when it connects.
   */
  check(url: string): Promise<void>;
}

export interface OutboundHttpOptions {
  /** OUTBOUND_ALLOWLIST: hosts or CIDRs that may be reached even if private, over plain http too. */
  allowlist: readonly string[];
  maxBytes: number;
  /**
   * The response's status and headers must arrive within this long of the request's start, the
   * connection may idle no longer, and each such span of the body must bring at least
   * `minBytesPerSecond` on average (unless the reader is the one holding it back).
   */
  timeoutMs: number;
  /** The slowest body worth waiting for (default 1 KiB/s): a server trickling bytes is cut off, not waited on forever. */
  minBytesPerSecond?: number;
}

const DEFAULT_MIN_BYTES_PER_SECOND = 1024;

/** True for an IPv4 or IPv6 address (WHATWG URL parsing has already written decimal, hex and octal forms as dotted IPv4). */
function isIpLiteral(host: string): boolean {
  return /^[\d.]+$|:/.test(host);
}

/** A URL's host as DNS and address checks take it: an IPv6 literal without its brackets. */
function bareHost(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function parseUrl(raw: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRequestError('invalid_url', `not a valid URL: ${raw}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new OutboundRequestError('scheme_not_allowed', `scheme ${url.protocol} is not allowed`);
  const host = bareHost(url);
  // An IP literal never goes through lookup, so it is checked here; an address refused over any
  // scheme is named as such, not sent to https where it is refused too.
  if (!policy.hostAllowed(host) && isIpLiteral(host) && !policy.addressAllowed(host)) throw new OutboundRequestError('blocked_address', `${host} may not be reached`);
  if (url.protocol === 'http:' && !policy.hostAllowed(url.hostname)) throw new OutboundRequestError('scheme_not_allowed', `plain http is not allowed for ${url.hostname}; use https`);
  if (url.username || url.password) throw new OutboundRequestError('invalid_url', 'credentials in URLs are not allowed');
  return url;
}

/**
 * An HTTP client for every call the services make to URLs given by users: addresses are checked
 * after DNS resolution and the connection goes to the checked address (no rebinding window),
 * redirects are refused, and size and time are limited.
 */
export function createOutboundHttpClient(options: OutboundHttpOptions): OutboundHttpClient {
  const policy = createAddressPolicy(options.allowlist);

  const guardedLookup =
    (hostAllowed: boolean): LookupFunction =>
    (hostname, lookupOptions, callback) => {
      dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 4);
        const list = addresses as dns.LookupAddress[];
        const refused = hostAllowed ? undefined : list.find((entry) => !policy.addressAllowed(entry.address));
        if (refused || list.length === 0) {
          return callback(new OutboundRequestError('blocked_address', `${hostname} resolves to ${refused?.address ?? 'nothing'}, which may not be reached`), '', 4);
        }
        if (lookupOptions.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
        return callback(null, list[0].address, list[0].family);
      });
    };

  async function check(raw: string): Promise<void> {
    let url: URL;
    try {
      url = parseUrl(raw, policy);
    } catch (error) {
      // A plain-http name that resolves to a refused address is named as refused: "use https"
      // would only lead to that refusal.
      if (error instanceof OutboundRequestError && error.reason === 'scheme_not_allowed' && /^http:/i.test(raw)) await resolvesAllowed(bareHost(new URL(raw)));
      throw error;
    }
    const host = bareHost(url);
    if (policy.hostAllowed(host)) return;
    await resolvesAllowed(host);
  }

  /** Rejects when the host resolves to a refused address; a host that does not resolve passes. */
  function resolvesAllowed(host: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      guardedLookup(false)(host, { all: true }, (error) => (error instanceof OutboundRequestError ? reject(error) : resolve()));
    });
  }

  function stream(request: OutboundRequest): Promise<OutboundStreamResponse> {
    const maxBytes = request.maxBytes ?? options.maxBytes;
    const timeoutMs = request.timeoutMs ?? options.timeoutMs;
    const minBytesPerSpan = Math.ceil(((options.minBytesPerSecond ?? DEFAULT_MIN_BYTES_PER_SECOND) * timeoutMs) / 1000);
    return new Promise((resolve, reject) => {
      let url: URL;
      try {
        url = parseUrl(request.url, policy);
      } catch (error) {
        return reject(error);
      }
      // A refused IP literal (which never goes through lookup) was refused by parseUrl.
      const hostAllowed = policy.hostAllowed(bareHost(url));
      const transport = url.protocol === 'https:' ? https : http;
      let sent = false;
      /** Why this request was cut off by its own limits, so a body ended by it says so rather than "aborted". */
      let cutOff: OutboundRequestError | undefined;
      const cut = (error: OutboundRequestError) => {
        cutOff ??= error;
        req.destroy(cutOff);
      };
      // A total limit, not only an idle one: a server sending its headers a byte at a time stays busy.
      const headersDeadline = setTimeout(() => cut(new OutboundRequestError('timeout', `no response from ${url.host} within ${timeoutMs} ms`, sent)), timeoutMs);
      const req = transport.request(
        url,
        { method: request.method ?? 'GET', headers: request.headers, lookup: guardedLookup(hostAllowed), timeout: timeoutMs, agent: false },
        (res) => {
          clearTimeout(headersDeadline);
          const status = res.statusCode ?? 0;
          if (status >= 300 && status < 400) {
            res.resume();
            return reject(new OutboundRequestError('redirect', `redirects are not followed (got ${status} to ${res.headers.location ?? 'nowhere'})`));
          }
          const declared = Number(res.headers['content-length']);
          if (Number.isFinite(declared) && declared > maxBytes) {
            res.destroy();
            return reject(new OutboundRequestError('too_large', `response of ${declared} bytes exceeds the limit of ${maxBytes} bytes`));
          }
          const encoding = String(res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
          const decoder = decoderFor(encoding);
          if (decoder === null) {
            res.destroy();
            return reject(new OutboundRequestError('undecodable', `the response's Content-Encoding ${encoding} is not supported`));
          }
          const limiter = new ByteLimit(maxBytes, () => {
            // The transfer stops at the limit; the reader still gets the bytes up to it, then the error.
            res.unpipe();
            decoder?.unpipe();
            decoder?.destroy();
            res.destroy();
          });
          // Each span of the body must bring the least worth waiting for; a span in which the reader
          // held the body back (the response paused by backpressure) does not count against it.
          let spanBytes = 0;
          res.on('data', (chunk: Buffer) => {
            spanBytes += chunk.length;
          });
          const slowBody = setInterval(() => {
            if (spanBytes < minBytesPerSpan && !res.isPaused()) {
              cut(new OutboundRequestError('timeout', `the response from ${url.host} arrived slower than ${minBytesPerSpan} bytes in ${timeoutMs} ms`, true));
            }
            spanBytes = 0;
          }, timeoutMs);
          const stopWatching = () => clearInterval(slowBody);
          res.on('end', stopWatching);
          res.on('close', stopWatching);
          // A body cut short (the peer closed or reset it, or the socket timed out) is a transfer
          // failure like any other, so callers count it against their attempts.
          res.on('error', (error) => {
            if (limiter.overflowed) return;
            limiter.destroy(cutOff ?? (error instanceof OutboundRequestError ? error : new OutboundRequestError('network', `${url.host}: ${error.message}`, true)));
          });
          limiter.on('error', () => res.destroy());
          if (decoder) {
            decoder.on('error', (error) => {
              if (!limiter.overflowed) limiter.destroy(new OutboundRequestError('undecodable', `the response body is not valid ${encoding}: ${error.message}`));
            });
            res.pipe(decoder).pipe(limiter);
          } else {
            res.pipe(limiter);
          }
          resolve({ status, headers: res.headers, body: limiter });
        },
      );
      req.on('finish', () => {
        sent = true;
      });
      req.on('timeout', () => cut(new OutboundRequestError('timeout', `no data from ${url.host} for ${timeoutMs} ms`, sent)));
      req.on('error', (error) => {
        clearTimeout(headersDeadline);
        reject(cutOff ?? (error instanceof OutboundRequestError ? error : new OutboundRequestError('network', `${url.host}: ${error.message}`, sent)));
      });
      req.on('close', () => clearTimeout(headersDeadline));
      if (request.body !== undefined) req.end(request.body);
      else req.end();
    });
  }

  return {
    check,
    stream,
    async request(request) {
      const response = await stream(request);
      const chunks: Buffer[] = [];
      for await (const chunk of response.body) chunks.push(chunk as Buffer);
      return { status: response.status, headers: response.headers, body: Buffer.concat(chunks) };
    },
  };
}
