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
import { frameRecord, fsyncDirectory, GroupCommitWriter, openJournalFile, readRecords, recordBytes, type FramedRecord } from './journal.file';

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


const CHUNK_DOCUMENTS = 1000;
const CHUNK_RECORD_BYTES = 8 * 1024 * 1024;
const READ_CHUNK_BYTES = 256 * 1024 * 1024;
const MIN_COMPACTION_BYTES = 256 * 1024 * 1024;

function putRecord(database: string, collection: string, documents: Uint8Array[]): FramedRecord {
  const header = serialize({ d: database, c: collection });
  return frameRecord([Buffer.from([RecordType.PutDocuments]), header, ...documents]);
}

function typedRecord(type: RecordType, body: Document): FramedRecord {
  return frameRecord([Buffer.from([type]), serialize(body, { checkKeys: false })]);
}

/** Splits documents into groups small enough for one record (by count and by bytes). */
function* recordChunks(documents: Uint8Array[]): Iterable<Uint8Array[]> {
  let chunk: Uint8Array[] = [];
  let bytes = 0;
  for (const document of documents) {
    if (chunk.length > 0 && (chunk.length >= CHUNK_DOCUMENTS || bytes + document.length > CHUNK_RECORD_BYTES)) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
    chunk.push(document);
    bytes += document.length;
  }
  if (chunk.length > 0) yield chunk;
}

async function writeRecords(handle: fsp.FileHandle, records: FramedRecord[]): Promise<number> {
  const data = Buffer.concat(records.flat());
  await handle.write(data);
  return data.length;
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

  private constructor(dataDir: string | undefined, onBackgroundError: (error: Error) => void) {
    this.dataDir = dataDir;
    this.onBackgroundError = onBackgroundError;
  }

  /** `onBackgroundError` hears about failed background snapshots (the journal stays authoritative). */
  static async open(dataDir: string | undefined, onBackgroundError: (error: Error) => void = () => undefined): Promise<StorageEngine> {
    const engine = new StorageEngine(dataDir, onBackgroundError);
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

  private replay(payload: Buffer, copyDocuments: boolean): void {
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
        collection.restore(payload.subarray(offset, offset + length), !copyDocuments);
        offset += length;
      }
      return;
    }
    const body = deserialize(payload.subarray(1), DESERIALIZE_OPTIONS);
    if (type === RecordType.DeleteDocuments) {
      const collection = this.collection(body.d as string, body.c as string);
      if (!collection) return;
      for (const id of body.ids as unknown[]) collection.restoreDeletion(id);
      return;
    }
    if (type === RecordType.Catalog) this.applyCatalog(body as unknown as CatalogChange);
  }

  /**
   * Replays a journal or snapshot. Files are read in large chunks; documents of a snapshot stay
   * views into the chunk (a snapshot holds only live documents), journal documents are copied
   * because a journal may hold many superseded versions.
   */
  private async replayFile(file: string, truncateTornTail: boolean, copyDocuments: boolean): Promise<void> {
    const handle = await fsp.open(file, 'r');
    const size = (await handle.stat()).size;
    let leftover: Buffer | undefined;
    let consumed = 0;
    let position = 0;
    try {
      while (position < size) {
        const carried = leftover?.length ?? 0;
        // A record larger than a chunk (rare: huge documents) gets a chunk of its own size.
        const needed = leftover && leftover.length >= 4 ? leftover.readUInt32LE(0) + 8 : 0;
        const want = Math.min(size - position, Math.max(READ_CHUNK_BYTES, needed - carried));
        const chunk = Buffer.allocUnsafe(carried + want);
        if (leftover) leftover.copy(chunk, 0);
        let filled = 0;
        while (filled < want) {
          const { bytesRead } = await handle.read(chunk, carried + filled, want - filled, position + filled);
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        position += filled;
        const data = chunk.subarray(0, carried + filled);
        const { records, validLength } = readRecords(data);
        for (const record of records) this.replay(record, copyDocuments);
        consumed += validLength;
        leftover = validLength < data.length ? data.subarray(validLength) : undefined;
        if (filled < want) break;
      }
    } finally {
      await handle.close();
    }
    if (leftover && truncateTornTail) await fsp.truncate(file, consumed);
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
    if (snapshot > 0) {
      const file = path.join(dataDir, `snapshot-${snapshot}.bin`);
      await this.replayFile(file, false, false);
      this.lastSnapshotBytes = (await fsp.stat(file)).size;
    }
    const replayed = journals.filter((sequence) => sequence >= snapshot);
    for (const sequence of replayed) await this.replayFile(path.join(dataDir, `journal-${sequence}.log`), true, true);
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
    const captured = [...this.databases.values()].flatMap((database) =>
      [...database.values()].map((collection) => ({ collection, specs: collection.indexSpecs().slice(1), documents: [...collection.documents.values()] })),
    );
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
        let pending: FramedRecord[] = [];
        for (const chunk of recordChunks(documents)) {
          pending.push(putRecord(collection.database, collection.name, chunk));
          if (pending.length >= 10) {
            bytes += await writeRecords(handle, pending);
            pending = [];
          }
        }
        bytes += await writeRecords(handle, pending);
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
