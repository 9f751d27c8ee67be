// Every request must carry a valid SigV4 signature: presigned URLs used with plain fetch, requests signed
// by the minio client and then tampered with in transit, wrong keys, expired and skewed requests.
import crypto from 'node:crypto';
import http, { type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import * as Minio from 'minio';
import { signV4 } from 'minio/dist/main/signing.js';
import { startBlob, type RunningBlob } from '@destiny/devstack/blob';
import { chunkSignature, signingKey } from '@destiny/devstack/blob/sigv4.verifier';

let blob: RunningBlob;
let client: Minio.Client;
const bucket = 'signed';

const sha256 = (content: Buffer | string) => crypto.createHash('sha256').update(content).digest('hex');
const amzDate = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

function clientWith(overrides: Partial<Minio.ClientOptions> = {}): Minio.Client {
  return new Minio.Client({ endPoint: '127.0.0.1', port: blob.port, useSSL: false, accessKey: blob.accessKey, secretKey: blob.secretKey, region: blob.region, ...overrides });
}

/** A minio client whose signed requests are altered just before they go on the wire. */
function tamperingClient(tamper: (options: RequestOptions & { headers: Record<string, string> }) => void, replaceBody?: (body: Buffer) => Buffer): Minio.Client {
  const transport = {
    request: (options: RequestOptions & { headers: Record<string, string> }, callback: (response: IncomingMessage) => void): ClientRequest => {
      tamper(options);
      const request = http.request(options, callback);
      if (replaceBody) {
        const end = request.end.bind(request) as (body?: Buffer) => ClientRequest;
        (request as unknown as { end: (body?: Buffer) => ClientRequest }).end = (body?: Buffer) => end(replaceBody(body ?? Buffer.alloc(0)));
      }
      return request;
    },
  };
  return clientWith({ transport: transport as never });
}

async function s3ErrorOf(promise: Promise<unknown>): Promise<{ code?: string; message?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message?: string };
  }
  throw new Error('expected the S3 call to fail');
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function expectS3Error(response: Response, status: number, code: string): Promise<string> {
  const body = await response.text();
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/xml');
  expect(body).toContain(`<Error><Code>${code}</Code>`);
  return body;
}

async function objectExists(key: string): Promise<boolean> {
  try {
    await client.statObject(bucket, key);
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === 'NotFound') return false;
    throw error;
  }
}

beforeAll(async () => {
  blob = await startBlob({ port: 0 });
  client = clientWith();
  await client.makeBucket(bucket);
  await client.putObject(bucket, 'secret.txt', Buffer.from('top secret'));
  await client.putObject(bucket, 'public.txt', Buffer.from('public'));
});

afterAll(async () => {
  await blob.stop();
});

