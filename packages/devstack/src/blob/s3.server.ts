// HTTP front of the blob stand-in: path-style S3 requests, each SigV4-verified before routing.
import crypto from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ObjectStore } from './object.store';
import type { S3Call } from './s3-call';
import { S3Error, s3Errors } from './s3-error';
import * as buckets from './s3-bucket.handlers';
import * as multipart from './s3-multipart.handlers';
import * as objects from './s3-object.handlers';
import { renderXml } from './s3-xml.codec';
import { parseQuery, verifySignature } from './sigv4.verifier';

export interface S3ServerOptions {
  store: ObjectStore;
  region: string;
  /** Secret keys by access key. */
  credentials: ReadonlyMap<string, string>;
  logger: Logger;
}

// Sub-resources S3 has and this stand-in does not; they get NotImplemented rather than a wrong answer.
const UNSUPPORTED_SUBRESOURCES = [
  'accelerate', 'acl', 'analytics', 'attributes', 'cors', 'encryption', 'intelligent-tiering', 'inventory', 'legal-hold', 'lifecycle',
  'logging', 'metrics', 'notification', 'object-lock', 'ownershipControls', 'policy', 'policyStatus', 'publicAccessBlock', 'replication',
  'requestPayment', 'restore', 'retention', 'select', 'tagging', 'torrent', 'versioning', 'versions', 'website',
];

function decodePathPart(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw s3Errors.invalidArgument('The request contains an invalid percent-encoding.');
  }
}

async function route(call: S3Call): Promise<void> {
  const { method, bucket, key, query } = call;
  if (bucket === '') {
    if (method === 'GET') return buckets.listBuckets(call);
    throw s3Errors.methodNotAllowed(method);
  }
  if (UNSUPPORTED_SUBRESOURCES.some((name) => query.has(name))) throw s3Errors.notImplemented();
  if (key === '') {
    switch (method) {
      case 'PUT':
        return buckets.createBucket(call);
      case 'HEAD':
        return buckets.headBucket(call);
      case 'DELETE':
        return buckets.deleteBucket(call);
      case 'GET':
        if (query.has('location')) return buckets.getBucketLocation(call);
        if (query.has('uploads')) return buckets.listMultipartUploads(call);
        return buckets.listObjects(call);
      case 'POST':
        if (query.has('delete')) return buckets.deleteObjects(call);
        throw s3Errors.methodNotAllowed(method);
      default:
        throw s3Errors.methodNotAllowed(method);
    }
  }
  const copySource = call.request.headers['x-amz-copy-source'];
  switch (method) {
    case 'PUT':
      if (query.has('uploadId') || query.has('partNumber')) return multipart.uploadPart(call);
      if (typeof copySource === 'string') return objects.copyObject(call, copySource);
      return objects.putObject(call);
    case 'GET':
      if (query.has('uploadId')) return multipart.listParts(call);
      return objects.getObject(call, true);
    case 'HEAD':
      return objects.getObject(call, false);
    case 'DELETE':
      if (query.has('uploadId')) return multipart.abortUpload(call);
      return objects.deleteObject(call);
    case 'POST':
      if (query.has('uploads')) return multipart.initiateUpload(call);
      if (query.has('uploadId')) return multipart.completeUpload(call);
      throw s3Errors.methodNotAllowed(method);
    default:
      throw s3Errors.methodNotAllowed(method);
  }
}

function sendError(request: IncomingMessage, response: ServerResponse, error: S3Error, resource: string, requestId: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  // An unread body would be parsed as the next request on a kept-alive connection; close it instead.
  const unread = !request.complete;
  if (request.method === 'HEAD') {
    response.writeHead(error.status, { 'x-amz-error-code': error.code, ...(unread ? { connection: 'close' } : {}) });
    response.end();
    return;
  }
  const xml = Buffer.from(
    renderXml('Error', { Code: error.code, Message: error.message, ...error.details, Resource: resource, RequestId: requestId, HostId: requestId }, false),
    'utf8',
  );
  response.writeHead(error.status, { 'content-type': 'application/xml', 'content-length': xml.length, ...(unread ? { connection: 'close' } : {}) });
  response.end(xml);
}

export function createS3Server(options: S3ServerOptions): http.Server {
  const { store, region, credentials, logger } = options;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const requestId = crypto.randomBytes(8).toString('hex').toUpperCase();
    response.setHeader('x-amz-request-id', requestId);
    response.setHeader('x-amz-id-2', requestId);
    response.setHeader('server', 'DestinyDevstackS3');
    const url = request.url ?? '/';
    const questionMark = url.indexOf('?');
    const rawPath = questionMark === -1 ? url : url.slice(0, questionMark);
    const rawQuery = questionMark === -1 ? '' : url.slice(questionMark + 1);
    let resource = rawPath;
    try {
      if (!rawPath.startsWith('/')) throw new S3Error(400, 'InvalidURI', "Couldn't parse the specified URI.");
      const signature = verifySignature({ method: request.method ?? 'GET', rawPath, rawQuery, headers: request.headersDistinct }, { region, secrets: credentials });
      const slash = rawPath.indexOf('/', 1);
      const bucket = decodePathPart(slash === -1 ? rawPath.slice(1) : rawPath.slice(1, slash));
      const key = slash === -1 ? '' : decodePathPart(rawPath.slice(slash + 1));
      resource = key === '' ? `/${bucket}` : `/${bucket}/${key}`;
      const query = new Map<string, string>();
      for (const [name, value] of parseQuery(rawQuery)) if (!query.has(name)) query.set(name, value);
      const host = request.headers.host ?? 'localhost';
      await route({ request, response, method: request.method ?? 'GET', bucket, key, query, signature, store, region, baseUrl: `http://${host}` });
    } catch (error) {
      if (error instanceof S3Error) {
        logger.debug({ requestId, method: request.method, resource, code: error.code }, 'S3 request rejected');
        sendError(request, response, error, resource, requestId);
      } else if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE' || request.destroyed) {
        logger.debug({ requestId, method: request.method, resource }, 'S3 client went away mid-request');
        response.destroy();
      } else {
        logger.error({ err: error, requestId, method: request.method, resource }, 'S3 request failed');
        sendError(request, response, s3Errors.internalError(), resource, requestId);
      }
    }
  };

  return http.createServer((request, response) => {
    // A client that disconnects mid-request makes these streams emit 'error'; unheard, that would crash the process.
    request.on('error', (error) => logger.debug({ err: error }, 'S3 request stream error'));
    response.on('error', (error) => logger.debug({ err: error }, 'S3 response stream error'));
    void handle(request, response);
  });
}
