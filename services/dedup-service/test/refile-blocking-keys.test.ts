import { uuidv7 } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import type { ReferenceBlockingKeys } from '../src/data-access/blocking-key.repository';
import { COLLECTIONS } from '../src/data-access/collections';
import { blockingFormat, blockingKeys, type DedupRecord } from '../src/domain/deduplication';
import type { ReferenceDocument } from '../src/domain/reference.model';
import { startDedupService } from '../src/index';
import { bibliographic, call, dedupClient, startInfrastructure, waitFor, type DedupClient } from './dedup-helpers';

interface View {
  duplicate_decision: { duplicate_determination: string; canonical_reference_id: string | null } | null;
}

// An engine that normalises differently files records under other keys; references filed by the
// one before must be filed again, or the references after an upgrade never meet them.
describe('dedup-service filing references again after the blocking format changed', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let service: RunningBackendService | undefined;
  let client: DedupClient | undefined;
  let mongo: MongoClient;
  let db: Db;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-refile-keys');
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = mongo.db('destiny_dedup');
  });

  afterAll(async () => {
    client?.close();
    await service?.stop();
    await mongo?.close();
    await infrastructure?.stop();
  });

  async function start() {
    service = await startDedupService(infrastructure.env);
    client = dedupClient(service.grpcPort);
  }
  async function stop() {
    client?.close();
    await service?.stop();
    client = undefined;
    service = undefined;
  }
  let line = 0;
  async function ingest(identifier: string, title: string): Promise<string> {
    const reference = {
      identifiers: [{ identifier, identifier_type: 'other', other_identifier_name: 'catalogue' }],
      enhancements: [bibliographic(title, ['Achterberg, W.', 'Nakamura, Y.', 'Osei, K.'], 2019, 'Journal of Paediatric Oncology')],
    };
    const lines = [{ line_number: ++line, reference_json: JSON.stringify(reference), import_result_id: uuidv7() }];
    const [outcome] = (await call<{ outcomes: Array<{ reference_id: string; status: string }> }>(client!, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: 'fail', lines })).outcomes;
    expect(outcome.status).toBe('completed');
    return outcome.reference_id;
  }
  const decided = (id: string) =>
    waitFor(async () => (JSON.parse((await call<{ json: string }>(client!, 'GetReference', { id })).json) as View).duplicate_decision, `a decision for ${id}`);
  const keySets = () => db.collection<ReferenceBlockingKeys>(COLLECTIONS.referenceBlockingKeys);

  it('when a stored reference was filed under keys the current engine no longer writes, then a restart files it again and a new copy in other spelling finds it', async () => {
    await start();
    const original = await ingest('refile-1', 'Tumour behaviour in randomised trials of childhood leukaemia treatment');
    expect(await decided(original)).toEqual({ duplicate_determination: 'canonical', canonical_reference_id: null });
    expect((await keySets().findOne({ _id: original }))?.format).toBe(blockingFormat);
    await stop();

    // As a store written by an earlier engine holds it: other keys, no format, no marker.
    await keySets().updateOne({ _id: original }, { $set: { keys: ['an-earlier-engine-key'] }, $unset: { format: '' } });
    await db.collection(COLLECTIONS.formatMarkers).deleteMany({});

    await start();
    const refiled = await waitFor(async () => {
      const row = await keySets().findOne({ _id: original });
      return row?.format === blockingFormat && row;
    }, 'the reference filed again');
    const record = (await db.collection<ReferenceDocument>(COLLECTIONS.references).findOne({ _id: original }))?.dedup_record?.record as DedupRecord;
    expect(refiled.keys).toEqual(expect.arrayContaining(['an-earlier-engine-key', ...blockingKeys(record)]));
    expect(await waitFor(async () => db.collection<{ _id: string; format: number }>(COLLECTIONS.formatMarkers).findOne({ _id: COLLECTIONS.referenceBlockingKeys }), 'the format marker')).toMatchObject({
      format: blockingFormat,
    });

    const copy = await ingest('refile-2', 'Tumor behavior in randomized trials of childhood leukemia treatment');
    expect(await decided(copy)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: original });
  });
});
