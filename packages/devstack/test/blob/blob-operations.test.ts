// The blob stand-in driven by the official minio client over TCP: buckets, objects, listing, copy, multipart.
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import * as Minio from 'minio';
import { startBlob, type RunningBlob } from '@destiny/devstack/blob';

let blob: RunningBlob;
let client: Minio.Client;

beforeAll(async () => {
  blob = await startBlob({ port: 0 });
  client = new Minio.Client({ endPoint: '127.0.0.1', port: blob.port, useSSL: false, accessKey: blob.accessKey, secretKey: blob.secretKey });
});

afterAll(async () => {
  await blob.stop();
});

/** minio calls ListParts itself to resume uploads; its typings mark the method protected. */
const listParts = (minio: Minio.Client, bucket: string, key: string, uploadId: string) =>
  (minio as unknown as { listParts(bucket: string, key: string, uploadId: string): Promise<Array<{ part: number; size: number; etag: string }>> }).listParts(bucket, key, uploadId);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function collect<T>(stream: NodeJS.ReadableStream): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item as T);
  return items;
}

async function s3ErrorOf(promise: Promise<unknown>): Promise<{ code?: string; message?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: string; message?: string };
  }
  throw new Error('expected the S3 call to fail');
}

const md5 = (content: Buffer) => crypto.createHash('md5').update(content).digest('hex');
let bucketCounter = 0;
const freshBucket = async () => {
  bucketCounter += 1;
  const name = `ops-${bucketCounter}-${crypto.randomBytes(3).toString('hex')}`;
  await client.makeBucket(name);
  return name;
};

describe('buckets', () => {
  it('when a bucket is made, then it exists, is listed, and can be removed again', async () => {
    const name = await freshBucket();
    expect(await client.bucketExists(name)).toBe(true);
    expect((await client.listBuckets()).map((bucket) => bucket.name)).toContain(name);
    await client.removeBucket(name);
    expect(await client.bucketExists(name)).toBe(false);
    expect((await client.listBuckets()).map((bucket) => bucket.name)).not.toContain(name);
  });

  it('when a bucket is made twice, then the second attempt fails with BucketAlreadyOwnedByYou', async () => {
    const name = await freshBucket();
    expect((await s3ErrorOf(client.makeBucket(name))).code).toBe('BucketAlreadyOwnedByYou');
  });

  it('when a bucket still holds objects, then removing it fails with BucketNotEmpty', async () => {
    const name = await freshBucket();
    await client.putObject(name, 'keep.txt', Buffer.from('x'));
    expect((await s3ErrorOf(client.removeBucket(name))).code).toBe('BucketNotEmpty');
    expect(await client.bucketExists(name)).toBe(true);
  });

  it('when a missing bucket is removed or listed, then NoSuchBucket', async () => {
    expect((await s3ErrorOf(client.removeBucket('never-made'))).code).toBe('NoSuchBucket');
    expect((await s3ErrorOf(collect(client.listObjectsV2('never-made', '', true)))).code).toBe('NoSuchBucket');
  });
});

