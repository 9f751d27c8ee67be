import { uuidv7 } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient } from 'mongodb';
import { startDedupService } from '../src/index';
import { call, dedupClient, observeReferenceChanged, startInfrastructure, waitFor, type DedupClient } from './dedup-helpers';

interface AddOutcome {
  reference_id: string;
  status: string;
  enhancement_id: string;
  error: string;
  reference_version: number;
  index_reference_id: string;
  index_version: number;
}

interface StoredView {
  id: string;
  enhancements: Array<{ id: string; content: { abstract?: string } }>;
  duplicate_decision: { duplicate_determination: string; canonical_reference_id: string | null } | null;
}

describe('dedup-service AddEnhancements through gRPC', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let service: RunningBackendService;
  let client: DedupClient;
  let observer: Awaited<ReturnType<typeof observeReferenceChanged>>;
  let mongo: MongoClient;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-add-enhancements');
    service = await startDedupService(infrastructure.env);
    client = dedupClient(service.grpcPort);
    observer = await observeReferenceChanged(infrastructure.env.AMQP_NAMESPACE);
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
  });

  afterAll(async () => {
    await mongo?.close();
    client?.close();
    await observer?.close();
    await service?.stop();
    await infrastructure?.stop();
  });

  let line = 0;
  async function ingest(dois: string[]): Promise<string[]> {
    const lines = dois.map((value) => ({ line_number: ++line, reference_json: JSON.stringify({ identifiers: [{ identifier: value, identifier_type: 'doi' }] }), import_result_id: uuidv7() }));
    const response = await call<{ outcomes: Array<{ reference_id: string }> }>(client, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: 'fail', lines });
    return response.outcomes.map((outcome) => outcome.reference_id);
  }
  const getReference = async (id: string) => JSON.parse((await call<{ json: string }>(client, 'GetReference', { id })).json) as StoredView;
  const decided = (id: string) => waitFor(async () => (await getReference(id)).duplicate_decision, `a decision for ${id}`);
  const abstract = (referenceId: string, text: string, derivedFrom?: string[]) => ({
    reference_id: referenceId,
    source: 'robot',
    visibility: 'public',
    ...(derivedFrom ? { derived_from: derivedFrom } : {}),
    content: { enhancement_type: 'abstract', process: 'other', abstract: text },
  });
  const add = async (enhancements: unknown[], ids: string[] = []) =>
    (
      await call<{ outcomes: AddOutcome[] }>(client, 'AddEnhancements', {
        enhancements_json: enhancements.map((item) => JSON.stringify(item)),
        enhancement_ids: ids,
        robot_id: '',
        robot_enhancement_batch_id: uuidv7(),
        enhancement_request_id: '',
      })
    ).outcomes;
  const enhancedEvents = (id: string) => observer.events.filter((event) => event.reference_id === id && event.kind === 'enhanced');

  it('when a chunk adds enhancements to several references, then each reference gets one versioned write and event, and outcomes follow the request order', async () => {
    const [a, b] = await ingest(['10.1000/chunk.a', '10.1000/chunk.b']);
    await Promise.all([decided(a), decided(b)]);
    const before = (await getReference(a)).enhancements.length;
    const missing = uuidv7();
    const outcomes = await add([abstract(a, 'one'), abstract(b, 'two'), abstract(missing, 'none'), abstract(a, 'three'), abstract(b, 'two')]);
    expect(outcomes.map((outcome) => [outcome.reference_id, outcome.status])).toEqual([
      [a, 'stored'],
      [b, 'stored'],
      [missing, 'failed'],
      [a, 'stored'],
      [b, 'discarded'],
    ]);
    expect(outcomes[2].error).toBe(`Reference with id ${missing} does not exist.`);
    expect(outcomes[4].enhancement_id).toBe(outcomes[1].enhancement_id);
    const events = await waitFor(() => enhancedEvents(a).length === 1 && enhancedEvents(b).length === 1 && [enhancedEvents(a)[0], enhancedEvents(b)[0]], 'one enhanced event each');
    expect(events[0].changeset.enhancements?.map((item) => (item.content as { abstract: string }).abstract)).toEqual(['one', 'three']);
    expect(outcomes[0].reference_version).toBe(events[0].version);
    expect(outcomes[3].reference_version).toBe(events[0].version);
    expect(outcomes[1].reference_version).toBe(events[1].version);
    expect((await getReference(a)).enhancements).toHaveLength(before + 2);
  });

  it('when one reference is enhanced by several calls in a row, then each enhanced event carries the reference as stored at its version and only that call\'s enhancements', async () => {
    const [reference] = await ingest(['10.1000/successive.a']);
    await decided(reference);
    const texts = ['robot one', 'robot two', 'robot three'];
    const outcomes: AddOutcome[] = [];
    for (const text of texts) outcomes.push((await add([abstract(reference, text)]))[0]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['stored', 'stored', 'stored']);
    expect(outcomes.map((outcome) => outcome.reference_version - outcomes[0].reference_version)).toEqual([0, 1, 2]);
    const events = await waitFor(() => enhancedEvents(reference).length === 3 && [...enhancedEvents(reference)].sort((a, b) => a.version - b.version), 'three enhanced events');
    const stored = await getReference(reference);
    const base = stored.enhancements.length - texts.length;
    events.forEach((event, index) => {
      expect(event.version).toBe(outcomes[index].reference_version);
      expect(event.reference).toEqual({ ...stored, enhancements: stored.enhancements.slice(0, base + index + 1) });
      expect(event.changeset).toEqual({ visibility: 'public', enhancements: [expect.objectContaining({ id: outcomes[index].enhancement_id, content: { enhancement_type: 'abstract', process: 'other', abstract: texts[index] } })] });
      expect(event.origin).toEqual({ robot_enhancement_batch_id: expect.any(String) });
    });
  });

  it('when a call with caller-assigned ids is retried, then the enhancements are answered as stored with their ids and stored once', async () => {
    const [reference] = await ingest(['10.1000/retry.a']);
    await decided(reference);
    const ids = [uuidv7(), uuidv7()];
    const enhancements = [abstract(reference, 'first'), abstract(reference, 'second')];
    const first = await add(enhancements, ids);
    const second = await add(enhancements, ids);
    expect(first.map((outcome) => [outcome.status, outcome.enhancement_id])).toEqual([
      ['stored', ids[0]],
      ['stored', ids[1]],
    ]);
    expect(second.map((outcome) => [outcome.status, outcome.enhancement_id, outcome.reference_version])).toEqual(first.map((outcome) => [outcome.status, outcome.enhancement_id, outcome.reference_version]));
    const stored = (await getReference(reference)).enhancements.filter((item) => ids.includes(item.id));
    expect(stored.map((item) => item.content.abstract)).toEqual(['first', 'second']);
    await expect(add([abstract(reference, 'third')], ['not-a-uuid'])).rejects.toMatchObject({ httpStatus: 422 });
  });

  it('when derived_from names enhancements, then parents on the reference or one of its duplicates are accepted and unknown or foreign ones fail the item', async () => {
    const [canonical, other] = await ingest(['10.1000/Parent.X', '10.1000/parent.other']);
    await Promise.all([decided(canonical), decided(other)]);
    const [duplicate] = await ingest(['10.1000/parent.x']);
    expect(await decided(duplicate)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: canonical });
    const [own, onDuplicate, foreign] = await add([abstract(canonical, 'own parent'), abstract(duplicate, 'duplicate parent'), abstract(other, 'foreign parent')]);
    const unknown = uuidv7();
    const outcomes = await add([
      abstract(canonical, 'from own', [own.enhancement_id]),
      abstract(canonical, 'from duplicate', [onDuplicate.enhancement_id]),
      abstract(canonical, 'from unknown', [own.enhancement_id, unknown]),
      abstract(canonical, 'from foreign', [foreign.enhancement_id]),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['stored', 'stored', 'failed', 'failed']);
    expect(outcomes[2].error).toBe(`Enhancements with ids [${unknown}] do not exist.`);
    expect(outcomes[3].error).toBe(`Enhancements with ids [${foreign.enhancement_id}] do not exist.`);
    const abstracts = (await getReference(canonical)).enhancements.map((item) => item.content.abstract);
    expect(abstracts).toEqual(expect.arrayContaining(['from own', 'from duplicate']));
    expect(abstracts).not.toContain('from unknown');
  });

  it('when an enhancement is added to a duplicate, then its canonical gets a new version with a duplicate_enhanced event holding it, and the outcome names that entry', async () => {
    const [canonical] = await ingest(['10.1000/Refresh.Y']);
    await decided(canonical);
    const [duplicate] = await ingest(['10.1000/refresh.y']);
    expect(await decided(duplicate)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: canonical });
    const [outcome] = await add([abstract(duplicate, 'abstract on the duplicate')]);
    expect(outcome).toMatchObject({ reference_id: duplicate, status: 'stored', index_reference_id: canonical });
    const refresh = await waitFor(() => observer.events.find((event) => event.reference_id === canonical && event.kind === 'duplicate_enhanced'), 'the canonical refresh');
    expect(refresh.version).toBe(outcome.index_version);
    expect(refresh.reference.enhancements?.map((item) => item.id)).toContain(outcome.enhancement_id);
    expect(refresh.changeset.enhancements?.map((item) => item.id)).toEqual([outcome.enhancement_id]);
    const own = await waitFor(() => enhancedEvents(duplicate)[0], 'the duplicate\'s own event');
    expect(own.version).toBe(outcome.reference_version);

    const [retried] = await add([abstract(duplicate, 'abstract on the duplicate')], [outcome.enhancement_id]);
    // A retry finds it stored and refreshes the canonical again: the first call may have stopped between the writes.
    expect(retried).toMatchObject({ status: 'stored', enhancement_id: outcome.enhancement_id, index_reference_id: canonical, index_version: outcome.index_version + 1 });
  });
  it('when an import merges an enhancement into a duplicate, then its canonical gets a new version with a duplicate_enhanced event holding it', async () => {
    const [canonical] = await ingest(['10.1000/Merge.Z']);
    await decided(canonical);
    const [duplicate] = await ingest(['10.1000/merge.z']);
    expect(await decided(duplicate)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: canonical });
    const canonicalVersions = () => observer.events.filter((event) => event.reference_id === canonical).map((event) => event.version);
    const before = await waitFor(() => (canonicalVersions().length > 0 ? Math.max(...canonicalVersions()) : undefined), 'the canonical\'s decision event');
    const line = { identifiers: [{ identifier: '10.1000/merge.z', identifier_type: 'doi' }], enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'merged into the duplicate' } }] };
    const response = await call<{ outcomes: Array<{ reference_id: string; status: string }> }>(client, 'IngestReferences', {
      import_batch_id: uuidv7(),
      collision_strategy: 'merge_defensive',
      lines: [{ line_number: 1, reference_json: JSON.stringify(line), import_result_id: uuidv7() }],
    });
    expect(response.outcomes).toEqual([expect.objectContaining({ reference_id: duplicate, status: 'completed' })]);
    const refresh = await waitFor(() => observer.events.find((event) => event.reference_id === canonical && event.kind === 'duplicate_enhanced'), 'the canonical refresh');
    // The duplicate joining may still publish a group event for the canonical meanwhile, so only the order is fixed.
    expect(refresh.version).toBeGreaterThan(before);
    expect(canonicalVersions().filter((version) => version === refresh.version)).toHaveLength(1);
    expect(refresh.reference.enhancements?.map((item) => item.content.enhancement_type === 'abstract' && item.content.abstract)).toContain('merged into the duplicate');
    expect(refresh.changeset.enhancements?.map((item) => item.reference_id)).toEqual([duplicate]);
  });

  it('when an import merged into a duplicate and stopped before refreshing its canonical (its outcome unwritten), then the line sent again refreshes the canonical with the merged enhancement', async () => {
    const [canonical] = await ingest(['10.1000/Merge.Retry']);
    await decided(canonical);
    const [duplicate] = await ingest(['10.1000/merge.retry']);
    expect(await decided(duplicate)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: canonical });
    const line = { identifiers: [{ identifier: '10.1000/merge.retry', identifier_type: 'doi' }], enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'merged before a crash' } }] };
    const request = { import_batch_id: uuidv7(), collision_strategy: 'append', lines: [{ line_number: 1, reference_json: JSON.stringify(line), import_result_id: uuidv7() }] };
    const refreshes = () => observer.events.filter((event) => event.reference_id === canonical && event.kind === 'duplicate_enhanced');
    await call(client, 'IngestReferences', request);
    await waitFor(() => refreshes().length === 1, 'the first attempt\'s refresh');
    // The crash window: a process killed after the merge's write (here, after the refresh too, which
    // a crash may or may not have reached) leaves the line without its outcome.
    await mongo.db('destiny_dedup').collection('ingest_outcomes').deleteOne({ _id: request.lines[0].import_result_id as never });

    const response = await call<{ outcomes: Array<{ reference_id: string; status: string }> }>(client, 'IngestReferences', request);

    expect(response.outcomes).toEqual([expect.objectContaining({ reference_id: duplicate, status: 'completed' })]);
    const [, again] = await waitFor(() => refreshes().length === 2 && refreshes(), 'the canonical refreshed again');
    expect(again.version).toBeGreaterThan(refreshes()[0].version);
    expect(again.changeset.enhancements?.map((item) => item.content.enhancement_type === 'abstract' && item.content.abstract)).toEqual(['merged before a crash']);
    expect((await getReference(duplicate)).enhancements.filter((item) => item.content.abstract === 'merged before a crash')).toHaveLength(1);
  });
});