describe('presigned URLs used with plain fetch', () => {
  it('when a presigned PUT uploads and a presigned GET downloads, then the bytes round-trip', async () => {
    const content = crypto.randomBytes(200_000);
    const putUrl = await client.presignedPutObject(bucket, 'uploads/via fetch.bin', 300);
    const put = await fetch(putUrl, { method: 'PUT', body: content, headers: { 'content-type': 'application/octet-stream' } });
    expect(put.status).toBe(200);
    expect(put.headers.get('etag')).toBe(`"${crypto.createHash('md5').update(content).digest('hex')}"`);

    const get = await fetch(await client.presignedGetObject(bucket, 'uploads/via fetch.bin', 300));
    expect(get.status).toBe(200);
    expect(Buffer.from(await get.arrayBuffer()).equals(content)).toBe(true);
  });

  it('when presignedUrl asks for response headers, then the download carries them', async () => {
    const url = await client.presignedUrl('GET', bucket, 'public.txt', 300, { 'response-content-type': 'text/csv', 'response-content-disposition': 'attachment; filename="p.csv"' });
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="p.csv"');
    expect(await response.text()).toBe('public');
  });

  it('when a presigned URL has expired, then 403 AccessDenied "Request has expired" and no object', async () => {
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    const url = await client.presignedGetObject(bucket, 'secret.txt', 60, {}, twoHoursAgo);
    const body = await expectS3Error(await fetch(url), 403, 'AccessDenied');
    expect(body).toContain('<Message>Request has expired</Message>');
    expect(body).not.toContain('top secret');
  });

  it('when the path of a presigned URL is changed to another key, then 403 SignatureDoesNotMatch', async () => {
    const url = await client.presignedGetObject(bucket, 'public.txt', 300);
    const body = await expectS3Error(await fetch(url.replace('/public.txt?', '/secret.txt?')), 403, 'SignatureDoesNotMatch');
    expect(body).not.toContain('top secret');
  });

  it('when the expiry or signature of a presigned URL is changed, then 403 SignatureDoesNotMatch', async () => {
    const url = await client.presignedGetObject(bucket, 'public.txt', 300);
    await expectS3Error(await fetch(url.replace('X-Amz-Expires=300', 'X-Amz-Expires=3000')), 403, 'SignatureDoesNotMatch');
    const signature = new URL(url).searchParams.get('X-Amz-Signature') as string;
    const flipped = signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0');
    await expectS3Error(await fetch(url.replace(signature, flipped)), 403, 'SignatureDoesNotMatch');
  });

  it('when a presigned GET URL is used to PUT, then 403 SignatureDoesNotMatch and nothing is written', async () => {
    const url = await client.presignedGetObject(bucket, 'hijack.txt', 300);
    await expectS3Error(await fetch(url, { method: 'PUT', body: 'overwritten' }), 403, 'SignatureDoesNotMatch');
    expect(await objectExists('hijack.txt')).toBe(false);
  });

  it('when a URL is presigned with the wrong secret, then 403 SignatureDoesNotMatch', async () => {
    const url = await clientWith({ secretKey: 'not-the-secret' }).presignedGetObject(bucket, 'secret.txt', 300);
    await expectS3Error(await fetch(url), 403, 'SignatureDoesNotMatch');
  });

  it('when a URL is presigned with an unknown access key, then 403 InvalidAccessKeyId', async () => {
    const url = await clientWith({ accessKey: 'intruder' }).presignedGetObject(bucket, 'secret.txt', 300);
    await expectS3Error(await fetch(url), 403, 'InvalidAccessKeyId');
  });

  it('when a presigned GET names a missing key or bucket, then 404 NoSuchKey or NoSuchBucket XML', async () => {
    await expectS3Error(await fetch(await client.presignedGetObject(bucket, 'absent.txt', 300)), 404, 'NoSuchKey');
    await expectS3Error(await fetch(await client.presignedGetObject('absent-bucket', 'absent.txt', 300)), 404, 'NoSuchBucket');
  });

  it('when a request carries no signature at all, then 403 AccessDenied', async () => {
    await expectS3Error(await fetch(`${blob.url}/${bucket}/secret.txt`), 403, 'AccessDenied');
  });
});

describe('requests signed in the Authorization header', () => {
  it('when the client uses the wrong secret, then SignatureDoesNotMatch', async () => {
    expect((await s3ErrorOf(clientWith({ secretKey: 'wrong' }).listBuckets())).code).toBe('SignatureDoesNotMatch');
  });

  it('when the client uses an unknown access key, then InvalidAccessKeyId', async () => {
    expect((await s3ErrorOf(clientWith({ accessKey: 'stranger' }).getObject(bucket, 'secret.txt'))).code).toBe('InvalidAccessKeyId');
  });

  it('when the path is changed after signing, then SignatureDoesNotMatch and the other object is not served', async () => {
    const tampering = tamperingClient((options) => {
      options.path = options.path?.replace('/public.txt', '/secret.txt');
    });
    expect((await s3ErrorOf(tampering.getObject(bucket, 'public.txt'))).code).toBe('SignatureDoesNotMatch');
  });

  it('when a query parameter is added after signing, then SignatureDoesNotMatch', async () => {
    const tampering = tamperingClient((options) => {
      options.path = `${options.path}?response-content-type=text%2Fhtml`;
    });
    expect((await s3ErrorOf(tampering.getObject(bucket, 'public.txt'))).code).toBe('SignatureDoesNotMatch');
  });

  it('when a signed header is changed after signing, then SignatureDoesNotMatch and nothing is written', async () => {
    const tampering = tamperingClient((options) => {
      options.headers['x-amz-meta-owner'] = 'mallory';
    });
    expect((await s3ErrorOf(tampering.putObject(bucket, 'owned.txt', Buffer.from('x'), 1, { owner: 'alice' }))).code).toBe('SignatureDoesNotMatch');
    expect(await objectExists('owned.txt')).toBe(false);
  });

  it('when the body and its x-amz-content-sha256 are both replaced, then SignatureDoesNotMatch and nothing is written', async () => {
    const forged = Buffer.from('forged!');
    const tampering = tamperingClient(
      (options) => {
        options.headers['x-amz-content-sha256'] = sha256(forged);
      },
      () => forged,
    );
    expect((await s3ErrorOf(tampering.putObject(bucket, 'forged.txt', Buffer.from('honest!')))).code).toBe('SignatureDoesNotMatch');
    expect(await objectExists('forged.txt')).toBe(false);
  });

  it('when only the body is replaced, then XAmzContentSHA256Mismatch and nothing is written', async () => {
    const tampering = tamperingClient(
      () => undefined,
      () => Buffer.from('forged!'),
    );
    expect((await s3ErrorOf(tampering.putObject(bucket, 'swapped.txt', Buffer.from('honest!')))).code).toBe('XAmzContentSHA256Mismatch');
    expect(await objectExists('swapped.txt')).toBe(false);
  });

  it('when the request was signed more than 15 minutes ago, then 403 RequestTimeTooSkewed', async () => {
    const signedAt = new Date(Date.now() - 20 * 60 * 1000);
    const headers: Record<string, string> = { host: `127.0.0.1:${blob.port}`, 'x-amz-date': amzDate(signedAt), 'x-amz-content-sha256': sha256('') };
    const authorization = signV4({ method: 'GET', path: `/${bucket}/public.txt`, headers, protocol: 'http:' } as never, blob.accessKey, blob.secretKey, blob.region, signedAt, sha256(''));
    const response = await fetch(`${blob.url}/${bucket}/public.txt`, { headers: { ...headers, authorization } });
    await expectS3Error(response, 403, 'RequestTimeTooSkewed');
  });
});

