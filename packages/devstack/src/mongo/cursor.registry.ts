// Open cursors: materialised results handed out in batches by find/aggregate and getMore. A
// result document is either decoded or the BSON bytes to send as they are.
import { calculateObjectSize, Long } from 'bson';
import { type Document } from './bson-value.order';

const MAX_BATCH_BYTES = 16 * 1024 * 1024;
const DEFAULT_FIRST_BATCH = 101;
const IDLE_TIMEOUT_MS = 10 * 60 * 1000;

export type ResultDocument = Document | Uint8Array;

interface OpenCursor {
  namespace: string;
  documents: ResultDocument[];
  position: number;
  lastUsed: number;
}

export interface CursorReply {
  id: Long;
  ns: string;
  firstBatch?: ResultDocument[];
  nextBatch?: ResultDocument[];
}

export class CursorRegistry {
  private readonly cursors = new Map<string, OpenCursor>();
  private readonly sweeper: NodeJS.Timeout;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(), 60_000);
    this.sweeper.unref();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, cursor] of this.cursors) if (now - cursor.lastUsed > IDLE_TIMEOUT_MS) this.cursors.delete(id);
  }

  private static takeBatch(cursor: OpenCursor, batchSize: number | undefined): ResultDocument[] {
    const batch: ResultDocument[] = [];
    let bytes = 0;
    const limit = batchSize === undefined || batchSize <= 0 ? Number.POSITIVE_INFINITY : batchSize;
    while (cursor.position < cursor.documents.length && batch.length < limit) {
      const document = cursor.documents[cursor.position];
      const size = document instanceof Uint8Array ? document.length : calculateObjectSize(document);
      if (batch.length > 0 && bytes + size > MAX_BATCH_BYTES) break;
      bytes += size;
      batch.push(document);
      cursor.position += 1;
    }
    return batch;
  }

  private newId(): Long {
    for (;;) {
      const id = Long.fromBits((Math.random() * 0x100000000) >>> 0, (Math.random() * 0x7fffffff) >>> 0);
      if (!id.isZero() && !this.cursors.has(id.toString())) return id;
    }
  }

  /** The first batch of a result; keeps a cursor open when documents remain and `singleBatch` is off. */
  open(namespace: string, documents: ResultDocument[], batchSize: number | undefined, singleBatch: boolean): CursorReply {
    const cursor: OpenCursor = { namespace, documents, position: 0, lastUsed: Date.now() };
    const firstBatch = batchSize === 0 ? [] : CursorRegistry.takeBatch(cursor, batchSize ?? DEFAULT_FIRST_BATCH);
    if (singleBatch || cursor.position >= documents.length) return { id: Long.ZERO, ns: namespace, firstBatch };
    const id = this.newId();
    this.cursors.set(id.toString(), cursor);
    return { id, ns: namespace, firstBatch };
  }

  /** The next batch, or undefined when the cursor does not exist. */
  next(id: Long, namespace: string, batchSize: number | undefined): CursorReply | undefined {
    const key = id.toString();
    const cursor = this.cursors.get(key);
    if (!cursor || cursor.namespace !== namespace) return undefined;
    cursor.lastUsed = Date.now();
    const nextBatch = CursorRegistry.takeBatch(cursor, batchSize);
    if (cursor.position >= cursor.documents.length) {
      this.cursors.delete(key);
      return { id: Long.ZERO, ns: namespace, nextBatch };
    }
    return { id, ns: namespace, nextBatch };
  }

  kill(id: Long): boolean {
    return this.cursors.delete(id.toString());
  }

  close(): void {
    clearInterval(this.sweeper);
    this.cursors.clear();
  }
}
