// Service- and bucket-level S3 operations.
import { compareKeys, listPage } from './object.listing';
import { readSmallBody, requestBody } from './request-body';
import { quoted, sendEmpty, sendXml, xmlDate, type S3Call } from './s3-call';
import { S3Error, s3Errors } from './s3-error';
import { childList, childText, OWNER, parseXml, type XmlObject } from './s3-xml.codec';
import { awsUriEncode } from './sigv4.verifier';

const MAX_KEYS = 1000;

/** S3 bucket naming rules (general purpose buckets). */
export function isValidBucketName(name: string): boolean {
  return (
    /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(name) &&
    !name.includes('..') &&
    !/^\d+\.\d+\.\d+\.\d+$/.test(name) &&
    !name.startsWith('xn--') &&
    !name.endsWith('-s3alias')
  );
}

export function listBuckets(call: S3Call): void {
  sendXml(call, 200, 'ListAllMyBucketsResult', {
    Owner: OWNER,
    Buckets: { Bucket: call.store.listBuckets().map((bucket) => ({ Name: bucket.name, CreationDate: xmlDate(bucket.creationDate) })) },
  });
}

export async function createBucket(call: S3Call): Promise<void> {
  if (!isValidBucketName(call.bucket)) throw s3Errors.invalidBucketName(call.bucket);
  // Object Lock cannot be honoured here; creating an unlocked bucket instead would be a silent lie.
  if (call.request.headers['x-amz-bucket-object-lock-enabled'] === 'true') throw s3Errors.notImplemented();
  const body = await readSmallBody(requestBody(call.request, call.signature));
  if (body.length > 0) {
    const constraint = childText(parseXml(body.toString('utf8')).CreateBucketConfiguration, 'LocationConstraint') ?? '';
    if (constraint !== '' && constraint !== call.region) throw s3Errors.invalidLocationConstraint();
  }
  await call.store.createBucket(call.bucket);
  sendEmpty(call, 200, { location: `/${call.bucket}` });
}

export function headBucket(call: S3Call): void {
  if (!call.store.hasBucket(call.bucket)) throw s3Errors.noSuchBucket(call.bucket);
  sendEmpty(call, 200, { 'x-amz-bucket-region': call.region });
}

export async function deleteBucket(call: S3Call): Promise<void> {
  await call.store.deleteBucket(call.bucket);
  sendEmpty(call, 204);
}

export function getBucketLocation(call: S3Call): void {
  if (!call.store.hasBucket(call.bucket)) throw s3Errors.noSuchBucket(call.bucket);
  // S3 answers an empty constraint for us-east-1.
  sendXml(call, 200, 'LocationConstraint', call.region === 'us-east-1' ? {} : { '#text': call.region });
}

function maxKeys(call: S3Call, name: string): number {
  const value = call.query.get(name);
  if (value === undefined) return MAX_KEYS;
  if (!/^\d+$/.test(value)) throw s3Errors.invalidArgument('Provided max-keys not an integer or within integer range', name, value);
  return Math.min(Number(value), MAX_KEYS);
}

function encodingFor(call: S3Call): (value: string) => string {
  const encodingType = call.query.get('encoding-type');
  if (encodingType === undefined) return (value) => value;
  if (encodingType !== 'url') throw s3Errors.invalidArgument('Invalid Encoding Method specified in Request', 'encoding-type', encodingType);
  return (value) => awsUriEncode(value, true);
}

function decodeContinuationToken(token: string): string {
  const decoded = Buffer.from(token, 'base64url').toString('utf8');
  if (!decoded.startsWith('k:')) throw s3Errors.invalidArgument('The continuation token provided is incorrect', 'continuation-token', token);
  return decoded.slice(2);
}

const encodeContinuationToken = (after: string) => Buffer.from(`k:${after}`, 'utf8').toString('base64url');

