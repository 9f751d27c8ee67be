// Durability for the dev stand-in: every change is appended to an NDJSON operation log; a snapshot
// (the same operations, compacted to the current state) replaces the log now and then.
import fs from 'node:fs';
import path from 'node:path';

export type Operation =
  | { op: 'create_index'; name: string; uuid: string; creationDate: number; settings: Record<string, unknown>; mappings: Record<string, unknown>; aliases: Record<string, Record<string, unknown>> }
  | { op: 'delete_index'; name: string }
  | { op: 'put_mapping'; name: string; mappings: Record<string, unknown> }
  | { op: 'put_settings'; name: string; settings: Record<string, unknown> }
  | { op: 'set_aliases'; name: string; aliases: Record<string, Record<string, unknown>> }
  | { op: 'index'; name: string; id: string; source: Record<string, unknown>; version: number; seqNo: number }
  | { op: 'delete'; name: string; id: string; version: number; seqNo: number };

const SNAPSHOT = 'snapshot.ndjson';
const LOG = 'operations.ndjson';

export class OperationLog {
  private fd: number;
  private appended = 0;

  constructor(private readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
    this.fd = fs.openSync(path.join(dir, LOG), 'a');
  }

  /** Operations to replay at start: the snapshot, then the log written after it. */
  *load(): Generator<Operation> {
    for (const file of [SNAPSHOT, LOG]) {
      const full = path.join(this.dir, file);
      if (!fs.existsSync(full)) continue;
      const text = fs.readFileSync(full, 'utf8');
      let start = 0;
      while (start < text.length) {
        let end = text.indexOf('\n', start);
        if (end < 0) end = text.length;
        const line = text.slice(start, end);
        start = end + 1;
        if (!line.trim()) continue;
        try {
          yield JSON.parse(line) as Operation;
        } catch (_error) {
          // A torn last line from a crash mid-write is skipped; everything before it is intact.
          continue;
        }
      }
    }
  }

  append(operations: Operation[]): void {
    if (operations.length === 0) return;
    fs.writeSync(this.fd, operations.map((operation) => JSON.stringify(operation)).join('\n') + '\n');
    this.appended += operations.length;
  }

  get appendedSinceSnapshot(): number {
    return this.appended;
  }

  /** Writes the full state as a snapshot and empties the log. */
  snapshot(state: Iterable<Operation>): void {
    const temporary = path.join(this.dir, `${SNAPSHOT}.tmp`);
    const fd = fs.openSync(temporary, 'w');
    let buffer: string[] = [];
    for (const operation of state) {
      buffer.push(JSON.stringify(operation));
      if (buffer.length >= 1000) {
        fs.writeSync(fd, buffer.join('\n') + '\n');
        buffer = [];
      }
    }
    if (buffer.length) fs.writeSync(fd, buffer.join('\n') + '\n');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(temporary, path.join(this.dir, SNAPSHOT));
    fs.closeSync(this.fd);
    this.fd = fs.openSync(path.join(this.dir, LOG), 'w');
    this.appended = 0;
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}
