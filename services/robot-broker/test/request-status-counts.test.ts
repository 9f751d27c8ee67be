import { startTestInfrastructure } from '@destiny/devstack/testing';
import { MongoClient, type Db } from 'mongodb';
import { COLLECTIONS, type PendingEnhancementDocument, type RobotBatchDocument } from '../src/data-access/collections';
import { createPendingEnhancementRepository } from '../src/data-access/pending-enhancement.repository';

describe('a request’s pending-enhancement statuses on MongoDB', () => {
  let infrastructure: Awaited<ReturnType<typeof startTestInfrastructure>>;
  let client: MongoClient;
  let db: Db;

  beforeAll(async () => {
    infrastructure = await startTestInfrastructure('robot-status-counts');
    client = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = client.db('destiny_robot_status_counts');
  });

  afterAll(async () => {
    await client?.close();
    await infrastructure?.stop();
  });

  let sequence = 0;
  const row = (status: PendingEnhancementDocument['status'], batch: string | null, request = 'request-1'): PendingEnhancementDocument => {
    sequence += 1;
    return {
      _id: `row-${sequence}`,
      reference_id: `reference-${sequence}`,
      robot_id: 'robot-1',
      enhancement_request_id: request,
      robot_enhancement_batch_id: batch,
      status,
      source: null,
      expires_at: null,
      retry_of: null,
      retry_depth: 0,
      created_at: new Date(),
      dedup_key: `${request}:${sequence}`,
      queue_order: null,
    };
  };
  const batch = (id: string, status: RobotBatchDocument['status']) => ({ _id: id, robot_id: 'robot-1', status, lease_expiry: null }) as unknown as RobotBatchDocument;

  it('when rows are leased to batches in different states, then each processing row counts as its batch says and the rest by their own status', async () => {
    await db.collection<RobotBatchDocument>(COLLECTIONS.batches).insertMany([batch('batch-live', 'processing'), batch('batch-importing', 'importing'), batch('batch-failed', 'failed')]);
    await db.collection<PendingEnhancementDocument>(COLLECTIONS.pending).insertMany([
      row('pending', null),
      row('processing', 'batch-live'),
      row('processing', 'batch-importing'),
      row('processing', 'batch-importing'),
      row('processing', 'batch-failed'),
      row('indexing', 'batch-old'),
      row('completed', 'batch-old'),
      row('expired', 'batch-gone'),
      row('processing', 'batch-importing', 'request-2'),
    ]);
    const repository = createPendingEnhancementRepository(db);
    expect(await repository.statusCountsOfRequest('request-1')).toEqual({ pending: 1, processing: 1, importing: 2, failed: 1, indexing: 1, completed: 1, expired: 1 });
    expect((await repository.statusesOfRequest('request-1')).sort()).toEqual(['completed', 'expired', 'failed', 'importing', 'indexing', 'pending', 'processing']);
    expect(await repository.statusesOfRequest('request-2')).toEqual(['importing']);
    expect(await repository.statusesOfRequest('request-none')).toEqual([]);
  });
});
