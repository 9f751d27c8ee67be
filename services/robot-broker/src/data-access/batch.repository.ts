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
  };
}

export type BatchRepository = ReturnType<typeof createBatchRepository>;
