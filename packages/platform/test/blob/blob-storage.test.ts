import { Readable } from 'node:stream';
import { startBlob } from '@destiny/devstack/blob';
import { createBlobStorage, type BlobStorage } from '../../src/blob/blob-storage';

async function text(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('blob storage through the minio client against the S3 stand-in', () => {
  let blob: Awaited<ReturnType<typeof startBlob>>;
  let storage: BlobStorage;

  beforeAll(async () => {
    blob = await startBlob({ port: 0 });
    storage = createBlobStorage({ endpoint: blob.url, accessKey: blob.accessKey, secretKey: blob.secretKey, bucket: 'platform-test' });
    await storage.ensureBucket();
    await storage.ensureBucket();
  });

  afterAll(async () => {
    await blob.stop();
  });

  it('when an object is put from a buffer and from a stream, then it reads back, exists, and is gone after removal', async () => {
    await storage.put('a/one.jsonl', Buffer.from('{"a":1}\n'), 'application/x-ndjson');
    await storage.put('a/two.jsonl', Readable.from(['{"b":', '2}\n']));
    expect(await text(await storage.get('a/one.jsonl'))).toBe('{"a":1}\n');
    expect(await text(await storage.get('a/two.jsonl'))).toBe('{"b":2}\n');
    expect(await storage.exists('a/one.jsonl')).toBe(true);
    await storage.remove('a/one.jsonl');
    expect(await storage.exists('a/one.jsonl')).toBe(false);
    expect(await storage.ping()).toBe(true);
  });

  it('when signed URLs are made, then a plain HTTP client can upload with PUT and download with GET, and a tampered URL is refused', async () => {
    const upload = await storage.signedPutUrl('robot/results.jsonl', 3600);
    expect((await fetch(upload, { method: 'PUT', body: 'line-1\nline-2\n' })).status).toBe(200);
    const download = await storage.signedGetUrl('robot/results.jsonl', 3600);
    const response = await fetch(download);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('line-1\nline-2\n');
    const tampered = download.replace('results.jsonl', 'other.jsonl');
    expect((await fetch(tampered)).status).toBe(403);
  });

  it('when a public endpoint is configured, then signed URLs name it instead of the internal one', async () => {
    const publicStorage = createBlobStorage({ endpoint: blob.url, publicEndpoint: blob.url.replace('127.0.0.1', 'localhost'), accessKey: blob.accessKey, secretKey: blob.secretKey, bucket: 'platform-test' });
    const url = new URL(await publicStorage.signedGetUrl('robot/results.jsonl', 60));
    expect(url.hostname).toBe('localhost');
    expect(await (await fetch(url)).text()).toBe('line-1\nline-2\n');
  });
});
