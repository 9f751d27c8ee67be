// What the indexer must remember beyond the search index itself: the rebuild in progress (so
// events are written to the new index too) and references removed as duplicates (so an older
// event cannot bring one back once Elasticsearch has forgotten its delete tombstone).
import type { Collection, Db } from 'mongodb';
import type { IndexDeclaration } from '@destiny/platform';

export const INDEX_REBUILDS_COLLECTION = 'index_rebuilds';
export const REMOVED_REFERENCES_COLLECTION = 'removed_references';

export const INDEX_STATE_INDEXES: IndexDeclaration[] = [{ collection: REMOVED_REFERENCES_COLLECTION, keys: { removed_at: 1 } }];

interface RebuildDocument {
  _id: string;
  index: string;
  started_at: Date;
  /** Renewed as the rebuild progresses; a marker left by a crashed rebuild stops being renewed. */
  heartbeat_at: Date;
}

interface RemovedReferenceDocument {
  _id: string;
  version: number;
  removed_at: Date;
}

const REBUILD_ID = 'reference';

export interface RebuildMarker {
  index: string;
  startedAt: Date;
}

export class IndexStateRepository {
  private readonly rebuilds: Collection<RebuildDocument>;
  private readonly removed: Collection<RemovedReferenceDocument>;

  constructor(db: Db) {
    this.rebuilds = db.collection<RebuildDocument>(INDEX_REBUILDS_COLLECTION);
    this.removed = db.collection<RemovedReferenceDocument>(REMOVED_REFERENCES_COLLECTION);
  }

  async currentRebuild(): Promise<RebuildMarker | null> {
    const document = await this.rebuilds.findOne({ _id: REBUILD_ID });
    return document ? { index: document.index, startedAt: document.started_at } : null;
  }

  /**
   * Claims the single rebuild slot. A slot whose heartbeat is older than `staleAfterMs` belonged
   * to a rebuild that died; it is taken over and its index is answered as `abandoned`.
   */
  async beginRebuild(index: string, startedAt: Date, staleAfterMs: number): Promise<{ claimed: boolean; abandoned?: string }> {
    try {
      await this.rebuilds.insertOne({ _id: REBUILD_ID, index, started_at: startedAt, heartbeat_at: startedAt });
      return { claimed: true };
    } catch (error) {
      if ((error as { code?: number }).code !== 11000) throw error;
    }
    const previous = await this.rebuilds.findOneAndUpdate(
      { _id: REBUILD_ID, heartbeat_at: { $lt: new Date(startedAt.getTime() - staleAfterMs) } },
      { $set: { index, started_at: startedAt, heartbeat_at: startedAt } },
    );
    return previous ? { claimed: true, abandoned: previous.index } : { claimed: false };
  }

  async heartbeat(index: string, now = new Date()): Promise<void> {
    await this.rebuilds.updateOne({ _id: REBUILD_ID, index }, { $set: { heartbeat_at: now } });
  }

  async endRebuild(index: string): Promise<void> {
    await this.rebuilds.deleteOne({ _id: REBUILD_ID, index });
  }

  /** Removal versions of those of `ids` that are currently removed. */
  async removedVersions(ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const documents = await this.removed.find({ _id: { $in: [...ids] } }).toArray();
    return new Map(documents.map((document) => [document._id, document.version]));
  }

  async removedSince(since: Date): Promise<Array<{ id: string; version: number }>> {
    const documents = await this.removed.find({ removed_at: { $gte: since } }).toArray();
    return documents.map((document) => ({ id: document._id, version: document.version }));
  }

  /** Records removals (keeping the highest version) and forgets removals a newer index undid. */
  async record(removals: ReadonlyArray<{ id: string; version: number }>, reindexed: ReadonlyArray<{ id: string; version: number }>, now = new Date()): Promise<void> {
    const operations = [
      ...removals.map(({ id, version }) => ({ updateOne: { filter: { _id: id }, update: { $max: { version }, $set: { removed_at: now } }, upsert: true } })),
      ...reindexed.map(({ id, version }) => ({ deleteOne: { filter: { _id: id, version: { $lt: version } } } })),
    ];
    if (operations.length > 0) await this.removed.bulkWrite(operations, { ordered: false });
  }
}
