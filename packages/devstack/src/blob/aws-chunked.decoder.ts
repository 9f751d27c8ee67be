// Decodes an `aws-chunked` body sent with x-amz-content-sha256: STREAMING-AWS4-HMAC-SHA256-PAYLOAD,
// checking each chunk's signature against the chain seeded by the request signature.
// Wire format per chunk: `<hex size>;chunk-signature=<64 hex>\r\n<size bytes>\r\n`, ending with a 0-size chunk.
import crypto from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { S3Error, s3Errors } from './s3-error';
import { chunkSignatureOfHash, signaturesEqual, type VerifiedSignature } from './sigv4.verifier';

const MAX_HEADER_LENGTH = 4096;
const CHUNK_HEADER = /^([0-9a-fA-F]{1,16});chunk-signature=([0-9a-f]{64})$/;

const chunkSignatureMismatch = () =>
  new S3Error(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.');

export class AwsChunkedDecoder extends Transform {
  private state: 'header' | 'data' | 'data-end' | 'done' = 'header';
  private header = Buffer.alloc(0);
  private remaining = 0;
  private chunkSize = 0;
  private claimedSignature = '';
  private hash = crypto.createHash('sha256');
  private previousSignature: string;

  constructor(private readonly signature: Pick<VerifiedSignature, 'signingKey' | 'amzDate' | 'scope' | 'signature'>) {
    super();
    this.previousSignature = signature.signature;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.consume(chunk);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    callback(this.state === 'done' ? null : s3Errors.incompleteBody());
  }

  private consume(input: Buffer): void {
    let offset = 0;
    while (offset < input.length) {
      if (this.state === 'header' || this.state === 'data-end') {
        const lineEnd = input.indexOf('\n', offset);
        const piece = input.subarray(offset, lineEnd === -1 ? input.length : lineEnd + 1);
        this.header = Buffer.concat([this.header, piece]);
        offset += piece.length;
        if (this.header.length > MAX_HEADER_LENGTH) throw s3Errors.incompleteBody();
        if (lineEnd === -1) return;
        const line = this.header.toString('latin1');
        this.header = Buffer.alloc(0);
        if (!line.endsWith('\r\n')) throw s3Errors.incompleteBody();
        if (this.state === 'data-end') {
          if (line !== '\r\n') throw s3Errors.incompleteBody();
          this.finishChunk();
        } else {
          this.startChunk(line.slice(0, -2));
        }
      } else if (this.state === 'data') {
        const take = Math.min(this.remaining, input.length - offset);
        const data = input.subarray(offset, offset + take);
        this.hash.update(data);
        this.push(data);
        this.remaining -= take;
        offset += take;
        if (this.remaining === 0) this.state = 'data-end';
      } else {
        throw s3Errors.incompleteBody();
      }
    }
  }

  private startChunk(line: string): void {
    const match = CHUNK_HEADER.exec(line);
    if (!match) throw s3Errors.incompleteBody();
    this.chunkSize = Number.parseInt(match[1], 16);
    this.remaining = this.chunkSize;
    this.claimedSignature = match[2];
    this.hash = crypto.createHash('sha256');
    // The final, empty chunk carries no data but is still followed by CRLF.
    this.state = this.chunkSize === 0 ? 'data-end' : 'data';
  }

  private finishChunk(): void {
    const { signingKey, amzDate, scope } = this.signature;
    const expected = chunkSignatureOfHash(signingKey, amzDate, scope, this.previousSignature, this.hash.digest('hex'));
    if (!signaturesEqual(expected, this.claimedSignature)) throw chunkSignatureMismatch();
    this.previousSignature = this.claimedSignature;
    this.state = this.chunkSize === 0 ? 'done' : 'header';
  }
}
