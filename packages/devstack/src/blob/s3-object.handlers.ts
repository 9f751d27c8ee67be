// Object-level S3 operations: PUT, GET (with Range), HEAD, DELETE and copy.
import { pipeline } from 'node:stream/promises';
import type { StoredObject } from './object.store';
import { requestBody } from './request-body';
import { objectHeaders, quoted, requestedAttributes, sendEmpty, sendXml, xmlDate, type S3Call } from './s3-call';
import { S3Error, s3Errors } from './s3-error';

export const MAX_KEY_BYTES = 1024;

/** Response header overrides a signed GET may ask for. */
const RESPONSE_OVERRIDES: Record<string, string> = {
  'response-content-type': 'content-type',
  'response-content-language': 'content-language',
  'response-expires': 'expires',
  'response-cache-control': 'cache-control',
  'response-content-disposition': 'content-disposition',
  'response-content-encoding': 'content-encoding',
};

const etagMatches = (header: string, etag: string) =>
  header
    .split(',')
    .map((one) => one.trim().replace(/^W\//, '').replace(/^"|"$/g, ''))
    .some((one) => one === '*' || one === etag);

function existing(call: S3Call): StoredObject | undefined {
  try {
    return call.store.getObject(call.bucket, call.key);
  } catch (error) {
    if (error instanceof S3Error && error.code === 'NoSuchKey') return undefined;
    throw error;
  }
}

/** If-Match / If-None-Match on writes (conditional PUT). */
function checkWritePreconditions(call: S3Call): void {
  const ifMatch = call.request.headers['if-match'];
  const ifNoneMatch = call.request.headers['if-none-match'];
  if (ifMatch === undefined && ifNoneMatch === undefined) return;
  const current = existing(call);
  if (ifMatch !== undefined && (!current || !etagMatches(ifMatch, current.etag))) {
    if (!current) throw s3Errors.noSuchKey(call.key);
    throw s3Errors.preconditionFailed('If-Match');
  }
  if (ifNoneMatch !== undefined && current && etagMatches(ifNoneMatch, current.etag)) throw s3Errors.preconditionFailed('If-None-Match');
}

export async function putObject(call: S3Call): Promise<void> {
  if (Buffer.byteLength(call.key) > MAX_KEY_BYTES) throw s3Errors.keyTooLong();
  if (!call.store.hasBucket(call.bucket)) throw s3Errors.noSuchBucket(call.bucket);
  checkWritePreconditions(call);
  const body = requestBody(call.request, call.signature);
  const object = await call.store.putObject(call.bucket, call.key, body.stream, requestedAttributes(call.request), body.checks);
  sendEmpty(call, 200, { etag: quoted(object.etag) });
}

/** Parses a single `bytes=` range; S3 ignores what it cannot parse and serves the whole object. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) throw s3Errors.invalidRange(size);
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) throw s3Errors.invalidRange(size);
  return { start, end };
}

/** Conditional GET/HEAD; returns 304 when the client's copy is current. */
function readPreconditionStatus(call: S3Call, object: StoredObject): number | undefined {
  const headers = call.request.headers;
  const modifiedSeconds = Math.floor(object.lastModified.getTime() / 1000);
  const since = (value: string | undefined) => (value === undefined ? Number.NaN : Math.floor(Date.parse(value) / 1000));
  if (headers['if-match'] !== undefined && !etagMatches(headers['if-match'], object.etag)) throw s3Errors.preconditionFailed('If-Match');
  if (headers['if-match'] === undefined && modifiedSeconds > since(headers['if-unmodified-since'])) throw s3Errors.preconditionFailed('If-Unmodified-Since');
  if (headers['if-none-match'] !== undefined) return etagMatches(headers['if-none-match'], object.etag) ? 304 : undefined;
  if (modifiedSeconds <= since(headers['if-modified-since'])) return 304;
  return undefined;
}

export async function getObject(call: S3Call, withBody: boolean): Promise<void> {
  const object = call.store.getObject(call.bucket, call.key);
  const notModified = readPreconditionStatus(call, object);
  const headers = objectHeaders(object);
  if (notModified !== undefined) {
    call.response.writeHead(notModified, { etag: quoted(object.etag), 'last-modified': object.lastModified.toUTCString() });
    call.response.end();
    return;
  }
  for (const [parameter, header] of Object.entries(RESPONSE_OVERRIDES)) {
    const value = call.query.get(parameter);
    if (value !== undefined) headers[header] = value;
  }
  const range = parseRange(call.request.headers.range, object.size);
  if (range) headers['content-range'] = `bytes ${range.start}-${range.end}/${object.size}`;
  headers['content-length'] = range ? range.end - range.start + 1 : object.size;
  const status = range ? 206 : 200;
  if (!withBody || object.size === 0) {
    call.response.writeHead(status, headers);
    call.response.end();
    return;
  }
  const opened = await call.store.openObject(call.bucket, call.key, range);
  if (opened.object.dataFile !== object.dataFile) {
    // Overwritten between lookup and open: describe what is actually being sent.
    opened.stream.destroy();
    await getObject(call, withBody);
    return;
  }
  call.response.writeHead(status, headers);
  await pipeline(opened.stream, call.response);
}

export async function deleteObject(call: S3Call): Promise<void> {
  await call.store.deleteObject(call.bucket, call.key);
  sendEmpty(call, 204);
}

/** x-amz-copy-source is `[/]bucket/key[?versionId=…]`, percent-encoded. */
function parseCopySource(header: string): { bucket: string; key: string } {
  const [pathPart, version] = header.split('?');
  if (version !== undefined && !version.startsWith('versionId=')) throw s3Errors.invalidArgument('Copy Source must mention the source bucket and key: sourcebucket/sourcekey', 'x-amz-copy-source', header);
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathPart);
  } catch {
    throw s3Errors.invalidArgument('Copy Source must mention the source bucket and key: sourcebucket/sourcekey', 'x-amz-copy-source', header);
  }
  const trimmed = decoded.startsWith('/') ? decoded.slice(1) : decoded;
  const slash = trimmed.indexOf('/');
  if (slash <= 0 || slash === trimmed.length - 1) throw s3Errors.invalidArgument('Copy Source must mention the source bucket and key: sourcebucket/sourcekey', 'x-amz-copy-source', header);
  return { bucket: trimmed.slice(0, slash), key: trimmed.slice(slash + 1) };
}

