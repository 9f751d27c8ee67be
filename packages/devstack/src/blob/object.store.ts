// Filesystem storage for the blob stand-in. Layout under the root folder:
//   tmp/                                  partial writes; emptied on open
//   buckets/<bucket>/bucket.json          bucket name and creation date
//   buckets/<bucket>/objects/<h>.json     metadata sidecar of the object whose key hashes to <h>
//   buckets/<bucket>/objects/<h>.<id>.data  the object's bytes; a new file per write
//   uploads/<uploadId>/upload.json        an in-progress multipart upload
//   uploads/<uploadId>/<n>.json, <n>.<id>.part  its parts
// Every write goes to tmp/ first and is renamed into place, and a sidecar is renamed only after the
// data file it names is complete, so a crash leaves either the old object or the new one, never a torn
// one. Data files no sidecar names (left by a crash between the two renames) are removed on open.
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { compareKeys } from './object.listing';
import { s3Errors } from './s3-error';

/** Object attributes S3 stores with the bytes and returns on GET/HEAD. */
export interface ObjectAttributes {
  contentType: string;
  /** Stored standard headers (cache-control, content-disposition, content-encoding, content-language, expires) by lower-case name. */
  headers: Record<string, string>;
  /** x-amz-meta-* values by lower-case name without the prefix. */
  userMetadata: Record<string, string>;
}

export interface StoredObject extends ObjectAttributes {
  key: string;
  size: number;
  /** Hex MD5 for single uploads, `<md5 of part md5s>-<parts>` for multipart ones; without quotes. */
  etag: string;
  lastModified: Date;
  dataFile: string;
}

export interface BucketInfo {
  name: string;
  creationDate: Date;
}

export interface StoredPart {
  partNumber: number;
  etag: string;
  size: number;
  lastModified: Date;
  dataFile: string;
}

export interface MultipartUpload {
  uploadId: string;
  bucket: string;
  key: string;
  initiated: Date;
  attributes: ObjectAttributes;
  parts: Map<number, StoredPart>;
}

/** What the bytes of a write must satisfy before it is committed. */
export interface WriteChecks {
  /** Hex SHA-256 from x-amz-content-sha256. */
  sha256?: string;
  /** Raw MD5 from Content-MD5. */
  md5?: Buffer;
  /** Declared length; fewer bytes means the body was cut short. */
  size?: number;
}

export const MIN_PART_SIZE = 5 * 1024 * 1024;

interface BucketState {
  info: BucketInfo;
  objects: Map<string, StoredObject>;
  /** objects in key order; dropped on every change and rebuilt by the next listing. */
  sorted?: StoredObject[];
}

interface ObjectSidecar extends ObjectAttributes {
  key: string;
  size: number;
  etag: string;
  lastModified: string;
  dataFile: string;
}

interface PartSidecar {
  partNumber: number;
  etag: string;
  size: number;
  lastModified: string;
  dataFile: string;
}

interface UploadSidecar {
  uploadId: string;
  bucket: string;
  key: string;
  initiated: string;
  attributes: ObjectAttributes;
}

/** Hashes and counts bytes as they stream past. */
class DigestingStream extends Transform {
  readonly md5 = crypto.createHash('md5');
  readonly sha256: crypto.Hash | undefined;
  size = 0;

  constructor(withSha256: boolean) {
    super();
    this.sha256 = withSha256 ? crypto.createHash('sha256') : undefined;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.md5.update(chunk);
    this.sha256?.update(chunk);
    this.size += chunk.length;
    callback(null, chunk);
  }
}

/** Runs actions for the same name one after another. */
class KeyedLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  async run<T>(name: string, action: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    const result = previous.then(action, action);
    const tail = result.catch(() => undefined);
    this.tails.set(name, tail);
    try {
      return await result;
    } finally {
      if (this.tails.get(name) === tail) this.tails.delete(name);
    }
  }
}

const hashKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex');
const newId = () => crypto.randomBytes(12).toString('hex');