describe('objects', () => {
  let bucket: string;
  beforeAll(async () => {
    bucket = await freshBucket();
  });

  it('when a Buffer is put with metadata, then get returns the bytes and stat the size, ETag and metadata', async () => {
    const content = Buffer.from('{"hello":"world"}');
    const put = await client.putObject(bucket, 'docs/hello.json', content, content.length, { 'Content-Type': 'application/json', 'X-Amz-Meta-Origin': 'unit', reference: 'r-1' });
    expect(put.etag).toBe(md5(content));
    expect(await readAll(await client.getObject(bucket, 'docs/hello.json'))).toEqual(content);
    const stat = await client.statObject(bucket, 'docs/hello.json');
    expect(stat.size).toBe(content.length);
    expect(stat.etag).toBe(md5(content));
    expect(stat.metaData).toMatchObject({ 'content-type': 'application/json', origin: 'unit', reference: 'r-1' });
    expect(Math.abs(stat.lastModified.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('when a stream is put, then the stored bytes equal what was streamed', async () => {
    const chunks = Array.from({ length: 20 }, (_, index) => crypto.randomBytes(10_000 + index));
    const content = Buffer.concat(chunks);
    await client.putObject(bucket, 'streamed.bin', Readable.from(chunks), content.length);
    const stored = await readAll(await client.getObject(bucket, 'streamed.bin'));
    expect(md5(stored)).toBe(md5(content));
  });

  it('when a stream of unknown length is put, then minio sends it as a one-part multipart upload and it is stored', async () => {
    // The services' blob storage (packages/platform) puts Readables without a size, like this.
    const configured = new Minio.Client({ endPoint: '127.0.0.1', port: blob.port, useSSL: false, accessKey: blob.accessKey, secretKey: blob.secretKey, region: 'us-east-1', pathStyle: true });
    const content = crypto.randomBytes(300_000);
    const result = await configured.putObject(bucket, 'unknown-length.bin', Readable.from([content.subarray(0, 100_000), content.subarray(100_000)]), undefined, { 'Content-Type': 'application/x-ndjson' });
    expect(result.etag).toMatch(/-1$/);
    expect((await readAll(await configured.getObject(bucket, 'unknown-length.bin'))).equals(content)).toBe(true);
    expect((await configured.statObject(bucket, 'unknown-length.bin')).metaData['content-type']).toBe('application/x-ndjson');
  });

  it('when an object is put again, then the new content replaces the old', async () => {
    await client.putObject(bucket, 'replaced.txt', Buffer.from('first'));
    await client.putObject(bucket, 'replaced.txt', Buffer.from('second version'));
    expect((await readAll(await client.getObject(bucket, 'replaced.txt'))).toString()).toBe('second version');
    expect((await client.statObject(bucket, 'replaced.txt')).size).toBe(14);
  });

  it('when an empty object is put, then it reads back empty', async () => {
    await client.putObject(bucket, 'empty', Buffer.alloc(0));
    expect((await readAll(await client.getObject(bucket, 'empty'))).length).toBe(0);
    expect((await client.statObject(bucket, 'empty')).size).toBe(0);
  });

  it('when part of an object is asked for, then only that byte range is returned', async () => {
    await client.putObject(bucket, 'alphabet.txt', Buffer.from('abcdefghijklmnopqrstuvwxyz'));
    expect((await readAll(await client.getPartialObject(bucket, 'alphabet.txt', 3, 4))).toString()).toBe('defg');
    expect((await readAll(await client.getPartialObject(bucket, 'alphabet.txt', 20))).toString()).toBe('uvwxyz');
  });

  it('when a range starts past the end, then InvalidRange', async () => {
    await client.putObject(bucket, 'short.txt', Buffer.from('abc'));
    expect((await s3ErrorOf(client.getPartialObject(bucket, 'short.txt', 10, 2))).code).toBe('InvalidRange');
  });

  it('when a missing key is read, then NoSuchKey (and stat reports NotFound)', async () => {
    expect((await s3ErrorOf(client.getObject(bucket, 'missing.txt'))).code).toBe('NoSuchKey');
    expect((await s3ErrorOf(client.statObject(bucket, 'missing.txt'))).code).toBe('NotFound');
  });

  it('when an object is read from a missing bucket, then NoSuchBucket', async () => {
    expect((await s3ErrorOf(client.getObject('no-such-bucket-here', 'a.txt'))).code).toBe('NoSuchBucket');
  });

  it('when keys need escaping, then they round-trip through put, get and list', async () => {
    const keys = ['odd/with space.txt', "odd/plus+and'quote(1)!*.txt", 'odd/ünïcödé-😀.txt', 'odd/percent%20literal.txt'];
    for (const key of keys) await client.putObject(bucket, key, Buffer.from(key));
    for (const key of keys) expect((await readAll(await client.getObject(bucket, key))).toString()).toBe(key);
    const listed = await collect<{ name: string }>(client.listObjectsV2(bucket, 'odd/', true));
    expect(listed.map((item) => item.name).sort()).toEqual([...keys].sort());
  });

  it('when an object is removed, then it is gone, and removing it again still succeeds', async () => {
    await client.putObject(bucket, 'doomed.txt', Buffer.from('x'));
    await client.removeObject(bucket, 'doomed.txt');
    expect((await s3ErrorOf(client.statObject(bucket, 'doomed.txt'))).code).toBe('NotFound');
    await expect(client.removeObject(bucket, 'doomed.txt')).resolves.toBeUndefined();
  });

  it('when several objects are removed at once, then all of them are gone and others remain', async () => {
    for (const key of ['bulk/1', 'bulk/2', 'bulk/3', 'bulk/keep']) await client.putObject(bucket, key, Buffer.from(key));
    const failures = await client.removeObjects(bucket, ['bulk/1', 'bulk/2', 'bulk/3', 'bulk/never-existed']);
    expect(failures).toEqual([]);
    const left = await collect<{ name: string }>(client.listObjects(bucket, 'bulk/', true));
    expect(left.map((item) => item.name)).toEqual(['bulk/keep']);
  });

  it('when an object is copied, then the copy has the same bytes, ETag and metadata', async () => {
    const content = Buffer.from('copy me');
    await client.putObject(bucket, 'original.txt', content, content.length, { 'Content-Type': 'text/plain', 'x-amz-meta-kind': 'source' });
    const conditions = new Minio.CopyConditions();
    const copied = await client.copyObject(bucket, 'copied.txt', `/${bucket}/original.txt`, conditions);
    expect((copied as { etag: string }).etag).toBe(md5(content));
    expect((await readAll(await client.getObject(bucket, 'copied.txt'))).toString()).toBe('copy me');
    expect((await client.statObject(bucket, 'copied.txt')).metaData).toMatchObject({ 'content-type': 'text/plain', kind: 'source' });
  });
});

describe('listing', () => {
  let bucket: string;
  const keys = ['a.txt', 'docs/2024/report.pdf', 'docs/readme.md', 'docs/zz.md', 'photos/cat.jpg', 'z.txt'];
  beforeAll(async () => {
    bucket = await freshBucket();
    for (const key of keys) await client.putObject(bucket, key, Buffer.from(key));
  });

  it('when listing recursively (v1 and v2), then every key comes back in order with sizes and ETags', async () => {
    for (const list of [client.listObjects(bucket, '', true), client.listObjectsV2(bucket, '', true)]) {
      const items = await collect<{ name: string; size: number; etag: string }>(list);
      expect(items.map((item) => item.name)).toEqual(keys);
      expect(items[0]).toMatchObject({ size: 5, etag: md5(Buffer.from('a.txt')) });
    }
  });

  it('when listing non-recursively, then sub-folders come back as prefixes', async () => {
    for (const list of [client.listObjects(bucket, '', false), client.listObjectsV2(bucket, '', false)]) {
      const items = await collect<{ name?: string; prefix?: string }>(list);
      expect(items.map((item) => item.name ?? item.prefix).sort()).toEqual(['a.txt', 'docs/', 'photos/', 'z.txt']);
    }
  });

  it('when listing under a prefix, then only keys under it come back, one level deep unless recursive', async () => {
    const shallow = await collect<{ name?: string; prefix?: string }>(client.listObjectsV2(bucket, 'docs/', false));
    expect(shallow.map((item) => item.name ?? item.prefix).sort()).toEqual(['docs/2024/', 'docs/readme.md', 'docs/zz.md']);
    const deep = await collect<{ name: string }>(client.listObjects(bucket, 'docs/', true));
    expect(deep.map((item) => item.name)).toEqual(['docs/2024/report.pdf', 'docs/readme.md', 'docs/zz.md']);
  });

  it('when there are more keys than one page, then the client pages through all of them', async () => {
    const many = await freshBucket();
    const names = Array.from({ length: 1005 }, (_, index) => `k/${String(index).padStart(5, '0')}`);
    for (let start = 0; start < names.length; start += 50) {
      await Promise.all(names.slice(start, start + 50).map((name) => client.putObject(many, name, Buffer.from('1'))));
    }
    const v1 = await collect<{ name: string }>(client.listObjects(many, 'k/', true));
    const v2 = await collect<{ name: string }>(client.listObjectsV2(many, 'k/', true));
    expect(v1.map((item) => item.name)).toEqual(names);
    expect(v2.map((item) => item.name)).toEqual(names);
  });
});

describe('multipart upload', () => {
  let bucket: string;
  beforeAll(async () => {
    bucket = await freshBucket();
  });

  it('when a 12 MB stream is put with a 5 MB part size, then it is stored as a 3-part upload with identical content', async () => {
    const partClient = new Minio.Client({ endPoint: '127.0.0.1', port: blob.port, useSSL: false, accessKey: blob.accessKey, secretKey: blob.secretKey, partSize: 5 * 1024 * 1024 });
    const content = crypto.randomBytes(12 * 1024 * 1024 + 123);
    const chunks = Array.from({ length: Math.ceil(content.length / 65536) }, (_, index) => content.subarray(index * 65536, (index + 1) * 65536));
    const result = await partClient.putObject(bucket, 'big/file.bin', Readable.from(chunks), content.length);

    const partSize = 5 * 1024 * 1024;
    const partDigests = [0, 1, 2].map((index) => crypto.createHash('md5').update(content.subarray(index * partSize, (index + 1) * partSize)).digest());
    const expectedEtag = `${crypto.createHash('md5').update(Buffer.concat(partDigests)).digest('hex')}-3`;
    expect(result.etag).toBe(expectedEtag);
    const stat = await client.statObject(bucket, 'big/file.bin');
    expect(stat).toMatchObject({ size: content.length, etag: expectedEtag });
    const stored = await readAll(await client.getObject(bucket, 'big/file.bin'));
    expect(stored.equals(content)).toBe(true);
    expect((await readAll(await client.getPartialObject(bucket, 'big/file.bin', partSize - 2, 4))).equals(content.subarray(partSize - 2, partSize + 2))).toBe(true);
  });

  it('when parts are uploaded by hand, then they are listed, and aborting discards the upload', async () => {
    const uploadId = await client.initiateNewMultipartUpload(bucket, 'manual.bin', {});
    const first = crypto.randomBytes(5 * 1024 * 1024);
    const second = crypto.randomBytes(1000);
    await client.uploadPart({ bucketName: bucket, objectName: 'manual.bin', uploadID: uploadId, partNumber: 1, headers: {} }, first);
    await client.uploadPart({ bucketName: bucket, objectName: 'manual.bin', uploadID: uploadId, partNumber: 2, headers: {} }, second);
    const parts = await listParts(client, bucket, 'manual.bin', uploadId);
    expect(parts.map((part) => [part.part, part.size, part.etag])).toEqual([
      [1, first.length, md5(first)],
      [2, second.length, md5(second)],
    ]);
    const incomplete = await collect<{ key: string; uploadId: string }>(client.listIncompleteUploads(bucket, 'manual', true));
    expect(incomplete.map((upload) => [upload.key, upload.uploadId])).toEqual([['manual.bin', uploadId]]);

    await client.abortMultipartUpload(bucket, 'manual.bin', uploadId);
    expect((await s3ErrorOf(listParts(client, bucket, 'manual.bin', uploadId))).code).toBe('NoSuchUpload');
    expect((await s3ErrorOf(client.statObject(bucket, 'manual.bin'))).code).toBe('NotFound');
  });

  it('when several uploads are in progress, then listing incomplete uploads shows each under the prefix', async () => {
    const ids = [];
    for (const key of ['pending/a.bin', 'pending/b.bin', 'pending/b.bin', 'other/c.bin']) ids.push([key, await client.initiateNewMultipartUpload(bucket, key, {})]);
    const listed = await collect<{ key: string; uploadId: string }>(client.listIncompleteUploads(bucket, 'pending/', true));
    expect(listed.map((upload) => [upload.key, upload.uploadId]).sort()).toEqual(ids.filter(([key]) => key.startsWith('pending/')).sort());
  });

  it('when a non-final part is smaller than 5 MiB, then completing fails with EntityTooSmall', async () => {
    const uploadId = await client.initiateNewMultipartUpload(bucket, 'small-parts.bin', {});
    const etags = [];
    for (const partNumber of [1, 2]) {
      const part = await client.uploadPart({ bucketName: bucket, objectName: 'small-parts.bin', uploadID: uploadId, partNumber, headers: {} }, Buffer.from(`part ${partNumber}`));
      etags.push({ part: partNumber, etag: part.etag });
    }
    expect((await s3ErrorOf(client.completeMultipartUpload(bucket, 'small-parts.bin', uploadId, etags))).code).toBe('EntityTooSmall');
  });

  it('when a completion names an ETag that was not uploaded, then InvalidPart', async () => {
    const uploadId = await client.initiateNewMultipartUpload(bucket, 'wrong-etag.bin', {});
    await client.uploadPart({ bucketName: bucket, objectName: 'wrong-etag.bin', uploadID: uploadId, partNumber: 1, headers: {} }, Buffer.from('only part'));
    expect((await s3ErrorOf(client.completeMultipartUpload(bucket, 'wrong-etag.bin', uploadId, [{ part: 1, etag: md5(Buffer.from('other')) }]))).code).toBe('InvalidPart');
  });
});
