// The request body as the signature protects it: a plain stream with a SHA-256 to match, an
// aws-chunked stream whose chunk signatures are checked while decoding, or an unsigned payload.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { AwsChunkedDecoder } from './aws-chunked.decoder';
import type { WriteChecks } from './object.store';
import { S3Error, s3Errors } from './s3-error';
import { STREAMING_PAYLOAD, UNSIGNED_PAYLOAD, type VerifiedSignature } from './sigv4.verifier';

export interface RequestBody {
  stream: Readable;
  checks: WriteChecks;
}

function contentMd5(request: IncomingMessage): Buffer | undefined {
  const header = request.headers['content-md5'];
  if (header === undefined) return undefined;
  if (typeof header !== 'string') throw s3Errors.invalidDigest();
  const digest = Buffer.from(header, 'base64');
  if (digest.length !== 16 || digest.toString('base64') !== header.trim()) throw s3Errors.invalidDigest();
  return digest;
}

function declaredLength(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw s3Errors.invalidArgument('Content-Length must be a non-negative integer.');
  return Number(value);
}

export function requestBody(request: IncomingMessage, signature: VerifiedSignature): RequestBody {
  const md5 = contentMd5(request);
  if (signature.payloadHash === STREAMING_PAYLOAD) {
    const size = declaredLength(request.headers['x-amz-decoded-content-length'] as string | undefined);
    if (size === undefined) throw new S3Error(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
    return { stream: request.pipe(new AwsChunkedDecoder(signature)), checks: { md5, size } };
  }
  const size = declaredLength(request.headers['content-length']);
  const sha256 = signature.payloadHash === UNSIGNED_PAYLOAD ? undefined : signature.payloadHash;
  return { stream: request, checks: { md5, size, sha256 } };
}

/** Reads a small (XML) body whole, with the same checks a stored body gets. */
export async function readSmallBody(body: RequestBody, limit = 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body.stream) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new S3Error(400, 'MaxMessageLengthExceeded', 'Your request was too big.');
    chunks.push(chunk as Buffer);
  }
  const content = Buffer.concat(chunks);
  if (body.checks.size !== undefined && content.length !== body.checks.size) throw s3Errors.incompleteBody();
  if (body.checks.sha256 !== undefined) {
    const computed = createHash('sha256').update(content).digest('hex');
    if (computed !== body.checks.sha256) throw s3Errors.contentSha256Mismatch(body.checks.sha256, computed);
  }
  if (body.checks.md5 !== undefined && !createHash('md5').update(content).digest().equals(body.checks.md5)) throw s3Errors.badDigest();
  return content;
}
