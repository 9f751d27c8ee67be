// Validly signed but wrong requests get S3's error codes, and the server keeps serving.
import crypto from 'node:crypto';
import http from 'node:http';
import * as Minio from 'minio';
import { signV4 } from 'minio/dist/main/signing.js';
import { startBlob, type RunningBlob } from '@destiny/devstack/blob';

let blob: RunningBlob;
let client: Minio.Client;
const bucket = 'inputs';

const sha256 = (content: Buffer) => crypto.createHash('sha256').update(content).digest('hex');
const amzDate = (date: Date) => date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** A request signed exactly as minio signs, sent with fetch; path and query must already be encoded. */
async function signedFetch(method: string, pathAndQuery: string, options: { body?: Buffer; headers?: Record<string, string> } = {}): Promise<Response> {
  const body = options.body ?? Buffer.alloc(0);
  const now = new Date();
  const headers: Record<string, string> = { 'x-amz-date': amzDate(now), 'x-amz-content-sha256': sha256(body), ...options.headers };
  const authorization = signV4(
    { method, path: pathAndQuery, headers: { ...headers, host: `127.0.0.1:${blob.port}` }, protocol: 'http:' } as never,
    blob.accessKey,
    blob.secretKey,
    blob.region,
    now,
    sha256(body),
  );
  return fetch(`${blob.url}${pathAndQuery}`, { method, headers: { ...headers, authorization }, body: method === 'GET' || method === 'HEAD' ? undefined : body });
}

async function expectS3Error(response: Response, status: number, code: string): Promise<void> {
  const body = await response.text();
  expect({ status: response.status, code: /<Code>([^<]*)<\/Code>/.exec(body)?.[1] }).toEqual({ status, code });
}

beforeAll(async () => {
  blob = await startBlob({ port: 0 });
  client = new Minio.Client({ endPoint: '127.0.0.1', port: blob.port, useSSL: false, accessKey: blob.accessKey, secretKey: blob.secretKey });
  await client.makeBucket(bucket);
  await client.putObject(bucket, 'present.txt', Buffer.from('present'));
});

afterAll(async () => {
  await blob.stop();
});

