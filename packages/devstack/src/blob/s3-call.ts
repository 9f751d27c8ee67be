// One authenticated S3 request as the handlers see it, and the response helpers they share.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ObjectAttributes, ObjectStore, StoredObject } from './object.store';
import { renderXml, type XmlObject } from './s3-xml.codec';
import type { VerifiedSignature } from './sigv4.verifier';

export interface S3Call {
  request: IncomingMessage;
  response: ServerResponse;
  method: string;
  /** Decoded bucket name; '' for the service root. */
  bucket: string;
  /** Decoded object key; '' for bucket-level requests. */
  key: string;
  /** Decoded query parameters (the first value of each). */
  query: ReadonlyMap<string, string>;
  signature: VerifiedSignature;
  store: ObjectStore;
  region: string;
  /** Base URL of this server, for Location values. */
  baseUrl: string;
}

export function sendXml(call: S3Call, status: number, root: string, body: XmlObject): void {
  const xml = Buffer.from(renderXml(root, body), 'utf8');
  call.response.writeHead(status, { 'content-type': 'application/xml', 'content-length': xml.length });
  call.response.end(xml);
}

export function sendEmpty(call: S3Call, status: number, headers: Record<string, string | number> = {}): void {
  call.response.writeHead(status, { ...headers, 'content-length': 0 });
  call.response.end();
}

/** Standard headers S3 stores with an object and returns on GET and HEAD. */
export const STORED_HEADERS = ['cache-control', 'content-disposition', 'content-encoding', 'content-language', 'expires'] as const;
const META_PREFIX = 'x-amz-meta-';

/** The attributes a PUT, copy with REPLACE, or multipart initiation asks to store. */
export function requestedAttributes(request: IncomingMessage): ObjectAttributes {
  const headers: Record<string, string> = {};
  for (const name of STORED_HEADERS) {
    let value = request.headers[name];
    if (typeof value !== 'string') continue;
    // aws-chunked describes the transfer, not the object.
    if (name === 'content-encoding') value = value.split(',').map((one) => one.trim()).filter((one) => one !== 'aws-chunked' && one !== '').join(',');
    if (value !== '') headers[name] = value;
  }
  const userMetadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith(META_PREFIX) && typeof value === 'string') userMetadata[name.slice(META_PREFIX.length)] = value;
  }
  return { contentType: request.headers['content-type'] ?? 'binary/octet-stream', headers, userMetadata };
}

export const quoted = (etag: string) => `"${etag}"`;

/** Headers describing a stored object on GET and HEAD. */
export function objectHeaders(object: StoredObject): Record<string, string | number> {
  const headers: Record<string, string | number> = {
    'content-type': object.contentType,
    etag: quoted(object.etag),
    'last-modified': object.lastModified.toUTCString(),
    'accept-ranges': 'bytes',
    ...object.headers,
  };
  for (const [name, value] of Object.entries(object.userMetadata)) headers[`${META_PREFIX}${name}`] = value;
  const parts = /-(\d+)$/.exec(object.etag);
  if (parts) headers['x-amz-mp-parts-count'] = parts[1];
  return headers;
}

/** S3's timestamp format in XML bodies. */
export const xmlDate = (date: Date) => date.toISOString();
