// The databases held in memory plus their durability: every change is applied in memory and
// described by a journal record; `commit()` resolves once those records are fsynced. Snapshots
// (written in the background from copy-on-write documents) bound the journal and restart time.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'bson';
import { type Document } from './bson-value.order';
import { Collection } from './collection.store';
import { type IndexSpec } from './collection.index';
import { frameRecord, fsyncDirectory, GroupCommitWriter, openJournalFile, readRecords, recordBytes, writeAll, type FramedRecord } from './journal.file';

import { DESERIALIZE_OPTIONS } from './bson.options';

const enum RecordType {
  PutDocuments = 1,
  DeleteDocuments = 2,
  Catalog = 3,
}

type CatalogChange =
  | { op: 'create'; d: string; c: string; options: Document }
  | { op: 'drop'; d: string; c: string }
  | { op: 'dropDatabase'; d: string }
  | { op: 'createIndex'; d: string; c: string; spec: IndexSpec }
  | { op: 'dropIndex'; d: string; c: string; name: string }
  | { op: 'rename'; d: string; c: string; toD: string; toC: string };


/** At most this many separate parts (documents, or runs of documents adjacent in memory) per record. */
const CHUNK_PARTS = 1000;
const CHUNK_RECORD_BYTES = 8 * 1024 * 1024;
const READ_CHUNK_BYTES = 256 * 1024 * 1024;
const MIN_COMPACTION_BYTES = 512 * 1024 * 1024;
const RECORD_HEADER_BYTES = 8;

function putRecord(database: string, collection: string, parts: Uint8Array[]): FramedRecord {
  const header = serialize({ d: database, c: collection });
  return frameRecord([Buffer.from([RecordType.PutDocuments]), header, ...parts]);
}

function typedRecord(type: RecordType, body: Document): FramedRecord {
  return frameRecord([Buffer.from([type]), serialize(body, { checkKeys: false })]);
}

/**
 * Splits documents into groups small enough for one record (by parts and by bytes). Documents
 * that follow each other in memory (an insert batch's views into its message, documents loaded
 * from one snapshot chunk) are joined into one part: one checksum call and one write vector
 * entry instead of one per document, and no copy.
 */