export function listObjects(call: S3Call): void {
  const v2 = call.query.get('list-type') === '2';
  if (call.query.has('list-type') && !v2) throw s3Errors.invalidArgument('Invalid List Type specified in Request', 'list-type', call.query.get('list-type'));
  const encode = encodingFor(call);
  const prefix = call.query.get('prefix') ?? '';
  const delimiter = call.query.get('delimiter') ?? '';
  const limit = maxKeys(call, 'max-keys');
  const continuationToken = call.query.get('continuation-token');
  const startAfter = call.query.get('start-after') ?? '';
  const marker = call.query.get('marker') ?? '';
  const after = v2 ? (continuationToken !== undefined ? decodeContinuationToken(continuationToken) : startAfter) : marker;
  const page = listPage(call.store.listObjects(call.bucket), { prefix, delimiter, after, maxKeys: limit });

  const owner = !v2 || call.query.get('fetch-owner') === 'true' ? OWNER : undefined;
  const contents = page.contents.map((object) => ({
    Key: encode(object.key),
    LastModified: xmlDate(object.lastModified),
    ETag: quoted(object.etag),
    Size: object.size,
    Owner: owner,
    StorageClass: 'STANDARD',
  }));
  const commonPrefixes = page.commonPrefixes.map((one) => ({ Prefix: encode(one) }));
  const body: XmlObject = v2
    ? {
        Name: call.bucket,
        Prefix: encode(prefix),
        Delimiter: delimiter === '' ? undefined : encode(delimiter),
        MaxKeys: limit,
        KeyCount: contents.length + commonPrefixes.length,
        IsTruncated: page.isTruncated,
        ContinuationToken: continuationToken,
        NextContinuationToken: page.nextMarker === undefined ? undefined : encodeContinuationToken(page.nextMarker),
        StartAfter: call.query.has('start-after') ? encode(startAfter) : undefined,
        Contents: contents,
        CommonPrefixes: commonPrefixes,
        EncodingType: call.query.get('encoding-type'),
      }
    : {
        Name: call.bucket,
        Prefix: encode(prefix),
        Marker: encode(marker),
        NextMarker: page.nextMarker === undefined ? undefined : encode(page.nextMarker),
        MaxKeys: limit,
        Delimiter: delimiter === '' ? undefined : encode(delimiter),
        IsTruncated: page.isTruncated,
        Contents: contents,
        CommonPrefixes: commonPrefixes,
        EncodingType: call.query.get('encoding-type'),
      };
  sendXml(call, 200, 'ListBucketResult', body);
}

export async function deleteObjects(call: S3Call): Promise<void> {
  if (!call.store.hasBucket(call.bucket)) throw s3Errors.noSuchBucket(call.bucket);
  const body = await readSmallBody(requestBody(call.request, call.signature), 2 * 1024 * 1024);
  const request = parseXml(body.toString('utf8')).Delete;
  if (request === undefined) throw s3Errors.malformedXml();
  const quiet = childText(request, 'Quiet') === 'true';
  const keys = childList(request, 'Object').map((entry) => childText(entry, 'Key'));
  if (keys.length === 0 || keys.length > 1000 || keys.some((key) => key === undefined || key === '')) throw s3Errors.malformedXml();
  const deleted: XmlObject[] = [];
  const errors: XmlObject[] = [];
  for (const key of keys as string[]) {
    try {
      await call.store.deleteObject(call.bucket, key);
      if (!quiet) deleted.push({ Key: key });
    } catch (error) {
      const s3Error = error instanceof S3Error ? error : s3Errors.internalError();
      errors.push({ Key: key, Code: s3Error.code, Message: s3Error.message });
    }
  }
  sendXml(call, 200, 'DeleteResult', { Deleted: deleted, Error: errors });
}

export function listMultipartUploads(call: S3Call): void {
  const prefix = call.query.get('prefix') ?? '';
  const keyMarker = call.query.get('key-marker') ?? '';
  const uploadIdMarker = call.query.get('upload-id-marker') ?? '';
  const limit = maxKeys(call, 'max-uploads');
  const encode = encodingFor(call);
  const uploads = call.store.listUploads(call.bucket).filter((upload) => upload.key.startsWith(prefix));
  // Resume after the marker upload when both markers are given, otherwise after every upload of the marker key.
  let start = 0;
  if (keyMarker !== '') {
    const markerAt = uploadIdMarker === '' ? -1 : uploads.findIndex((upload) => upload.key === keyMarker && upload.uploadId === uploadIdMarker);
    const afterKey = uploads.findIndex((upload) => compareKeys(upload.key, keyMarker) > 0);
    start = markerAt !== -1 ? markerAt + 1 : afterKey === -1 ? uploads.length : afterKey;
  }
  const candidates = uploads.slice(start);
  const page = candidates.slice(0, limit);
  const isTruncated = candidates.length > page.length;
  const last = page[page.length - 1];
  sendXml(call, 200, 'ListMultipartUploadsResult', {
    Bucket: call.bucket,
    KeyMarker: encode(keyMarker),
    UploadIdMarker: uploadIdMarker,
    NextKeyMarker: isTruncated && last ? encode(last.key) : undefined,
    NextUploadIdMarker: isTruncated && last ? last.uploadId : undefined,
    Prefix: encode(prefix),
    MaxUploads: limit,
    IsTruncated: isTruncated,
    Upload: page.map((upload) => ({
      Key: encode(upload.key),
      UploadId: upload.uploadId,
      Initiator: OWNER,
      Owner: OWNER,
      StorageClass: 'STANDARD',
      Initiated: xmlDate(upload.initiated),
    })),
    EncodingType: call.query.get('encoding-type'),
  });
}
