import type { Db } from 'mongodb';

export interface ProcessedMessages {
  /** True when the message was already handled (its effects must not be applied again). */
  alreadyProcessed(messageId: string): Promise<boolean>;
  /** Records the message as handled; safe to call twice. */
  markProcessed(messageId: string): Promise<void>;
}

/** Remembers handled message ids so a redelivered event changes nothing the second time. */
export function createProcessedMessages(db: Db, collectionName: string): ProcessedMessages {
  const collection = db.collection<{ _id: string; processed_at: Date }>(collectionName);
  return {
    async alreadyProcessed(messageId) {
      return (await collection.countDocuments({ _id: messageId }, { limit: 1 })) > 0;
    },
    async markProcessed(messageId) {
      await collection.updateOne({ _id: messageId }, { $setOnInsert: { processed_at: new Date() } }, { upsert: true });
    },
  };
}
