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
import { frameRecord, fsyncDirectory, GroupCommitWriter, readRecords, recordBytes, type FramedRecord } from './journal.file';

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
const MIN_COMPACTION_BYTES = 64 * 1024 * 1024;

function putRecord(database: string, collection: string, documents: Uint8Array[]): FramedRecord {
  const header = serialize({ d: database, c: collection });
  return frameRecord([Buffer.from([RecordType.PutDocuments]), header, ...documents]);
}

function typedRecord(type: RecordType, body: Document): FramedRecord {
  return frameRecord([Buffer.from([type]), serialize(body, { checkKeys: false })]);
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

  private constructor(dataDir?: string) {
    this.dataDir = dataDir;
  }

  static async open(dataDir?: string): Promise<StorageEngine> {
    const engine = new StorageEngine(dataDir);
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
        for (const raw of source.documents.values()) target.restore(raw);
        this.applyCatalog({ op: 'drop', d: change.d, c: change.c });
        return;
      }
    }
  }

  // ---- document changes (already applied in memory by the caller) --------------------------

  /** Journals inserted or updated documents (their full new stored bytes). */
  journalPut(collection: Collection, documents: Uint8Array[]): void {
    if (!this.dataDir || documents.length === 0) return;
    for (let start = 0; start < documents.length; start += CHUNK_DOCUMENTS) {
      this.journal(putRecord(collection.database, collection.name, documents.slice(start, start + CHUNK_DOCUMENTS)));
    }
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
    if (!this.compacting && this.journalBytes > Math.max(MIN_COMPACTION_BYTES, this.lastSnapshotBytes)) {
      this.compacting = this.compact().finally(() => {
        this.compacting = undefined;
      });
    }
  }

  // ---- recovery and snapshots ----------------------------------------------------------------

  private replay(payload: Buffer): void {
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
        collection.restore(payload.subarray(offset, offset + length));
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

  private async replayFile(file: string, truncateTornTail: boolean): Promise<void> {
    const handle = await fsp.open(file, 'r');
    const chunkBytes = 64 * 1024 * 1024;
    let leftover = Buffer.alloc(0);
    let consumed = 0;
    let position = 0;
    try {
      for (;;) {
        const chunk = Buffer.allocUnsafe(chunkBytes);
        const { bytesRead } = await handle.read(chunk, 0, chunkBytes, position);
        position += bytesRead;
        const data = leftover.length > 0 ? Buffer.concat([leftover, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
        const { records, validLength } = readRecords(data);
        for (const record of records) this.replay(record);
        consumed += validLength;
        leftover = Buffer.from(data.subarray(validLength));
        if (bytesRead === 0) break;
      }
    } finally {
      await handle.close();
    }
    if (leftover.length > 0 && truncateTornTail) await fsp.truncate(file, consumed);
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
      await this.replayFile(file, false);
      this.lastSnapshotBytes = (await fsp.stat(file)).size;
    }
    const replayed = journals.filter((sequence) => sequence >= snapshot);
    for (const sequence of replayed) await this.replayFile(path.join(dataDir, `journal-${sequence}.log`), true);
    this.sequence = Math.max(snapshot, replayed.length > 0 ? replayed[replayed.length - 1] : 1, 1);
    const journalFile = path.join(dataDir, `journal-${this.sequence}.log`);
    this.journalFd = fs.openSync(journalFile, 'a');
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
    const previousFd = this.journalFd;
    const sequence = this.sequence + 1;
    // Switch journals and capture the state in the same tick: the snapshot holds exactly the changes
    // journaled before the switch. Documents are never mutated in place, so the captured arrays stay valid.
    this.journalFd = fs.openSync(path.join(dataDir, `journal-${sequence}.log`), 'a');
    this.sequence = sequence;
    this.journalBytes = 0;
    const captured = [...this.databases.values()].flatMap((database) =>
      [...database.values()].map((collection) => ({ collection, specs: collection.indexSpecs().slice(1), documents: [...collection.documents.values()] })),
    );
    await fsyncDirectory(dataDir);
    const temporary = path.join(dataDir, `snapshot-${sequence}.tmp`);
    const handle = await fsp.open(temporary, 'w');
    let bytes = 0;
    try {
      for (const { collection, specs, documents } of captured) {
        const header: FramedRecord[] = [typedRecord(RecordType.Catalog, { op: 'create', d: collection.database, c: collection.name, options: collection.options })];
        for (const spec of specs) header.push(typedRecord(RecordType.Catalog, { op: 'createIndex', d: collection.database, c: collection.name, spec }));
        bytes += await writeRecords(handle, header);
        for (let start = 0; start < documents.length; start += CHUNK_DOCUMENTS * 10) {
          const chunk: FramedRecord[] = [];
          for (let offset = start; offset < Math.min(documents.length, start + CHUNK_DOCUMENTS * 10); offset += CHUNK_DOCUMENTS) {
            chunk.push(putRecord(collection.database, collection.name, documents.slice(offset, Math.min(offset + CHUNK_DOCUMENTS, documents.length))));
          }
          bytes += await writeRecords(handle, chunk);
        }
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temporary, path.join(dataDir, `snapshot-${sequence}.bin`));
    await fsyncDirectory(dataDir);
    this.lastSnapshotBytes = bytes;
    // Records still queued for the previous journal are covered by the snapshot; flush before closing it.
    await this.writer.sync().catch(() => undefined);
    fs.closeSync(previousFd);
    for (const file of await fsp.readdir(dataDir)) {
      const journal = file.startsWith('journal-') && Number(file.slice(8, -4)) < sequence;
      const snapshot = file.startsWith('snapshot-') && file.endsWith('.bin') && Number(file.slice(9, -4)) < sequence;
      if (journal || snapshot) await fsp.rm(path.join(dataDir, file), { force: true });
    }
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