describe('STREAMING-AWS4-HMAC-SHA256-PAYLOAD uploads', () => {
  /** Sends an aws-chunked PUT signed as the AWS documentation describes; `corrupt` flips a byte of one chunk in transit. */
  async function streamingPut(key: string, chunks: Buffer[], corrupt?: number): Promise<{ status: number; body: string }> {
    const now = new Date();
    const date = amzDate(now);
    const decodedLength = chunks.reduce((total, chunk) => total + chunk.length, 0);
    const headers: Record<string, string> = {
      host: `127.0.0.1:${blob.port}`,
      'x-amz-date': date,
      'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD',
      'x-amz-decoded-content-length': String(decodedLength),
      'content-encoding': 'aws-chunked',
    };
    const path = `/${bucket}/${key}`;
    const authorization = signV4({ method: 'PUT', path, headers, protocol: 'http:' } as never, blob.accessKey, blob.secretKey, blob.region, now, 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD');
    const seed = /Signature=([0-9a-f]{64})/.exec(authorization)?.[1] as string;
    const key4 = signingKey(blob.secretKey, date.slice(0, 8), blob.region);
    const scope = `${date.slice(0, 8)}/${blob.region}/s3/aws4_request`;
    let previous = seed;
    const encoded: Buffer[] = [];
    for (const [index, chunk] of [...chunks, Buffer.alloc(0)].entries()) {
      const signature = chunkSignature(key4, date, scope, previous, chunk);
      previous = signature;
      const sent = index === corrupt ? Buffer.from(chunk.map((byte, at) => (at === 0 ? byte ^ 1 : byte))) : chunk;
      encoded.push(Buffer.from(`${chunk.length.toString(16)};chunk-signature=${signature}\r\n`), sent, Buffer.from('\r\n'));
    }
    const body = Buffer.concat(encoded);
    return new Promise((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port: blob.port, method: 'PUT', path, headers: { ...headers, authorization, 'content-length': body.length } }, (response) => {
        void readAll(response).then((content) => resolve({ status: response.statusCode ?? 0, body: content.toString() }), reject);
      });
      request.on('error', reject);
      request.end(body);
    });
  }

  it('when every chunk signature chains correctly, then the decoded bytes are stored', async () => {
    const chunks = [crypto.randomBytes(65536), crypto.randomBytes(1000)];
    const response = await streamingPut('streamed/ok.bin', chunks);
    expect(response.status).toBe(200);
    const stored = await readAll(await client.getObject(bucket, 'streamed/ok.bin'));
    expect(stored.equals(Buffer.concat(chunks))).toBe(true);
    expect((await client.statObject(bucket, 'streamed/ok.bin')).metaData['content-encoding']).toBeUndefined();
  });

  it('when a chunk is altered in transit, then 403 SignatureDoesNotMatch and nothing is written', async () => {
    const response = await streamingPut('streamed/bad.bin', [crypto.randomBytes(65536), crypto.randomBytes(1000)], 1);
    expect(response.status).toBe(403);
    expect(response.body).toContain('<Code>SignatureDoesNotMatch</Code>');
    expect(await objectExists('streamed/bad.bin')).toBe(false);
  });
});