async function readJson<T>(file: string): Promise<T | undefined> {
  try {
    return JSON.parse(await fsp.readFile(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

async function listDirectory(directory: string): Promise<string[]> {
  try {
    return await fsp.readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function removeQuietly(file: string): Promise<void> {
  await fsp.rm(file, { force: true, recursive: true });
}

/** fsync, so a rename that follows never exposes a file whose bytes are still only in the page cache. */
async function flushToDisk(file: string): Promise<void> {
  const handle = await fsp.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function toObject(sidecar: ObjectSidecar): StoredObject {
  return { ...sidecar, lastModified: new Date(sidecar.lastModified) };
}

function toPart(sidecar: PartSidecar): StoredPart {
  return { ...sidecar, lastModified: new Date(sidecar.lastModified) };
}

export class ObjectStore {
  private readonly buckets = new Map<string, BucketState>();
  private readonly uploads = new Map<string, MultipartUpload>();
  private readonly locks = new KeyedLock();

  private constructor(private readonly root: string) {}

  /** Opens (creating if needed) the store under root, loading what a previous run left and clearing crash debris. */
  static async open(root: string): Promise<ObjectStore> {
    const store = new ObjectStore(root);
    await removeQuietly(store.tmpDir);
    await fsp.mkdir(store.tmpDir, { recursive: true });
    await fsp.mkdir(path.join(root, 'buckets'), { recursive: true });
    await fsp.mkdir(path.join(root, 'uploads'), { recursive: true });
    await store.load();
    return store;
  }

  private get tmpDir(): string {
    return path.join(this.root, 'tmp');
  }

  private bucketDir(bucket: string): string {
    return path.join(this.root, 'buckets', bucket);
  }

  private objectsDir(bucket: string): string {
    return path.join(this.bucketDir(bucket), 'objects');
  }

  private uploadDir(uploadId: string): string {
    return path.join(this.root, 'uploads', uploadId);
  }

  private tmpFile(): string {
    return path.join(this.tmpDir, newId());
  }

  private async load(): Promise<void> {
    for (const name of await listDirectory(path.join(this.root, 'buckets'))) {
      const info = await readJson<{ name: string; creationDate: string }>(path.join(this.bucketDir(name), 'bucket.json'));
      if (!info) continue;
      const objects = new Map<string, StoredObject>();
      const entries = await listDirectory(this.objectsDir(name));
      const referenced = new Set<string>();
      for (const entry of entries.filter((file) => file.endsWith('.json'))) {
        const sidecar = await readJson<ObjectSidecar>(path.join(this.objectsDir(name), entry));
        if (!sidecar) continue;
        objects.set(sidecar.key, toObject(sidecar));
        referenced.add(sidecar.dataFile);
      }
      for (const orphan of entries.filter((file) => file.endsWith('.data') && !referenced.has(file))) {
        await removeQuietly(path.join(this.objectsDir(name), orphan));
      }
      this.buckets.set(name, { info: { name: info.name, creationDate: new Date(info.creationDate) }, objects });
    }
    for (const uploadId of await listDirectory(path.join(this.root, 'uploads'))) {
      const directory = this.uploadDir(uploadId);
      const sidecar = await readJson<UploadSidecar>(path.join(directory, 'upload.json'));
      if (!sidecar || !this.buckets.has(sidecar.bucket)) {
        await removeQuietly(directory);
        continue;
      }
      const parts = new Map<number, StoredPart>();
      const entries = await listDirectory(directory);
      const referenced = new Set<string>();
      for (const entry of entries.filter((file) => /^\d+\.json$/.test(file))) {
        const part = await readJson<PartSidecar>(path.join(directory, entry));
        if (!part) continue;
        parts.set(part.partNumber, toPart(part));
        referenced.add(part.dataFile);
      }
      for (const orphan of entries.filter((file) => file.endsWith('.part') && !referenced.has(file))) {
        await removeQuietly(path.join(directory, orphan));
      }
      this.uploads.set(uploadId, { uploadId, bucket: sidecar.bucket, key: sidecar.key, initiated: new Date(sidecar.initiated), attributes: sidecar.attributes, parts });
    }
  }

  /** Writes content to a temp file, flushes it, and renames it over target. */
  private async writeFileAtomically(target: string, content: string): Promise<void> {
    const temp = this.tmpFile();
    const handle = await fsp.open(temp, 'w');
    try {
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temp, target);
  }

  /** Streams body into a flushed temp file, enforcing checks; returns the temp file and digests. Removes the file on failure. */
  private async receive(body: Readable, checks: WriteChecks): Promise<{ temp: string; md5: Buffer; size: number }> {
    const temp = this.tmpFile();
    const digest = new DigestingStream(checks.sha256 !== undefined);
    const file = fs.createWriteStream(temp);
    try {
      await pipeline(body, digest, file);
      await flushToDisk(temp);
      if (checks.size !== undefined && digest.size !== checks.size) throw s3Errors.incompleteBody();
      if (checks.sha256 !== undefined) {
        const computed = (digest.sha256 as crypto.Hash).digest('hex');
        if (computed !== checks.sha256) throw s3Errors.contentSha256Mismatch(checks.sha256, computed);
      }
      const md5 = digest.md5.digest();
      if (checks.md5 !== undefined && !md5.equals(checks.md5)) throw s3Errors.badDigest();
      return { temp, md5, size: digest.size };
    } catch (error) {
      // A write stream opens its file asynchronously: removed before the stream has closed, the file
      // could still be created after the removal and be left behind in tmp/.
      if (!file.closed) await new Promise<void>((resolve) => file.once('close', () => resolve()));
      await removeQuietly(temp);
      throw error;
    }
  }

  listBuckets(): BucketInfo[] {
    return [...this.buckets.values()].map((state) => state.info).sort((a, b) => compareKeys(a.name, b.name));
  }

  hasBucket(bucket: string): boolean {
    return this.buckets.has(bucket);
  }

  private bucketState(bucket: string): BucketState {
    const state = this.buckets.get(bucket);
    if (!state) throw s3Errors.noSuchBucket(bucket);
    return state;
  }

  async createBucket(bucket: string): Promise<void> {
    await this.locks.run(`bucket:${bucket}`, async () => {
      if (this.buckets.has(bucket)) throw s3Errors.bucketAlreadyOwnedByYou(bucket);
      const staging = this.tmpFile();
      const info: BucketInfo = { name: bucket, creationDate: new Date() };
      await fsp.mkdir(path.join(staging, 'objects'), { recursive: true });
      await fsp.writeFile(path.join(staging, 'bucket.json'), JSON.stringify({ name: bucket, creationDate: info.creationDate.toISOString() }));
      await fsp.rename(staging, this.bucketDir(bucket));
      this.buckets.set(bucket, { info, objects: new Map() });
    });
  }

  async deleteBucket(bucket: string): Promise<void> {
    await this.locks.run(`bucket:${bucket}`, async () => {
      const state = this.bucketState(bucket);
      if (state.objects.size > 0) throw s3Errors.bucketNotEmpty(bucket);
      this.buckets.delete(bucket);
      for (const upload of [...this.uploads.values()].filter((one) => one.bucket === bucket)) {
        this.uploads.delete(upload.uploadId);
        await removeQuietly(this.uploadDir(upload.uploadId));
      }
      // Renaming first makes the removal atomic: a crash mid-delete leaves only debris in tmp/.
      const trash = this.tmpFile();
      await fsp.rename(this.bucketDir(bucket), trash);
      await removeQuietly(trash);
    });
  }

  getObject(bucket: string, key: string): StoredObject {
    const found = this.bucketState(bucket).objects.get(key);
    if (!found) throw s3Errors.noSuchKey(key);
    return found;
  }

  /** The bucket's objects in key order. */
  listObjects(bucket: string): readonly StoredObject[] {
    const state = this.bucketState(bucket);
    state.sorted ??= [...state.objects.values()].sort((a, b) => compareKeys(a.key, b.key));
    return state.sorted;
  }

  /**
   * Opens the object's bytes (optionally a byte range, inclusive). The object is looked up again if a
   * concurrent overwrite removed the file between lookup and open.
   */
  async openObject(bucket: string, key: string, range?: { start: number; end: number }): Promise<{ object: StoredObject; stream: Readable }> {
    for (let attempt = 0; ; attempt += 1) {
      const object = this.getObject(bucket, key);
      try {
        const handle = await fsp.open(path.join(this.objectsDir(bucket), object.dataFile), 'r');
        return { object, stream: handle.createReadStream(range ? { start: range.start, end: range.end } : {}) };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= 3) throw error;
      }
    }
  }

  /** Renames a complete temp data file into the bucket and switches the key's sidecar to it. */
  private async commitObject(bucket: string, key: string, temp: string, fields: Omit<StoredObject, 'key' | 'dataFile' | 'lastModified'>): Promise<StoredObject> {
    return this.locks.run(`object:${bucket}/${key}`, async () => {
      const state = this.bucketState(bucket);
      const hash = hashKey(key);
      const dataFile = `${hash}.${newId()}.data`;
      const object: StoredObject = { ...fields, key, dataFile, lastModified: new Date() };
      const sidecar: ObjectSidecar = { ...object, lastModified: object.lastModified.toISOString() };
      await fsp.rename(temp, path.join(this.objectsDir(bucket), dataFile));
      await this.writeFileAtomically(path.join(this.objectsDir(bucket), `${hash}.json`), JSON.stringify(sidecar));
      const previous = state.objects.get(key);
      state.objects.set(key, object);
      state.sorted = undefined;
      if (previous) await removeQuietly(path.join(this.objectsDir(bucket), previous.dataFile));
      return object;
    });
  }

  async putObject(bucket: string, key: string, body: Readable, attributes: ObjectAttributes, checks: WriteChecks): Promise<StoredObject> {
    this.bucketState(bucket);
    const received = await this.receive(body, checks);
    try {
      return await this.commitObject(bucket, key, received.temp, { ...attributes, size: received.size, etag: received.md5.toString('hex') });
    } finally {
      await removeQuietly(received.temp);
    }
  }

  async copyObject(source: StoredObject, sourceBucket: string, bucket: string, key: string, attributes: ObjectAttributes): Promise<StoredObject> {
    this.bucketState(bucket);
    const { stream } = await this.openObject(sourceBucket, source.key);
    const received = await this.receive(stream, {});
    try {
      return await this.commitObject(bucket, key, received.temp, { ...attributes, size: received.size, etag: received.md5.toString('hex') });
    } finally {
      await removeQuietly(received.temp);
    }
  }

  async deleteObject(bucket: string, key: string): Promise<void> {
    await this.locks.run(`object:${bucket}/${key}`, async () => {
      const state = this.bucketState(bucket);
      const previous = state.objects.get(key);
      if (!previous) return;
      // The sidecar goes first: a crash afterwards leaves an orphan data file, which open() removes.
      await removeQuietly(path.join(this.objectsDir(bucket), `${hashKey(key)}.json`));
      state.objects.delete(key);
      state.sorted = undefined;
      await removeQuietly(path.join(this.objectsDir(bucket), previous.dataFile));
    });
  }

  async createUpload(bucket: string, key: string, attributes: ObjectAttributes): Promise<MultipartUpload> {
    this.bucketState(bucket);
    const upload: MultipartUpload = { uploadId: newId() + newId(), bucket, key, initiated: new Date(), attributes, parts: new Map() };
    const staging = this.tmpFile();
    await fsp.mkdir(staging);
    const sidecar: UploadSidecar = { uploadId: upload.uploadId, bucket, key, initiated: upload.initiated.toISOString(), attributes };
    await fsp.writeFile(path.join(staging, 'upload.json'), JSON.stringify(sidecar));
    await fsp.rename(staging, this.uploadDir(upload.uploadId));
    this.uploads.set(upload.uploadId, upload);
    return upload;
  }

  getUpload(bucket: string, key: string, uploadId: string): MultipartUpload {
    this.bucketState(bucket);
    const upload = this.uploads.get(uploadId);
    if (!upload || upload.bucket !== bucket || upload.key !== key) throw s3Errors.noSuchUpload(uploadId);
    return upload;
  }

  /** In-progress uploads of the bucket, by key then initiation time. */
  listUploads(bucket: string): MultipartUpload[] {
    this.bucketState(bucket);
    return [...this.uploads.values()]
      .filter((upload) => upload.bucket === bucket)
      .sort((a, b) => compareKeys(a.key, b.key) || a.initiated.getTime() - b.initiated.getTime());
  }

  async putPart(upload: MultipartUpload, partNumber: number, body: Readable, checks: WriteChecks): Promise<StoredPart> {
    const received = await this.receive(body, checks);
    try {
      return await this.locks.run(`upload:${upload.uploadId}`, async () => {
        if (!this.uploads.has(upload.uploadId)) throw s3Errors.noSuchUpload(upload.uploadId);
        const directory = this.uploadDir(upload.uploadId);
        const part: StoredPart = { partNumber, etag: received.md5.toString('hex'), size: received.size, lastModified: new Date(), dataFile: `${partNumber}.${newId()}.part` };
        await fsp.rename(received.temp, path.join(directory, part.dataFile));
        const sidecar: PartSidecar = { ...part, lastModified: part.lastModified.toISOString() };
        await this.writeFileAtomically(path.join(directory, `${partNumber}.json`), JSON.stringify(sidecar));
        const previous = upload.parts.get(partNumber);
        upload.parts.set(partNumber, part);
        if (previous) await removeQuietly(path.join(directory, previous.dataFile));
        return part;
      });
    } finally {
      await removeQuietly(received.temp);
    }
  }

  /** Joins the named parts (ascending, ETags matching, all but the last at least 5 MiB) into the object. */
  async completeUpload(upload: MultipartUpload, requested: Array<{ partNumber: number; etag: string }>): Promise<StoredObject> {
    return this.locks.run(`upload:${upload.uploadId}`, async () => {
      if (!this.uploads.has(upload.uploadId)) throw s3Errors.noSuchUpload(upload.uploadId);
      if (requested.length === 0) throw s3Errors.malformedXml();
      const parts: StoredPart[] = [];
      for (const [index, wanted] of requested.entries()) {
        if (index > 0 && wanted.partNumber <= requested[index - 1].partNumber) throw s3Errors.invalidPartOrder();
        const part = upload.parts.get(wanted.partNumber);
        if (!part || part.etag !== wanted.etag.replace(/^"|"$/g, '')) throw s3Errors.invalidPart();
        parts.push(part);
      }
      if (parts.slice(0, -1).some((part) => part.size < MIN_PART_SIZE)) throw s3Errors.entityTooSmall();

      const temp = this.tmpFile();
      try {
        await fsp.writeFile(temp, '');
        for (const part of parts) {
          await pipeline(fs.createReadStream(path.join(this.uploadDir(upload.uploadId), part.dataFile)), fs.createWriteStream(temp, { flags: 'a' }));
        }
        await flushToDisk(temp);
        const partDigests = Buffer.concat(parts.map((part) => Buffer.from(part.etag, 'hex')));
        const etag = `${crypto.createHash('md5').update(partDigests).digest('hex')}-${parts.length}`;
        const size = parts.reduce((total, part) => total + part.size, 0);
        const object = await this.commitObject(upload.bucket, upload.key, temp, { ...upload.attributes, size, etag });
        this.uploads.delete(upload.uploadId);
        await removeQuietly(this.uploadDir(upload.uploadId));
        return object;
      } finally {
        await removeQuietly(temp);
      }
    });
  }

  async abortUpload(upload: MultipartUpload): Promise<void> {
    await this.locks.run(`upload:${upload.uploadId}`, async () => {
      if (!this.uploads.delete(upload.uploadId)) throw s3Errors.noSuchUpload(upload.uploadId);
      await removeQuietly(this.uploadDir(upload.uploadId));
    });
  }
}
