// With a data folder, a restarted stand-in serves what the previous one stored.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import * as Minio from 'minio';
import { startBlob, type RunningBlob } from '@destiny/devstack/blob';

/** minio calls ListParts itself to resume uploads; its typings mark the method protected. */
const listParts = (minio: Minio.Client, bucket: string, key: string, uploadId: string) =>
  (minio as unknown as { listParts(bucket: string, key: string, uploadId: string): Promise<Array<{ part: number; size: number; etag: string }>> }).listParts(bucket, key, uploadId);

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const clientFor = (blob: RunningBlob) =>
  new Minio.Client({ endPoint: '127.0.0.1', port: blob.port, useSSL: false, accessKey: blob.accessKey, secretKey: blob.secretKey, partSize: 5 * 1024 * 1024 });

describe('blob stand-in restart', () => {
  let dataDir: string;
  let running: RunningBlob | undefined;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blob-restart-'));
  });

  afterEach(async () => {
    await running?.stop();
    running = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when restarted on the same data folder, then buckets, objects, metadata and open uploads are still there', async () => {
    running = await startBlob({ port: 0, dataDir });
    let client = clientFor(running);
    await client.makeBucket('kept');
    await client.makeBucket('also-kept');
    await client.putObject('kept', 'refs/one.json', Buffer.from('{"id":1}'), 8, { 'Content-Type': 'application/json', 'x-amz-meta-source': 'import' });
    const big = crypto.randomBytes(11 * 1024 * 1024);
    const bigUpload = await client.putObject('kept', 'big.bin', Readable.from([big.subarray(0, 6_000_000), big.subarray(6_000_000)]), big.length);
    await client.putObject('kept', 'removed.txt', Buffer.from('gone'));
    await client.removeObject('kept', 'removed.txt');
    const uploadId = await client.initiateNewMultipartUpload('kept', 'pending.bin', {});
    const part = crypto.randomBytes(5 * 1024 * 1024);
    await client.uploadPart({ bucketName: 'kept', objectName: 'pending.bin', uploadID: uploadId, partNumber: 1, headers: {} }, part);
    await running.stop();

    running = await startBlob({ port: 0, dataDir });
    client = clientFor(running);
    expect((await client.listBuckets()).map((bucket) => bucket.name)).toEqual(['also-kept', 'kept']);
    expect((await readAll(await client.getObject('kept', 'refs/one.json'))).toString()).toBe('{"id":1}');
    expect((await client.statObject('kept', 'refs/one.json')).metaData).toMatchObject({ 'content-type': 'application/json', source: 'import' });
    expect((await readAll(await client.getObject('kept', 'big.bin'))).equals(big)).toBe(true);
    expect((await client.statObject('kept', 'big.bin')).etag).toBe(bigUpload.etag);
    const names: string[] = [];
    for await (const item of client.listObjectsV2('kept', '', true)) names.push((item as { name: string }).name);
    expect(names).toEqual(['big.bin', 'refs/one.json']);

    const tail = Buffer.from('tail');
    const second = await client.uploadPart({ bucketName: 'kept', objectName: 'pending.bin', uploadID: uploadId, partNumber: 2, headers: {} }, tail);
    const parts = await listParts(client, 'kept', 'pending.bin', uploadId);
    await client.completeMultipartUpload('kept', 'pending.bin', uploadId, [
      { part: 1, etag: parts[0].etag },
      { part: 2, etag: second.etag },
    ]);
    expect((await readAll(await client.getObject('kept', 'pending.bin'))).equals(Buffer.concat([part, tail]))).toBe(true);
  });

  it('when started without a data folder, then its temporary storage is removed on stop', async () => {
    const ephemeral = await startBlob({ port: 0 });
    const bucket = `temporary-${crypto.randomBytes(4).toString('hex')}`;
    await clientFor(ephemeral).makeBucket(bucket);
    // Other stand-ins may run at the same time; ours is the temp folder holding this bucket.
    const ours = fs
      .readdirSync(os.tmpdir())
      .filter((name) => name.startsWith('destiny-blob-'))
      .map((name) => path.join(os.tmpdir(), name))
      .filter((folder) => fs.existsSync(path.join(folder, 'buckets', bucket)));
    expect(ours).toHaveLength(1);
    await ephemeral.stop();
    expect(fs.existsSync(ours[0])).toBe(false);
  });
});
