// Removes documents whose TTL-indexed date is older than the index's expireAfterSeconds, like
// mongod's TTL monitor (every 60 seconds by default), journaling the deletions.
import { toNumber, typeBracket, TypeBracket } from './bson-value.order';
import { Collection } from './collection.store';
import { type StorageEngine } from './storage.engine';

export class TtlMonitor {
  private readonly engine: StorageEngine;
  private readonly timer: NodeJS.Timeout;
  private running: Promise<number> | undefined;

  constructor(engine: StorageEngine, intervalMs = 60_000) {
    this.engine = engine;
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), intervalMs);
    this.timer.unref();
  }

  /** Deletes every expired document now; resolves with how many were removed once durable. */
  sweep(now = new Date()): Promise<number> {
    this.running ??= this.removeExpired(now).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async removeExpired(now: Date): Promise<number> {
    let removed = 0;
    for (const database of this.engine.databases.values()) {
      for (const collection of database.values()) {
        for (const index of collection.indexes.values()) {
          const seconds = index.spec.expireAfterSeconds;
          if (index.fields.length !== 1 || typeBracket(seconds) !== TypeBracket.Number) continue;
          const cutoff = new Date(now.getTime() - toNumber(seconds) * 1000);
          const keys = [...index.range(undefined, { value: cutoff, inclusive: false })];
          const ids: unknown[] = [];
          for (const key of keys) {
            const raw = collection.documents.get(key);
            if (!raw) continue;
            ids.push(Collection.decode(raw)._id);
            collection.remove(key);
          }
          this.engine.journalDelete(collection, ids);
          removed += ids.length;
        }
      }
    }
    await this.engine.commit();
    return removed;
  }

  close(): void {
    clearInterval(this.timer);
  }
}
