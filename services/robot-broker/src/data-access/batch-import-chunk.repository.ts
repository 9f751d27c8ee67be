import type { Collection, Db } from 'mongodb';
import { COLLECTIONS, type BatchImportChunkDocument, type ImportAttempt } from './collections';
import type { RobotResultValidationEntry } from '@destiny/contracts';

/** Line numbers in chunk ids are padded so the ids of one batch sort in line order. */
const LINE_DIGITS = 10;

const chunkId = (batchId: string, fromLine: number) => `${batchId}:${String(fromLine).padStart(LINE_DIGITS, '0')}`;
/** Every chunk id of a batch lies in [`<id>:`, `<id>;`): ';' follows ':'. */
const ofBatch = (batchId: string) => ({ _id: { $gte: `${batchId}:`, $lt: `${batchId};` } });

export function createBatchImportChunkRepository(db: Db) {
  const chunks: Collection<BatchImportChunkDocument> = db.collection(COLLECTIONS.importChunks);
  return {
    /**
     * Records a chunk's outcomes. A replayed chunk (its first record written, the batch's
     * `next_line` not moved before a crash) replaces the earlier record.
     */
    async record(batchId: string, fromLine: number, throughLine: number, attempts: Record<string, ImportAttempt>, entries: RobotResultValidationEntry[]): Promise<void> {
      const id = chunkId(batchId, fromLine);
      await chunks.replaceOne({ _id: id }, { batch_id: batchId, from_line: fromLine, through_line: throughLine, attempts, entries }, { upsert: true });
    },
    /** The recorded chunks that the batch's `next_line` covers, in line order. */
    async recordedBelow(batchId: string, nextLine: number): Promise<BatchImportChunkDocument[]> {
      const recorded = await chunks.find(ofBatch(batchId)).sort({ _id: 1 }).toArray();
      return recorded.filter((chunk) => chunk.through_line <= nextLine);
    },
    /** Drops a finished batch's records: its validation file holds the outcomes from then on. */
    async dropBatch(batchId: string): Promise<void> {
      await chunks.deleteMany(ofBatch(batchId));
    },
  };
}

export type BatchImportChunkRepository = ReturnType<typeof createBatchImportChunkRepository>;
