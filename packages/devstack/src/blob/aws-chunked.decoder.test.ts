import { Readable } from 'node:stream';
import { AwsChunkedDecoder } from './aws-chunked.decoder';
import { S3Error } from './s3-error';
import { chunkSignature, signingKey } from './sigv4.verifier';

const amzDate = '20240101T000000Z';
const scope = '20240101/us-east-1/s3/aws4_request';
const key = signingKey('secret', '20240101', 'us-east-1');
const seed = 'a'.repeat(64);
const context = { signingKey: key, amzDate, scope, signature: seed };

function encode(chunks: Buffer[], options: { badSignatureAt?: number } = {}): Buffer {
  let previous = seed;
  const parts: Buffer[] = [];
  for (const [index, chunk] of [...chunks, Buffer.alloc(0)].entries()) {
    let signature = chunkSignature(key, amzDate, scope, previous, chunk);
    previous = signature;
    if (index === options.badSignatureAt) signature = signature.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    parts.push(Buffer.from(`${chunk.length.toString(16)};chunk-signature=${signature}\r\n`), chunk, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

/** Feeds the encoded body in pieces of the given size, to cross every boundary. */
async function decode(encoded: Buffer, pieceSize: number): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < encoded.length; offset += pieceSize) pieces.push(encoded.subarray(offset, offset + pieceSize));
  const output: Buffer[] = [];
  for await (const chunk of Readable.from(pieces).pipe(new AwsChunkedDecoder(context))) output.push(chunk as Buffer);
  return Buffer.concat(output);
}

async function errorCode(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof S3Error ? error.code : String(error);
  }
  return 'no error';
}

describe('AwsChunkedDecoder', () => {
  const chunks = [Buffer.from('first chunk of data'), Buffer.from('second'), Buffer.alloc(300, 7)];

  it.each([1, 7, 64, 100_000])('when the body arrives in %i-byte pieces, then the chunks are decoded and verified', async (pieceSize) => {
    expect((await decode(encode(chunks), pieceSize)).equals(Buffer.concat(chunks))).toBe(true);
  });

  it('when a chunk signature is wrong, then SignatureDoesNotMatch', async () => {
    expect(await errorCode(decode(encode(chunks, { badSignatureAt: 1 }), 64))).toBe('SignatureDoesNotMatch');
  });

  it('when chunks are reordered, then the signature chain breaks', async () => {
    const reordered = encode([chunks[1], chunks[0], chunks[2]]);
    const original = encode(chunks);
    const firstLength = original.indexOf('\r\n', original.indexOf('\r\n') + 2) + 2;
    const secondLength = reordered.indexOf('\r\n', reordered.indexOf('\r\n') + 2) + 2;
    const spliced = Buffer.concat([reordered.subarray(0, secondLength), original.subarray(firstLength)]);
    expect(await errorCode(decode(spliced, 64))).toBe('SignatureDoesNotMatch');
  });

  it('when the body ends before the final chunk, then IncompleteBody', async () => {
    const encoded = encode(chunks);
    expect(await errorCode(decode(encoded.subarray(0, encoded.length - 90), 64))).toBe('IncompleteBody');
  });

  it('when a chunk header is malformed, then IncompleteBody', async () => {
    expect(await errorCode(decode(Buffer.from('zz;chunk-signature=nope\r\n'), 64))).toBe('IncompleteBody');
  });
});
