import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { ObjectStore, type ObjectAttributes } from './object.store';
import { S3Error } from './s3-error';

const attributes: ObjectAttributes = { contentType: 'text/plain', headers: {}, userMetadata: {} };
const sha256 = (content: Buffer) => crypto.createHash('sha256').update(content).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof S3Error) return error.code;
    return (error as Error).message;
  }
  return 'no error';
}

describe('ObjectStore', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'object-store-'));
  });
  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  const tmpEntries = () => fs.readdirSync(path.join(root, 'tmp'));
  const objectFiles = (bucket: string) => fs.readdirSync(path.join(root, 'buckets', bucket, 'objects')).sort();

  it('when the body does not hash to the signed SHA-256, then nothing is stored and no temp file is left', async () => {
    const store = await ObjectStore.open(root);
    await store.createBucket('b');
    const code = await codeOf(store.putObject('b', 'k', Readable.from([Buffer.from('actual')]), attributes, { sha256: sha256(Buffer.from('claimed')) }));
    expect(code).toBe('XAmzContentSHA256Mismatch');
    expect(store.listObjects('b')).toEqual([]);
    expect(tmpEntries()).toEqual([]);
  });

  it('when Content-MD5 or Content-Length disagree with the body, then BadDigest or IncompleteBody', async () => {
    const store = await ObjectStore.open(root);
    await store.createBucket('b');
    const body = () => Readable.from([Buffer.from('content')]);
    expect(await codeOf(store.putObject('b', 'k', body(), attributes, { md5: crypto.createHash('md5').update('other').digest() }))).toBe('BadDigest');
    expect(await codeOf(store.putObject('b', 'k', body(), attributes, { size: 100 }))).toBe('IncompleteBody');
    expect(store.listObjects('b')).toEqual([]);
  });

  it('when the body stream fails midway, then the previous version stays readable and no temp file is left', async () => {
    const store = await ObjectStore.open(root);
    await store.createBucket('b');
    await store.putObject('b', 'k', Readable.from([Buffer.from('version 1')]), attributes, {});
    const failing = new PassThrough();
    const attempt = store.putObject('b', 'k', failing, attributes, {});
    failing.write('half of version 2');
    failing.destroy(new Error('connection reset'));
    expect(await codeOf(attempt)).toBe('connection reset');
    expect((await readAll((await store.openObject('b', 'k')).stream)).toString()).toBe('version 1');
    expect(tmpEntries()).toEqual([]);
    expect(objectFiles('b')).toHaveLength(2);
  });

  it('when reopened after a crash left a temp file and an unreferenced data file, then both are cleaned and the object is intact', async () => {
    const store = await ObjectStore.open(root);
    await store.createBucket('b');
    await store.putObject('b', 'k', Readable.from([Buffer.from('committed')]), attributes, {});
    const [dataFile, sidecar] = objectFiles('b');
    // A crash between renaming a new data file in and switching the sidecar to it:
    fs.writeFileSync(path.join(root, 'buckets', 'b', 'objects', dataFile.replace(/\.[0-9a-f]+\.data$/, '.ffff.data')), 'uncommitted');
    fs.writeFileSync(path.join(root, 'tmp', 'partial'), 'partial write');

    const reopened = await ObjectStore.open(root);
    expect(objectFiles('b')).toEqual([dataFile, sidecar].sort());
    expect(tmpEntries()).toEqual([]);
    expect((await readAll((await reopened.openObject('b', 'k')).stream)).toString()).toBe('committed');
  });

  it('when an object is overwritten, then the old data file is removed', async () => {
    const store = await ObjectStore.open(root);
    await store.createBucket('b');
    await store.putObject('b', 'k', Readable.from([Buffer.from('one')]), attributes, {});
    await store.putObject('b', 'k', Readable.from([Buffer.from('two')]), attributes, {});
    expect(objectFiles('b')).toHaveLength(2);
    await store.deleteObject('b', 'k');
    expect(objectFiles('b')).toEqual([]);
  });

  it('when the same key is written concurrently, then one complete version wins and no data file leaks', async () => {
    const store = await ObjectStore.open(root);
    await store.createBucket('b');
    const versions = Array.from({ length: 8 }, (_, index) => Buffer.alloc(50_000, index));
    await Promise.all(versions.map((content) => store.putObject('b', 'k', Readable.from([content]), attributes, {})));
    const stored = await readAll((await store.openObject('b', 'k')).stream);
    expect(versions.some((content) => content.equals(stored))).toBe(true);
    expect(objectFiles('b')).toHaveLength(2);
  });
});
