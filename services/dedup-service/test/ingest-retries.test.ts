import { identifierIdentityKey, uuidv7 } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient } from 'mongodb';
import { startDedupService } from '../src/index';
import { abstractLine, call, dedupClient, startInfrastructure, waitFor, type DedupClient } from './dedup-helpers';

// A chunk import-service sends again because the first answer never arrived: whatever the first
// attempt had written before it stopped, the second applies each line once. The crash window is
// recreated exactly: the first attempt's writes are kept and its last one, the line's outcome,
// is removed, as a process killed just before writing it leaves them.

interface StoredView {
  id: string;
  enhancements: Array<{ id: string; superseded_by?: string | null; content: { abstract?: string } }>;
  duplicate_decision: { duplicate_determination: string } | null;
}

describe('IngestReferences sent again after an attempt that stopped before recording its outcomes', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let service: RunningBackendService;
  let client: DedupClient;
  let mongo: MongoClient;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-ingest-retries');
    service = await startDedupService(infrastructure.env);
    client = dedupClient(service.grpcPort);
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
  });

  afterAll(async () => {
    client?.close();
    await mongo?.close();
    await service?.stop();
    await infrastructure?.stop();
  });

  const line = (doi: string, abstract: string, importResultId?: string) => abstractLine([{ identifier: doi, identifier_type: 'doi' }], abstract, importResultId);
  const ingest = async (strategy: string, lines: unknown[], giveUpFailureDetails = '') =>
    (await call<{ outcomes: Array<{ reference_id: string; status: string; failure_details: string }> }>(client, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: strategy, lines, give_up_failure_details: giveUpFailureDetails })).outcomes;
  const store = () => mongo.db('destiny_dedup');
  /**
   * Ingests the line and recreates the crash window after it: the attempt's writes stay, its last
   * one, the line's outcome, is removed. Answers the attempt's outcome.
   */
  const storedThenLost = async (strategy: string, sent: ReturnType<typeof line>) => {
    const [first] = await ingest(strategy, [sent]);
    await store().collection('ingest_outcomes').deleteOne({ _id: sent.import_result_id as never });
    return first;
  };
  const referencesWith = (doi: string) => store().collection('references').countDocuments({ 'identifiers.identifier': doi });
  const getReference = async (id: string) => JSON.parse((await call<{ json: string }>(client, 'GetReference', { id })).json) as StoredView;

  it.each(['append', 'merge_aggressive'])('when the %s merge of an earlier attempt was written but not its outcome, then the line sent again merges nothing more and answers the same reference', async (strategy) => {
    const doi = `10.4242/retried-merge.${strategy}`;
    const [created] = await ingest('fail', [line(doi, 'as first imported')]);
    // Decided first, so the decision's own write to the reference does not land between the two reads compared below.
    await waitFor(async () => (await getReference(created.reference_id)).duplicate_decision, 'the new reference\'s decision');
    const merge = line(doi, `merged by ${strategy}`);
    const first = await storedThenLost(strategy, merge);
    expect(first).toMatchObject({ status: 'completed', reference_id: created.reference_id });
    const afterFirst = await getReference(created.reference_id);

    const [again] = await ingest(strategy, [merge]);

    expect(again).toEqual(first);
    expect(await getReference(created.reference_id)).toEqual(afterFirst);
  });

  it('when a new reference was written but not its identifier claim or outcome, then the line sent again claims it for that reference and creates no other', async () => {
    const doi = '10.4242/retried-create';
    const create = line(doi, 'created once');
    const first = await storedThenLost('fail', create);
    const dedup = store();
    await dedup.collection('identifiers').deleteMany({ reference_id: first.reference_id });

    const [again] = await ingest('fail', [create]);

    expect(again).toEqual(first);
    expect(await referencesWith(doi)).toBe(1);
    expect(await dedup.collection('identifiers').find({ reference_id: first.reference_id }).toArray()).toHaveLength(1);
    const found = await call<{ json: string[] }>(client, 'LookupReferences', { identifiers: [`doi:${doi}`] });
    expect(found.json.map((item) => (JSON.parse(item) as { id: string }).id)).toEqual([first.reference_id]);
  });

  it('when a line adding nothing under a merge strategy lost its outcome, then the line sent again answers the existing reference again and stores nothing', async () => {
    const doi = '10.4242/retried-empty-merge';
    const [created] = await ingest('fail', [line(doi, 'the only content')]);
    await waitFor(async () => (await getReference(created.reference_id)).duplicate_decision, 'the new reference\'s decision');
    const copy = line(doi, 'the only content');
    const first = await storedThenLost('merge_defensive', copy);
    expect(first).toMatchObject({ status: 'completed', reference_id: created.reference_id });
    const afterFirst = await getReference(created.reference_id);

    const [again] = await ingest('merge_defensive', [copy]);

    expect(again).toEqual(first);
    expect(await getReference(created.reference_id)).toEqual(afterFirst);
    expect(await referencesWith(doi)).toBe(1);
  });

  describe('and then given up on (import-service\'s retries are exhausted)', () => {
    const givenUp = 'Retries exhausted.';

    it('when no attempt stored the line, then it is answered failed, and an attempt arriving after that stores nothing', async () => {
      const doi = '10.4242/given-up-unstored';
      const late = line(doi, 'never stored');

      const [answer] = await ingest('fail', [late], givenUp);
      const [lateAnswer] = await ingest('fail', [late]);

      expect(answer).toEqual({ line_number: 1, status: 'failed', reference_id: '', failure_details: givenUp });
      expect(lateAnswer).toEqual(answer);
      expect(await referencesWith(doi)).toBe(0);
      expect(await store().collection('identifiers').countDocuments({ _id: identifierIdentityKey({ identifier: doi, identifier_type: 'doi' }) as never })).toBe(0);
    });

    it('when an earlier attempt stored a new reference but not its outcome, then the line is answered with that reference, stored once', async () => {
      const doi = '10.4242/given-up-created';
      const create = line(doi, 'stored by the attempt whose answer was lost');
      const first = await storedThenLost('fail', create);

      const [answer] = await ingest('fail', [create], givenUp);

      expect(answer).toEqual(first);
      expect(await referencesWith(doi)).toBe(1);
    });

    it('when an earlier attempt merged the line but its outcome was lost, then the line is answered with the merged reference and merges nothing more', async () => {
      const doi = '10.4242/given-up-merged';
      const [created] = await ingest('fail', [line(doi, 'as first imported')]);
      await waitFor(async () => (await getReference(created.reference_id)).duplicate_decision, 'the new reference\'s decision');
      const merge = line(doi, 'merged before the answer was lost');
      const first = await storedThenLost('append', merge);
      const afterFirst = await getReference(created.reference_id);

      const [answer] = await ingest('append', [merge], givenUp);

      expect(answer).toEqual(first);
      expect(await getReference(created.reference_id)).toEqual(afterFirst);
    });

    it('when a line adding nothing under a merge strategy is given up on, then it is answered with the existing reference, as any attempt answers it', async () => {
      const doi = '10.4242/given-up-empty-merge';
      const [created] = await ingest('fail', [line(doi, 'the same content')]);
      const before = await getReference(created.reference_id);

      const [answer] = await ingest('merge_defensive', [line(doi, 'the same content')], givenUp);

      expect(answer).toMatchObject({ status: 'completed', reference_id: created.reference_id });
      expect((await getReference(created.reference_id)).enhancements).toEqual(before.enhancements);
    });

    it.each([
      ['fail', 'failed', 'Identifier(s) are already mapped on an existing reference'],
      ['discard', 'completed', ''],
    ])('when a line collides under %s, then it is answered with that strategy\'s own outcome, not the give-up details', async (strategy, status, detail) => {
      const doi = `10.4242/given-up-collision.${strategy}`;
      await ingest('fail', [line(doi, 'already stored')]);

      const [answer] = await ingest(strategy, [line(doi, 'collides')], givenUp);

      expect(answer).toMatchObject({ status, reference_id: '' });
      expect(answer.failure_details).toContain(detail);
      expect(answer.failure_details).not.toContain(givenUp);
      expect(await referencesWith(doi)).toBe(1);
    });

    it('when a stopped attempt claimed an identifier for a merge it never wrote, then giving the line up releases the claim, so the identifier is free again', async () => {
      const doi = '10.4242/given-up-stray-claim';
      const pubmed = { identifier: 42424242, identifier_type: 'pm_id' };
      const [created] = await ingest('fail', [line(doi, 'as first imported')]);
      // What such an attempt leaves: the claim of the identifier its merge would add (claims are written first), nothing else.
      await store().collection('identifiers').insertOne({ _id: identifierIdentityKey(pubmed as never), reference_id: created.reference_id } as never);

      const [answer] = await ingest('append', [abstractLine([{ identifier: doi, identifier_type: 'doi' }, pubmed], 'never merged')], givenUp);
      const [fresh] = await ingest('fail', [abstractLine([pubmed], 'a reference of its own')]);

      expect(answer).toMatchObject({ status: 'failed', failure_details: givenUp });
      expect(fresh.status).toBe('completed');
      expect(fresh.reference_id).not.toBe(created.reference_id);
    });

    it('when some lines of the chunk were recorded and others never arrived, then each is answered by what the store holds', async () => {
      const stored = line('10.4242/given-up-mixed.1', 'recorded');
      const [first] = await ingest('fail', [stored]);
      const unstored = { ...line('10.4242/given-up-mixed.2', 'never arrived'), line_number: 2 };

      const answers = await ingest('fail', [stored, unstored], givenUp);

      expect(answers).toEqual([first, { line_number: 2, status: 'failed', reference_id: '', failure_details: givenUp }]);
    });
  });
});