export async function copyObject(call: S3Call, copySource: string): Promise<void> {
  if (Buffer.byteLength(call.key) > MAX_KEY_BYTES) throw s3Errors.keyTooLong();
  if (!call.store.hasBucket(call.bucket)) throw s3Errors.noSuchBucket(call.bucket);
  const source = parseCopySource(copySource);
  const sourceObject = call.store.getObject(source.bucket, source.key);
  const headers = call.request.headers;
  const ifMatch = headers['x-amz-copy-source-if-match'] as string | undefined;
  const ifNoneMatch = headers['x-amz-copy-source-if-none-match'] as string | undefined;
  if (ifMatch !== undefined && !etagMatches(ifMatch, sourceObject.etag)) throw s3Errors.preconditionFailed('x-amz-copy-source-If-Match');
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, sourceObject.etag)) throw s3Errors.preconditionFailed('x-amz-copy-source-If-None-Match');
  const directive = (headers['x-amz-metadata-directive'] as string | undefined) ?? 'COPY';
  if (directive !== 'COPY' && directive !== 'REPLACE') throw s3Errors.invalidArgument('Unknown metadata directive.', 'x-amz-metadata-directive', directive);
  if (directive === 'COPY' && source.bucket === call.bucket && source.key === call.key) {
    throw s3Errors.invalidRequest(
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
    );
  }
  const attributes =
    directive === 'REPLACE'
      ? requestedAttributes(call.request)
      : { contentType: sourceObject.contentType, headers: sourceObject.headers, userMetadata: sourceObject.userMetadata };
  const copied = await call.store.copyObject(sourceObject, source.bucket, call.bucket, call.key, attributes);
  sendXml(call, 200, 'CopyObjectResult', { LastModified: xmlDate(copied.lastModified), ETag: quoted(copied.etag) });
}