describe('signed requests with bad input', () => {
  it('when a bucket name breaks the naming rules, then 400 InvalidBucketName', async () => {
    await expectS3Error(await signedFetch('PUT', '/Bad_Bucket'), 400, 'InvalidBucketName');
    await expectS3Error(await signedFetch('PUT', '/ab'), 400, 'InvalidBucketName');
    await expectS3Error(await signedFetch('PUT', '/a..b'), 400, 'InvalidBucketName');
  });

  it('when a bucket is created for another region, then 400 InvalidLocationConstraint', async () => {
    const body = Buffer.from('<CreateBucketConfiguration><LocationConstraint>eu-west-2</LocationConstraint></CreateBucketConfiguration>');
    await expectS3Error(await signedFetch('PUT', '/elsewhere', { body }), 400, 'InvalidLocationConstraint');
  });

  it('when a bucket is asked for with Object Lock, then 501 NotImplemented and no bucket', async () => {
    await expectS3Error(await signedFetch('PUT', '/locked', { headers: { 'x-amz-bucket-object-lock-enabled': 'true' } }), 501, 'NotImplemented');
    expect(await client.bucketExists('locked')).toBe(false);
  });

  it('when a multi-object delete body is not XML, then 400 MalformedXML', async () => {
    await expectS3Error(await signedFetch('POST', `/${bucket}?delete`, { body: Buffer.from('<Delete><Object>') }), 400, 'MalformedXML');
  });

  it('when Content-MD5 does not match the body, then 400 BadDigest and nothing is stored', async () => {
    const headers = { 'content-md5': crypto.createHash('md5').update('something else').digest('base64') };
    await expectS3Error(await signedFetch('PUT', `/${bucket}/digest.txt`, { body: Buffer.from('content'), headers }), 400, 'BadDigest');
    await expectS3Error(await signedFetch('GET', `/${bucket}/digest.txt`), 404, 'NoSuchKey');
  });

  it('when a key is longer than 1024 bytes, then 400 KeyTooLongError', async () => {
    await expectS3Error(await signedFetch('PUT', `/${bucket}/${'k'.repeat(1025)}`, { body: Buffer.from('x') }), 400, 'KeyTooLongError');
  });

  it('when a part number is out of range or the upload is unknown, then InvalidArgument or NoSuchUpload', async () => {
    const uploadId = await client.initiateNewMultipartUpload(bucket, 'parts.bin', {});
    await expectS3Error(await signedFetch('PUT', `/${bucket}/parts.bin?partNumber=0&uploadId=${uploadId}`, { body: Buffer.from('x') }), 400, 'InvalidArgument');
    await expectS3Error(await signedFetch('PUT', `/${bucket}/parts.bin?partNumber=10001&uploadId=${uploadId}`, { body: Buffer.from('x') }), 400, 'InvalidArgument');
    await expectS3Error(await signedFetch('PUT', `/${bucket}/parts.bin?partNumber=1&uploadId=nope`, { body: Buffer.from('x') }), 404, 'NoSuchUpload');
    const complete = Buffer.from('<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"x"</ETag></Part></CompleteMultipartUpload>');
    await expectS3Error(await signedFetch('POST', `/${bucket}/parts.bin?uploadId=nope`, { body: complete }), 404, 'NoSuchUpload');
  });

  it('when list parameters are invalid, then 400 InvalidArgument', async () => {
    await expectS3Error(await signedFetch('GET', `/${bucket}?list-type=2&max-keys=many`), 400, 'InvalidArgument');
    await expectS3Error(await signedFetch('GET', `/${bucket}?list-type=2&continuation-token=forged`), 400, 'InvalidArgument');
    await expectS3Error(await signedFetch('GET', `/${bucket}?encoding-type=base64`), 400, 'InvalidArgument');
  });

  it('when a sub-resource this stand-in lacks is asked for, then 501 NotImplemented', async () => {
    await expectS3Error(await signedFetch('GET', `/${bucket}?versioning`), 501, 'NotImplemented');
    await expectS3Error(await signedFetch('GET', `/${bucket}/present.txt?tagging`), 501, 'NotImplemented');
  });

  it('when an unsupported method is used, then 405 MethodNotAllowed', async () => {
    await expectS3Error(await signedFetch('PATCH', `/${bucket}/present.txt`, { body: Buffer.from('x') }), 405, 'MethodNotAllowed');
  });

  it('when an object is copied onto itself without new metadata, then 400 InvalidRequest', async () => {
    await expectS3Error(await signedFetch('PUT', `/${bucket}/present.txt`, { headers: { 'x-amz-copy-source': `/${bucket}/present.txt` } }), 400, 'InvalidRequest');
  });

  it('when the path has a broken percent-escape, then 400 InvalidArgument', async () => {
    await expectS3Error(await signedFetch('GET', `/${bucket}/%E0%A4%A.txt`), 400, 'InvalidArgument');
  });

  it('when a GET is conditional, then 304 for a current copy and 412 for a failed If-Match', async () => {
    const etag = (await client.statObject(bucket, 'present.txt')).etag;
    expect((await signedFetch('GET', `/${bucket}/present.txt`, { headers: { 'if-none-match': `"${etag}"` } })).status).toBe(304);
    await expectS3Error(await signedFetch('GET', `/${bucket}/present.txt`, { headers: { 'if-match': '"0123"' } }), 412, 'PreconditionFailed');
  });

  it('when a HEAD misses, then 404 with an empty body', async () => {
    const response = await signedFetch('HEAD', `/${bucket}/absent.txt`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
  });

  it('when the client disconnects midway through an upload, then nothing is stored', async () => {
    const now = new Date();
    const path = `/${bucket}/cut-short.bin`;
    const headers: Record<string, string> = { host: `127.0.0.1:${blob.port}`, 'x-amz-date': amzDate(now), 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' };
    const authorization = signV4({ method: 'PUT', path, headers, protocol: 'http:' } as never, blob.accessKey, blob.secretKey, blob.region, now, 'UNSIGNED-PAYLOAD');
    await new Promise<void>((resolve) => {
      const request = http.request({ host: '127.0.0.1', port: blob.port, method: 'PUT', path, headers: { ...headers, authorization, 'content-length': 1_000_000 } });
      request.on('error', () => undefined);
      request.on('close', () => resolve());
      request.write(Buffer.alloc(10_000), () => request.destroy());
    });
    await expectS3Error(await signedFetch('GET', path), 404, 'NoSuchKey');
  });

  it('when all of the above has happened, then the server still serves', async () => {
    expect((await client.listBuckets()).map((one) => one.name)).toEqual([bucket]);
  });
});