export function* recordChunks(documents: Uint8Array[]): Iterable<Uint8Array[]> {
  let chunk: Uint8Array[] = [];
  let bytes = 0;
  let run: Uint8Array | undefined;
  let runEnd = 0;
  const closeRun = () => {
    if (!run) return;
    chunk.push(runEnd - run.byteOffset === run.length ? run : new Uint8Array(run.buffer, run.byteOffset, runEnd - run.byteOffset));
    run = undefined;
  };
  for (const document of documents) {
    const full = bytes + document.length > CHUNK_RECORD_BYTES;
    if (run && !full && document.buffer === run.buffer && document.byteOffset === runEnd) {
      runEnd += document.length;
      bytes += document.length;
      continue;
    }
    closeRun();
    if (chunk.length > 0 && (chunk.length >= CHUNK_PARTS || full)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    run = document;
    runEnd = document.byteOffset + document.length;
    bytes += document.length;
  }
  closeRun();
  if (chunk.length > 0) yield chunk;
}

async function writeRecords(handle: fsp.FileHandle, records: FramedRecord[]): Promise<number> {
  return writeAll(handle.fd, records.flat(), false);
}

/** What a recovery replayed: document bytes restored, and how many of them later records superseded. */
interface RecoveryTally {
  restoredBytes: number;
  supersededBytes: number;
}

// Stored documents are views into larger buffers (insert messages, recovery read chunks), which
// stay allocated while any of their documents lives. Where updates, deletions or drops left such a
// buffer less than half live, its live documents are copied together into one new block so the
// buffer can be freed.

/** The buffers less than half live, and how many live bytes they hold in all. */
function sparseBuffersOf(collections: Collection[]): { sparse: Set<ArrayBufferLike>; bytes: number } {
  const live = new Map<ArrayBufferLike, number>();
  for (const collection of collections) {
    for (const raw of collection.documents.values()) {
      // A document's own buffer, or a Buffer pool slab (what one pooled copy per document kept alive), is skipped.
      if (raw.buffer.byteLength > Math.max(raw.length, Buffer.poolSize)) live.set(raw.buffer, (live.get(raw.buffer) ?? 0) + raw.length);
    }
  }
  const sparse = new Set<ArrayBufferLike>();
  let bytes = 0;
  for (const [buffer, liveBytes] of live) {
    if (liveBytes >= buffer.byteLength / 2) continue;
    sparse.add(buffer);
    bytes += liveBytes;
  }
  return { sparse, bytes };
}

/**
 * Copies the live documents of sparse buffers together into one new block, yielding the bytes
 * copied after each document. A stored document is never changed in place, so a document replaced,
 * removed or inserted between steps never has its new bytes in a sparse buffer: an entry is copied
 * only if its current bytes are still there, and the copies cannot exceed the live bytes counted.
 */
function* copySparseDocuments(collections: Collection[]): Generator<number> {
  const { sparse, bytes } = sparseBuffersOf(collections);
  if (sparse.size === 0) return;
  const block = Buffer.allocUnsafeSlow(bytes);
  let offset = 0;
  for (const collection of collections) {
    for (const [key, raw] of collection.documents) {
      if (!sparse.has(raw.buffer) || offset + raw.length > block.length) continue;
      block.set(raw, offset);
      // Setting an existing key keeps its place in the Map (natural order).
      collection.documents.set(key, block.subarray(offset, offset + raw.length));
      offset += raw.length;
      yield raw.length;
    }
  }
}

/** All at once (recovery: nothing else runs yet). */
export function compactSparseBuffers(collections: Collection[]): void {
  for (const _copied of copySparseDocuments(collections));
}

/**
 * The same while the server runs: yields to the event loop after about `sliceBytes` copied, so a
 * large compaction (100 MB and more) does not hold requests up for tens of milliseconds at once.
 */
export async function compactSparseBuffersInSlices(collections: Collection[], sliceBytes = 4 * 1024 * 1024): Promise<void> {
  let sinceYield = 0;
  for (const copied of copySparseDocuments(collections)) {
    sinceYield += copied;
    if (sinceYield < sliceBytes) continue;
    sinceYield = 0;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

export class StorageEngine {
  readonly databases = new Map<string, Map<string, Collection>>();
  private readonly dataDir?: string;
  private readonly writer = new GroupCommitWriter();
  private journalFd = -1;
  private sequence = 0;
  private journalBytes = 0;
  private lastSnapshotBytes = 0;
  private compacting: Promise<void> | undefined;
  private closed = false;

  private readonly onBackgroundError: (error: Error) => void;
  private readonly readChunkBytes: number;

  private constructor(dataDir: string | undefined, onBackgroundError: (error: Error) => void, readChunkBytes: number) {
    this.dataDir = dataDir;
    this.onBackgroundError = onBackgroundError;
    this.readChunkBytes = readChunkBytes;
  }

  /**
   * `onBackgroundError` hears about failed background snapshots (the journal stays authoritative);
   * `readChunkBytes` sets how much of a file recovery reads at a time (tests make records cross chunks).
   */
  static async open(dataDir: string | undefined, onBackgroundError: (error: Error) => void = () => undefined, readChunkBytes = READ_CHUNK_BYTES): Promise<StorageEngine> {
    const engine = new StorageEngine(dataDir, onBackgroundError, readChunkBytes);
    if (dataDir) await engine.recover(dataDir);
    return engine;
  }

  // ---- catalog -------------------------------------------------------------------------------

  collection(database: string, name: string): Collection | undefined {
    return this.databases.get(database)?.get(name);
  }

  /** Returns the collection, creating it (journaled) when missing, as MongoDB does on first write. */
  ensureCollection(database: string, name: string, options: Document = {}): Collection {
    const existing = this.collection(database, name);
    if (existing) return existing;
    this.applyCatalog({ op: 'create', d: database, c: name, options });
    this.journal(typedRecord(RecordType.Catalog, { op: 'create', d: database, c: name, options }));
    return this.collection(database, name) as Collection;
  }

  dropCollection(database: string, name: string): boolean {
    if (!this.collection(database, name)) return false;
    this.applyCatalog({ op: 'drop', d: database, c: name });
    this.journal(typedRecord(RecordType.Catalog, { op: 'drop', d: database, c: name }));
    return true;
  }

  dropDatabase(database: string): void {
    if (!this.databases.has(database)) return;
    this.applyCatalog({ op: 'dropDatabase', d: database });
    this.journal(typedRecord(RecordType.Catalog, { op: 'dropDatabase', d: database }));
  }

  createIndex(collection: Collection, spec: IndexSpec): void {
    collection.createIndex(spec);
    this.journal(typedRecord(RecordType.Catalog, { op: 'createIndex', d: collection.database, c: collection.name, spec }));
  }

  dropIndex(collection: Collection, name: string): void {
    collection.dropIndex(name);
    this.journal(typedRecord(RecordType.Catalog, { op: 'dropIndex', d: collection.database, c: collection.name, name }));
  }

  renameCollection(collection: Collection, toDatabase: string, toName: string): void {
    const change: CatalogChange = { op: 'rename', d: collection.database, c: collection.name, toD: toDatabase, toC: toName };
    this.applyCatalog(change);
    this.journal(typedRecord(RecordType.Catalog, change));
  }

  private applyCatalog(change: CatalogChange): void {
    switch (change.op) {
      case 'create': {
        let database = this.databases.get(change.d);
        if (!database) this.databases.set(change.d, (database = new Map()));
        if (!database.has(change.c)) database.set(change.c, new Collection(change.d, change.c, change.options));
        return;
      }
      case 'drop':
        this.databases.get(change.d)?.delete(change.c);
        if (this.databases.get(change.d)?.size === 0) this.databases.delete(change.d);
        return;
      case 'dropDatabase':
        this.databases.delete(change.d);
        return;
      case 'createIndex':
        this.collection(change.d, change.c)?.createIndex(change.spec);
        return;
      case 'dropIndex':
        this.collection(change.d, change.c)?.dropIndex(change.name);
        return;
      case 'rename': {
        const source = this.collection(change.d, change.c);
        if (!source) return;
        this.applyCatalog({ op: 'drop', d: change.toD, c: change.toC });
        this.applyCatalog({ op: 'create', d: change.toD, c: change.toC, options: source.options });
        const target = this.collection(change.toD, change.toC) as Collection;
        for (const spec of source.indexSpecs().slice(1)) target.createIndex(spec);
        for (const raw of source.documents.values()) target.restore(raw, false);
        this.applyCatalog({ op: 'drop', d: change.d, c: change.c });
        return;
      }
    }
  }

  // ---- document changes (already applied in memory by the caller) --------------------------

  /** Journals inserted or updated documents (their full new stored bytes). */
  journalPut(collection: Collection, documents: Uint8Array[]): void {
    if (!this.dataDir || documents.length === 0) return;
    for (const chunk of recordChunks(documents)) this.journal(putRecord(collection.database, collection.name, chunk));
  }

  journalDelete(collection: Collection, ids: unknown[]): void {
    if (!this.dataDir || ids.length === 0) return;
    this.journal(typedRecord(RecordType.DeleteDocuments, { d: collection.database, c: collection.name, ids }));
  }

  private journal(record: FramedRecord): void {
    if (!this.dataDir || this.closed) return;
    this.writer.append(this.journalFd, record);
    this.journalBytes += recordBytes(record);
  }

  /** Starts writing the changes journaled so far without waiting for them (`commit` still has to be awaited). */
  startWrite(): void {
    if (this.dataDir) this.writer.startFlush();
  }

  /** Resolves when every change made so far is durable. */
  async commit(): Promise<void> {
    if (!this.dataDir) return;
    await this.writer.sync();
    if (!this.compacting && this.journalBytes > Math.max(MIN_COMPACTION_BYTES, 2 * this.lastSnapshotBytes)) {
      this.compacting = this.compact()
        .catch((error: unknown) => this.onBackgroundError(error as Error))
        .finally(() => {
          this.compacting = undefined;
        });
    }
  }

  // ---- recovery and snapshots ----------------------------------------------------------------

  private collections(): Collection[] {
    return [...this.databases.values()].flatMap((database) => [...database.values()]);
  }

  private storedBytes(collections: (Collection | undefined)[]): number {
    let bytes = 0;
    for (const collection of collections) if (collection) for (const raw of collection.documents.values()) bytes += raw.length;
    return bytes;
  }

  /** Applies one record (`fromSnapshot`: a snapshot, whose documents are all live) and tallies superseded bytes. */
  private replay(payload: Buffer, fromSnapshot: boolean, tally: RecoveryTally): void {
    const type = payload[0] as RecordType;
    if (type === RecordType.PutDocuments) {
      const headerLength = payload.readInt32LE(1);
      const header = deserialize(payload.subarray(1, 1 + headerLength)) as { d: string; c: string };
      let collection = this.collection(header.d, header.c);
      if (!collection) {
        this.applyCatalog({ op: 'create', d: header.d, c: header.c, options: {} });
        collection = this.collection(header.d, header.c) as Collection;
      }
      let offset = 1 + headerLength;
      while (offset < payload.length) {
        const length = payload.readInt32LE(offset);
        const previous = collection.restore(payload.subarray(offset, offset + length), fromSnapshot);
        tally.restoredBytes += length;
        if (previous) tally.supersededBytes += previous.length;
        offset += length;
      }
      return;
    }
    const body = deserialize(payload.subarray(1), DESERIALIZE_OPTIONS);
    if (type === RecordType.DeleteDocuments) {
      const collection = this.collection(body.d as string, body.c as string);
      if (!collection) return;
      for (const id of body.ids as unknown[]) {
        const previous = collection.restoreDeletion(id);
        if (previous) tally.supersededBytes += previous.length;
      }
      return;
    }
    if (type === RecordType.Catalog) {
      const change = body as unknown as CatalogChange;
      if (change.op === 'drop') tally.supersededBytes += this.storedBytes([this.collection(change.d, change.c)]);
      if (change.op === 'dropDatabase') tally.supersededBytes += this.storedBytes([...(this.databases.get(change.d)?.values() ?? [])]);
      if (change.op === 'rename') tally.supersededBytes += this.storedBytes([this.collection(change.toD, change.toC)]);
      this.applyCatalog(change);
    }
  }

  /**
   * Replays a journal or snapshot. Files are read in large chunks, the next one while the current
   * one is applied; documents stay views into the chunks (a record cut by a chunk boundary is
   * joined into a buffer of its own).
   */
  private async replayFile(file: string, truncateTornTail: boolean, fromSnapshot: boolean, tally: RecoveryTally): Promise<void> {
    const handle = await fsp.open(file, 'r');
    const size = (await handle.stat()).size;
    const read = async (position: number): Promise<Buffer> => {
      const want = Math.min(this.readChunkBytes, size - position);
      const chunk = Buffer.allocUnsafeSlow(want);
      let filled = 0;
      while (filled < want) {
        const { bytesRead } = await handle.read(chunk, filled, want - filled, position + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return chunk.subarray(0, filled);
    };
    const apply = (data: Buffer): number => {
      const { records, validLength } = readRecords(data);
      for (const record of records) this.replay(record, fromSnapshot, tally);
      return validLength;
    };
    let consumed = 0;
    let position = 0;
    let leftover: Buffer | undefined;
    let corrupt = false;
    try {
      let next = size > 0 ? read(0) : undefined;
      while (next && !corrupt) {
        let data = await next;
        position += data.length;
        next = position < size && data.length > 0 ? read(position) : undefined;
        if (data.length === 0) break;
        if (leftover) {
          const head = leftover.length >= RECORD_HEADER_BYTES ? leftover : Buffer.concat([leftover, data.subarray(0, RECORD_HEADER_BYTES - leftover.length)]);
          const needed = head.length >= RECORD_HEADER_BYTES ? head.readUInt32LE(0) + RECORD_HEADER_BYTES : Number.POSITIVE_INFINITY;
          if (leftover.length + data.length < needed) {
            leftover = Buffer.concat([leftover, data]);
            continue;
          }
          const taken = needed - leftover.length;
          const record = Buffer.concat([leftover, data.subarray(0, taken)]);
          if (apply(record) !== record.length) {
            corrupt = true;
            break;
          }
          consumed += record.length;
          data = data.subarray(taken);
          leftover = undefined;
        }
        const validLength = apply(data);
        consumed += validLength;
        if (validLength < data.length) {
          leftover = data.subarray(validLength);
          // Whatever stopped the reader before the end of a chunk's last whole record is corruption, not a cut.
          if (leftover.length >= RECORD_HEADER_BYTES && leftover.readUInt32LE(0) + RECORD_HEADER_BYTES <= leftover.length) corrupt = true;
        }
      }
      if (next) await next.catch(() => undefined);
    } finally {
      await handle.close();
    }
    if ((leftover || corrupt) && consumed < size && truncateTornTail) await fsp.truncate(file, consumed);
  }

  private async recover(dataDir: string): Promise<void> {
    await fsp.mkdir(dataDir, { recursive: true });
    const files = await fsp.readdir(dataDir);
    const numbered = (prefix: string, suffix: string) =>
      files
        .filter((file) => file.startsWith(prefix) && file.endsWith(suffix))
        .map((file) => Number(file.slice(prefix.length, -suffix.length)))
        .filter((sequence) => Number.isInteger(sequence))
        .sort((a, b) => a - b);
    const snapshots = numbered('snapshot-', '.bin');
    const journals = numbered('journal-', '.log');
    const snapshot = snapshots.length > 0 ? snapshots[snapshots.length - 1] : 0;
    const tally: RecoveryTally = { restoredBytes: 0, supersededBytes: 0 };
    if (snapshot > 0) {
      const file = path.join(dataDir, `snapshot-${snapshot}.bin`);
      await this.replayFile(file, false, true, tally);
      this.lastSnapshotBytes = (await fsp.stat(file)).size;
    }
    const replayed = journals.filter((sequence) => sequence >= snapshot);
    for (const sequence of replayed) await this.replayFile(path.join(dataDir, `journal-${sequence}.log`), true, false, tally);
    // Dead bytes in the read buffers are at most the superseded bytes: below an eighth of the data they are left.
    if (tally.supersededBytes > 0 && tally.supersededBytes * 8 >= tally.restoredBytes) compactSparseBuffers(this.collections());
    this.sequence = Math.max(snapshot, replayed.length > 0 ? replayed[replayed.length - 1] : 1, 1);
    const journalFile = path.join(dataDir, `journal-${this.sequence}.log`);
    this.journalFd = openJournalFile(journalFile);
    this.journalBytes = fs.fstatSync(this.journalFd).size;
    for (const file of files) {
      const stale =
        file.endsWith('.tmp') ||
        (file.startsWith('journal-') && Number(file.slice(8, -4)) < snapshot) ||
        (file.startsWith('snapshot-') && Number(file.slice(9, -4)) < snapshot);
      if (stale) await fsp.rm(path.join(dataDir, file), { force: true });
    }
    await fsyncDirectory(dataDir);
  }

  /** Writes a snapshot of the current state and drops the journals it supersedes. */
  async compact(): Promise<void> {
    const dataDir = this.dataDir;
    if (!dataDir || this.closed) return;
    const sequence = this.sequence + 1;
    // The next journal's directory entry must be durable before any write acknowledged from it.
    const nextFd = openJournalFile(path.join(dataDir, `journal-${sequence}.log`));
    await fsyncDirectory(dataDir);
    if (this.closed) {
      fs.closeSync(nextFd);
      return;
    }
    // Switch journals and capture the state in the same tick: the snapshot holds exactly the changes
    // journaled before the switch. Documents are never mutated in place, so the captured arrays stay valid.
    const previousFd = this.journalFd;
    this.journalFd = nextFd;
    this.sequence = sequence;
    this.journalBytes = 0;
    const captured = this.collections().map((collection) => ({ collection, specs: collection.indexSpecs().slice(1), documents: [...collection.documents.values()] }));
    try {
      this.lastSnapshotBytes = await this.writeSnapshot(dataDir, sequence, captured);
    } finally {
      // Records still queued for the previous journal must reach it before it is closed; on success
      // the snapshot covers them, on failure that journal is replayed at the next start.
      await this.writer.sync().catch(() => undefined);
      fs.closeSync(previousFd);
    }
    for (const file of await fsp.readdir(dataDir)) {
      const journal = file.startsWith('journal-') && Number(file.slice(8, -4)) < sequence;
      const snapshot = file.startsWith('snapshot-') && file.endsWith('.bin') && Number(file.slice(9, -4)) < sequence;
      if (journal || snapshot) await fsp.rm(path.join(dataDir, file), { force: true });
    }
    // After the snapshot has let go of the views it captured, so the sparse buffers can be freed.
    await compactSparseBuffersInSlices(this.collections());
  }

  /** Writes `snapshot-<sequence>.bin` atomically (temporary file, fsync, rename, directory fsync); returns its size. */
  private async writeSnapshot(dataDir: string, sequence: number, captured: { collection: Collection; specs: IndexSpec[]; documents: Uint8Array[] }[]): Promise<number> {
    const temporary = path.join(dataDir, `snapshot-${sequence}.tmp`);
    const handle = await fsp.open(temporary, 'w');
    let bytes = 0;
    try {
      for (const { collection, specs, documents } of captured) {
        const header: FramedRecord[] = [typedRecord(RecordType.Catalog, { op: 'create', d: collection.database, c: collection.name, options: collection.options })];
        for (const spec of specs) header.push(typedRecord(RecordType.Catalog, { op: 'createIndex', d: collection.database, c: collection.name, spec }));
        bytes += await writeRecords(handle, header);
        // One record (at most 8 MB) per write: its checksum is the only synchronous work between
        // two awaits, so requests served meanwhile wait milliseconds, not the tens a batch of records took.
        for (const chunk of recordChunks(documents)) bytes += await writeRecords(handle, [putRecord(collection.database, collection.name, chunk)]);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temporary, path.join(dataDir, `snapshot-${sequence}.bin`));
    await fsyncDirectory(dataDir);
    return bytes;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.compacting) await this.compacting.catch(() => undefined);
    if (this.dataDir) await this.writer.sync().catch(() => undefined);
    this.closed = true;
    if (this.journalFd >= 0) fs.closeSync(this.journalFd);
    this.journalFd = -1;
  }
}
