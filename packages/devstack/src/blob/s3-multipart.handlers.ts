// Multipart upload: initiate, upload part, list parts, complete, abort.
import { readSmallBody, requestBody } from './request-body';
import { quoted, requestedAttributes, sendEmpty, sendXml, xmlDate, type S3Call } from './s3-call';
import { s3Errors } from './s3-error';
import { MAX_KEY_BYTES } from './s3-object.handlers';
import { childList, childText, OWNER, parseXml } from './s3-xml.codec';

const MAX_PARTS = 1000;

function uploadId(call: S3Call): string {
  return call.query.get('uploadId') ?? '';
}

function partNumber(value: string | undefined): number {
  const number = value !== undefined && /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number >= 1 && number <= 10000)) throw s3Errors.invalidArgument('Part number must be an integer between 1 and 10000, inclusive', 'partNumber', value);
  return number;
}

export async function initiateUpload(call: S3Call): Promise<void> {
  if (Buffer.byteLength(call.key) > MAX_KEY_BYTES) throw s3Errors.keyTooLong();
  const upload = await call.store.createUpload(call.bucket, call.key, requestedAttributes(call.request));
  sendXml(call, 200, 'InitiateMultipartUploadResult', { Bucket: call.bucket, Key: call.key, UploadId: upload.uploadId });
}

export async function uploadPart(call: S3Call): Promise<void> {
  if (call.request.headers['x-amz-copy-source'] !== undefined) throw s3Errors.notImplemented();
  const number = partNumber(call.query.get('partNumber'));
  const upload = call.store.getUpload(call.bucket, call.key, uploadId(call));
  const body = requestBody(call.request, call.signature);
  const part = await call.store.putPart(upload, number, body.stream, body.checks);
  sendEmpty(call, 200, { etag: quoted(part.etag) });
}

export function listParts(call: S3Call): void {
  const upload = call.store.getUpload(call.bucket, call.key, uploadId(call));
  const markerText = call.query.get('part-number-marker');
  const marker = markerText === undefined ? 0 : Number(markerText);
  if (!Number.isInteger(marker) || marker < 0) throw s3Errors.invalidArgument('Argument part-number-marker must be an integer.', 'part-number-marker', markerText);
  const maxText = call.query.get('max-parts');
  const maxParts = maxText === undefined ? MAX_PARTS : Number(maxText);
  if (!Number.isInteger(maxParts) || maxParts < 0) throw s3Errors.invalidArgument('Argument max-parts must be an integer.', 'max-parts', maxText);
  const candidates = [...upload.parts.values()].filter((part) => part.partNumber > marker).sort((a, b) => a.partNumber - b.partNumber);
  const page = candidates.slice(0, Math.min(maxParts, MAX_PARTS));
  const isTruncated = candidates.length > page.length;
  sendXml(call, 200, 'ListPartsResult', {
    Bucket: call.bucket,
    Key: call.key,
    UploadId: upload.uploadId,
    Initiator: OWNER,
    Owner: OWNER,
    StorageClass: 'STANDARD',
    PartNumberMarker: marker,
    NextPartNumberMarker: page.length > 0 ? page[page.length - 1].partNumber : undefined,
    MaxParts: maxParts,
    IsTruncated: isTruncated,
    Part: page.map((part) => ({ PartNumber: part.partNumber, LastModified: xmlDate(part.lastModified), ETag: quoted(part.etag), Size: part.size })),
  });
}

export async function completeUpload(call: S3Call): Promise<void> {
  const upload = call.store.getUpload(call.bucket, call.key, uploadId(call));
  const body = await readSmallBody(requestBody(call.request, call.signature));
  const request = parseXml(body.toString('utf8')).CompleteMultipartUpload;
  const parts = childList(request, 'Part').map((part) => {
    const number = childText(part, 'PartNumber');
    const etag = childText(part, 'ETag');
    if (number === undefined || etag === undefined) throw s3Errors.malformedXml();
    return { partNumber: partNumber(number.trim()), etag: etag.trim() };
  });
  const object = await call.store.completeUpload(upload, parts);
  sendXml(call, 200, 'CompleteMultipartUploadResult', {
    Location: `${call.baseUrl}/${encodeURIComponent(call.bucket)}/${call.key.split('/').map(encodeURIComponent).join('/')}`,
    Bucket: call.bucket,
    Key: call.key,
    ETag: quoted(object.etag),
  });
}

export async function abortUpload(call: S3Call): Promise<void> {
  await call.store.abortUpload(call.store.getUpload(call.bucket, call.key, uploadId(call)));
  sendEmpty(call, 204);
}
