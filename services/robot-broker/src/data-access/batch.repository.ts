import type { Collection, Db } from 'mongodb';
import { COLLECTIONS, type RobotBatchDocument } from './collections';

export function createBatchRepository(db: Db) {
  const batches: Collection<RobotBatchDocument> = db.collection(COLLECTIONS.batches);
  return {
    collection: batches,
    get: (id: string) => batches.findOne({ _id: id }),
    insert: async (batch: RobotBatchDocument) => {
      await batches.insertOne(batch);
    },
    /** A live lease gets the new expiry (§12.7); false when there is none (passed, submitted or failed). */
    async renew(id: string, now: Date, expiresAt: Date): Promise<boolean> {
      const result = await batches.updateOne({ _id: id, status: 'processing', lease_expiry: { $gt: now } }, { $set: { lease_expiry: expiresAt } });
      return result.matchedCount === 1;
    },
  };
}

export type BatchRepository = ReturnType<typeof createBatchRepository>;
