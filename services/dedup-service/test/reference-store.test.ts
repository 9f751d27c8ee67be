import { uuidv7, type ReferenceChangedEvent } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient } from 'mongodb';
import { startDedupService } from '../src/index';
import { bibliographic, call, dedupClient, observeReferenceChanged, startInfrastructure, waitFor, type DedupClient } from './dedup-helpers';

interface Outcome {
  line_number: number;
  status: string;
  reference_id: string;
  failure_details: string;
}

interface View {
  id: string;
  identifiers: Array<Record<string, unknown>>;
  enhancements: Array<Record<string, unknown>>;
  duplicate_decision: { duplicate_determination: string; canonical_reference_id: string | null } | null;
}

describe('dedup-service reference store through gRPC', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let service: RunningBackendService;
  let client: DedupClient;
  let observer: Awaited<ReturnType<typeof observeReferenceChanged>>;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-store');
    service = await startDedupService({ ...infrastructure.env, DEDUP_PENDING_REQUEUE_MS: '1000' });
    client = dedupClient(service.grpcPort);
    observer = await observeReferenceChanged(infrastructure.env.AMQP_NAMESPACE);
  });

  afterAll(async () => {
    client?.close();
    await observer?.close();
    await service?.stop();
    await infrastructure?.stop();
  });

  let line = 0;
  async function ingest(strategy: string, references: unknown[]): Promise<Outcome[]> {
    const lines = references.map((reference) => ({ line_number: ++line, reference_json: JSON.stringify(reference), import_result_id: uuidv7() }));
    const response = await call<{ outcomes: Outcome[] }>(client, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: strategy, lines });
    return response.outcomes;
  }
  const getReference = async (id: string) => JSON.parse((await call<{ json: string }>(client, 'GetReference', { id })).json) as View;
  const lookup = async (identifiers: string[]) => (await call<{ json: string[] }>(client, 'LookupReferences', { identifiers })).json.map((item) => JSON.parse(item) as View);
  const decided = (id: string) => waitFor(async () => (await getReference(id)).duplicate_decision, `a decision for ${id}`);
  const eventsFor = (id: string) => observer.events.filter((event) => event.reference_id === id);
  const doi = (value: string) => ({ identifier: value, identifier_type: 'doi' });

  it('when a new reference is ingested, then it is stored, an imported event at version 1 and then its decision at version 2 are published', async () => {
    const [outcome] = await ingest('fail', [{ visibility: 'public', identifiers: [doi('10.1000/alpha.1')], enhancements: [bibliographic('Alpha trial of exercise in adults with chronic pain', ['Ada Lovelace', 'Charles Babbage'], 2020)] }]);
    expect(outcome.status).toBe('completed');
    const decision = await decided(outcome.reference_id);
    expect(decision).toEqual({ duplicate_determination: 'canonical', canonical_reference_id: null });
    const events = await waitFor(() => eventsFor(outcome.reference_id).length >= 2 && eventsFor(outcome.reference_id), 'the events');
    expect(events.map((event) => [event.kind, event.version])).toEqual([
      ['imported', 1],
      ['duplicate_decision_changed', 2],
    ]);
    const [imported, first] = events;
    expect(imported.duplicate_decision).toBeNull();
    expect(imported.reference).toMatchObject({ id: outcome.reference_id, duplicate_decision: null, identifiers: [{ identifier: '10.1000/alpha.1', identifier_type: 'doi' }] });
    expect(imported.reference.enhancements).toHaveLength(1);
    // A fresh import's changeset is the reference itself (§13.2), with no determination yet.
    expect(imported.changeset.identifiers).toEqual([{ reference_id: outcome.reference_id, identifier: '10.1000/alpha.1', identifier_type: 'doi' }]);
    expect(imported.changeset).not.toHaveProperty('duplicate_determination');
    expect(first).toMatchObject({ duplicate_decision: { duplicate_determination: 'canonical' } });
    expect(first.changeset.identifiers).toEqual([{ reference_id: outcome.reference_id, identifier: '10.1000/alpha.1', identifier_type: 'doi' }]);
  });

  it('when a reference with the same bibliographic record arrives without the DOI, then it becomes a duplicate and lookup folds it into the canonical', async () => {
    const [first] = await ingest('fail', [{ identifiers: [doi('10.1000/beta.1')], enhancements: [bibliographic('Beta randomised trial of mindfulness for anxiety in students', ['Grace Hopper', 'Alan Turing'], 2019, 'Journal of Anxiety', { pagination: { volume: '12', first_page: '100', last_page: '110' } })] }]);
    await decided(first.reference_id);
    const [second] = await ingest('fail', [{ identifiers: [{ identifier: 31415, identifier_type: 'pm_id' }], enhancements: [bibliographic('Beta randomised trial of mindfulness for anxiety in students', ['Grace Hopper', 'Alan Turing'], 2019, 'Journal of Anxiety', { pagination: { volume: '12', first_page: '100', last_page: '110' } })] }]);
    const decision = await decided(second.reference_id);
    expect(decision).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: first.reference_id });

    const stored = await getReference(second.reference_id);
    expect(stored.identifiers).toEqual([{ identifier: 31415, identifier_type: 'pm_id' }]);
    const found = await lookup(['pm_id:31415']);
    expect(found.map((view) => view.id)).toEqual([first.reference_id]);
    expect(found[0].identifiers).toEqual([{ identifier: '10.1000/beta.1', identifier_type: 'doi' }, { identifier: 31415, identifier_type: 'pm_id' }]);
    expect(found[0].enhancements.map((enhancement) => enhancement.reference_id)).toEqual([first.reference_id, second.reference_id]);

    // Its import, its own decision, then the group event the duplicate's joining makes.
    const canonicalEvents = await waitFor(() => eventsFor(first.reference_id).length >= 3 && eventsFor(first.reference_id), 'the canonical group event');
    expect(canonicalEvents.map((event) => event.kind)).toEqual(['imported', 'duplicate_decision_changed', 'duplicate_decision_changed']);
    const versions = canonicalEvents.map((event) => event.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    const last = canonicalEvents[canonicalEvents.length - 1] as ReferenceChangedEvent;
    expect(last.reference.identifiers).toHaveLength(2);
  });

  it("when only a duplicate's record names a new reference, then it joins that group under its canonical and candidates name the canonical", async () => {
    const title = 'Long-term effect of the complement inhibitor eculizumab on kidney function in paroxysmal nocturnal hemoglobinuria';
    const place = (issue: string, first: string, last: string | null) => ({ pagination: { volume: '85', issue, first_page: first, last_page: last } });
    const other = (value: string) => ({ identifier: value, identifier_type: 'other', other_identifier_name: 'catalogue' });
    const authors = ['Hillmen, P.', 'Muus, P.', 'Risitano, A.'];
    const [article] = await ingest('fail', [{ identifiers: [other('article')], enhancements: [bibliographic(title, authors, 2010, 'American Journal of Hematology', place('8', '553', '559'))] }]);
    await decided(article.reference_id);
    const [withNote] = await ingest('fail', [{ identifiers: [other('with-note')], enhancements: [bibliographic(`${title}.[Erratum appears in Am J Hematol. 2010 Nov;85(11):911]`, authors, 2010, 'American Journal of Hematology', place('8', '553', '559'))] }]);
    expect(await decided(withNote.reference_id)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: article.reference_id });
    // The erratum and the article are different items: only the note on the duplicate links them.
    const [erratum] = await ingest('fail', [{ identifiers: [other('erratum')], enhancements: [bibliographic(`Erratum: ${title}`, authors, 2010, 'American Journal of Hematology', place('11', '911', null))] }]);
    expect(await decided(erratum.reference_id)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: article.reference_id });
    const candidates = (await call<{ json: string[] }>(client, 'EvaluateDeduplicationCandidates', { json: JSON.stringify({ reference_ids: [erratum.reference_id, article.reference_id] }) })).json.map((item) => JSON.parse(item));
    expect(candidates).toEqual([
      { reference_id: erratum.reference_id, searchable: true, candidate_canonical_ids: [article.reference_id] },
      { reference_id: article.reference_id, searchable: true, candidate_canonical_ids: [] },
    ]);
  });

  it('when candidates are asked for several references at once, then each gets the canonicals its own keys find, in request order', async () => {
    const catalogue = (value: string) => ({ identifier: value, identifier_type: 'other', other_identifier_name: 'catalogue' });
    const trial = bibliographic('Intermittent preventive treatment of malaria in schoolchildren: a cluster randomised trial', ['Clarke, S.', 'Jukes, M.'], 2008, 'The Lancet', { pagination: { volume: '372', first_page: '127', last_page: '138' } });
    const review = bibliographic('Iron supplementation and cognitive development in infancy: a systematic review', ['Sachdev, H.', 'Gera, T.'], 2005, 'Public Health Nutrition', { pagination: { volume: '8', first_page: '117', last_page: '132' } });
    const [first] = await ingest('fail', [{ identifiers: [catalogue('batch-trial')], enhancements: [trial] }]);
    const [other] = await ingest('fail', [{ identifiers: [catalogue('batch-review')], enhancements: [review] }]);
    await decided(first.reference_id);
    await decided(other.reference_id);
    const [copy] = await ingest('fail', [{ identifiers: [catalogue('batch-trial-copy')], enhancements: [trial] }]);
    expect(await decided(copy.reference_id)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: first.reference_id });
    const [untitled] = await ingest('fail', [{ identifiers: [catalogue('batch-untitled')] }]);
    await decided(untitled.reference_id);

    const ask = [copy.reference_id, other.reference_id, untitled.reference_id, first.reference_id];
    const candidates = (await call<{ json: string[] }>(client, 'EvaluateDeduplicationCandidates', { json: JSON.stringify({ reference_ids: ask }) })).json.map((item) => JSON.parse(item));
    expect(candidates).toEqual([
      { reference_id: copy.reference_id, searchable: true, candidate_canonical_ids: [first.reference_id] },
      { reference_id: other.reference_id, searchable: true, candidate_canonical_ids: [] },
      { reference_id: untitled.reference_id, searchable: false, candidate_canonical_ids: [] },
      // Its own duplicate leads back to itself, which is no candidate.
      { reference_id: first.reference_id, searchable: true, candidate_canonical_ids: [] },
    ]);
  });

  it('when a DOI differs only in case, then the trusted-identifier shortcut makes it a duplicate', async () => {
    const [first] = await ingest('fail', [{ identifiers: [doi('10.1000/Gamma.X')] }]);
    await decided(first.reference_id);
    const [second] = await ingest('fail', [{ identifiers: [doi('10.1000/gamma.x')] }]);
    expect(await decided(second.reference_id)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: first.reference_id });
  });

  it('when lines collide under each strategy, then fail, discard, merges, append and multi-collision behave as the contract says', async () => {
    const base = { identifiers: [doi('10.1000/delta.1'), { identifier: 'W100', identifier_type: 'open_alex' }], enhancements: [{ source: 's1', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'first' } }] };
    const [created] = await ingest('fail', [base]);
    const id = created.reference_id;
    const [other] = await ingest('fail', [{ identifiers: [{ identifier: 'W200', identifier_type: 'open_alex' }] }]);

    const [failed] = await ingest('fail', [{ identifiers: [doi('10.1000/delta.1')], enhancements: [{ source: 's9', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'x' } }] }]);
    expect(failed.status).toBe('failed');
    expect(failed.failure_details).toBe(`Entry ${failed.line_number}:\n\nIdentifier(s) are already mapped on an existing reference:\nidentifier_type=doi, identifier=10.1000/delta.1`);

    const [discarded] = await ingest('discard', [{ identifiers: [doi('10.1000/delta.1')], enhancements: [{ source: 's9', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'x' } }] }]);
    expect(discarded).toMatchObject({ status: 'completed', reference_id: '' });

    const [defensive] = await ingest('merge_defensive', [
      { identifiers: [doi('10.1000/delta.1'), doi('10.1000/delta.other'), { identifier: 777, identifier_type: 'pm_id' }], enhancements: [{ source: 's1', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'second' } }] },
    ]);
    expect(defensive).toMatchObject({ status: 'completed', reference_id: id });
    let stored = await getReference(id);
    expect(stored.identifiers.map((identifier) => identifier.identifier)).toEqual(['10.1000/delta.1', 'W100', 777]);
    expect(stored.enhancements.map((enhancement) => (enhancement.content as { abstract: string }).abstract)).toEqual(['first']);
    // Only an identifier was added: the new view still reaches the index, with no enhancement in the changeset.
    const identifiersMerged = await waitFor(() => eventsFor(id).find((event) => event.kind === 'enhanced' && event.reference.identifiers?.some((identifier) => identifier.identifier === 777)), 'the merge event');
    expect(identifiersMerged.changeset).toEqual({ visibility: 'public' });

    const [aggressive] = await ingest('merge_aggressive', [
      { identifiers: [doi('10.1000/delta.1'), doi('10.1000/delta.other')], enhancements: [{ source: 's1', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'second' } }] },
    ]);
    expect(aggressive).toMatchObject({ status: 'completed', reference_id: id });
    stored = await getReference(id);
    expect(stored.identifiers.map((identifier) => identifier.identifier)).toEqual(['10.1000/delta.1', 'W100', 777, '10.1000/delta.other']);
    expect(stored.enhancements.map((enhancement) => (enhancement.content as { abstract: string }).abstract)).toEqual(['second']);
    // The merge's event (rebuilt by the relay from the document) shows the new version alone in the view, and it as the changeset.
    const abstracts = (enhancements: Array<{ content: unknown }> | null | undefined) => (enhancements ?? []).map((enhancement) => (enhancement.content as { abstract: string }).abstract);
    const superseding = await waitFor(() => eventsFor(id).find((event) => event.kind === 'enhanced' && abstracts(event.changeset.enhancements).includes('second')), 'the aggressive merge event');
    expect(abstracts(superseding.reference.enhancements)).toEqual(['second']);
    expect(abstracts(superseding.changeset.enhancements)).toEqual(['second']);
    expect(superseding.reference.identifiers?.map((identifier) => identifier.identifier)).toEqual(['10.1000/delta.1', 'W100', 777, '10.1000/delta.other']);

    const [appended] = await ingest('append', [{ identifiers: [doi('10.1000/delta.1')], enhancements: [{ source: 's1', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'third' } }] }]);
    expect(appended).toMatchObject({ status: 'completed', reference_id: id });
    stored = await getReference(id);
    expect(stored.enhancements.map((enhancement) => (enhancement.content as { abstract: string }).abstract)).toEqual(['second', 'third']);

    const [both] = await ingest('merge_aggressive', [{ identifiers: [doi('10.1000/delta.1'), { identifier: 'W200', identifier_type: 'open_alex' }] }]);
    expect(both.status).toBe('failed');
    expect(both.failure_details).toBe(`Entry ${both.line_number}:\n\nIncoming reference collides with more than one existing reference.`);
    expect(other.status).toBe('completed');
  });

  it.each(['merge_defensive', 'merge_aggressive', 'append'])(
    'when a line under %s adds nothing to the reference it collides with, then it completes with that reference\'s id and nothing changes (§8.6)',
    async (strategy) => {
      const reference = { identifiers: [doi(`10.1000/epsilon.${strategy}`)], enhancements: [{ source: 's1', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'same' } }] };
      const [created] = await ingest('fail', [reference]);
      await decided(created.reference_id);
      const before = await getReference(created.reference_id);
      const [again] = await ingest(strategy, [reference]);
      expect(again).toMatchObject({ status: 'completed', reference_id: created.reference_id });
      expect(await getReference(created.reference_id)).toEqual(before);
      expect(await lookup([`doi:10.1000/epsilon.${strategy}`])).toHaveLength(1);
    },
  );

  it('when one merge_aggressive line carries two versions of a (type, source) pair, then the later supersedes both the stored one and the earlier', async () => {
    const abstract = (text: string) => ({ source: 's1', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: text } });
    const [created] = await ingest('fail', [{ identifiers: [doi('10.1000/nu.1')], enhancements: [abstract('v0')] }]);
    const [merged] = await ingest('merge_aggressive', [{ identifiers: [doi('10.1000/nu.1')], enhancements: [abstract('vA'), abstract('vB')] }]);
    expect(merged).toMatchObject({ status: 'completed', reference_id: created.reference_id });
    const stored = await getReference(created.reference_id);
    expect(stored.enhancements.map((enhancement) => (enhancement.content as { abstract: string }).abstract)).toEqual(['vB']);
    const event = await waitFor(() => eventsFor(created.reference_id).find((item) => item.kind === 'enhanced'), 'the merge event');
    expect((event.changeset.enhancements ?? []).map((enhancement) => (enhancement.content as { abstract: string }).abstract)).toEqual(['vB']);
  });

  it('when append left two current versions of a pair, then a merge_aggressive line supersedes both', async () => {
    const abstract = (text: string) => ({ source: 's1', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: text } });
    const [created] = await ingest('fail', [{ identifiers: [doi('10.1000/xi.1')], enhancements: [abstract('v1')] }]);
    await ingest('append', [{ identifiers: [doi('10.1000/xi.1')], enhancements: [abstract('v2')] }]);
    expect((await getReference(created.reference_id)).enhancements.map((enhancement) => (enhancement.content as { abstract: string }).abstract)).toEqual(['v1', 'v2']);
    await ingest('merge_aggressive', [{ identifiers: [doi('10.1000/xi.1')], enhancements: [abstract('v3')] }]);
    expect((await getReference(created.reference_id)).enhancements.map((enhancement) => (enhancement.content as { abstract: string }).abstract)).toEqual(['v3']);
  });

  it('when the same chunk is ingested twice with the same import result ids, then the second call returns the same outcomes and stores nothing new', async () => {
    const lines = [
      { line_number: 1, reference_json: JSON.stringify({ identifiers: [doi('10.1000/zeta.1')] }), import_result_id: uuidv7() },
      { line_number: 2, reference_json: JSON.stringify({ identifiers: [doi('10.1000/zeta.1'), doi('10.1000/zeta.2')] }), import_result_id: uuidv7() },
    ];
    const request = { import_batch_id: uuidv7(), collision_strategy: 'fail', lines };
    const first = await call<{ outcomes: Outcome[] }>(client, 'IngestReferences', request);
    const second = await call<{ outcomes: Outcome[] }>(client, 'IngestReferences', request);
    expect(first.outcomes.map((outcome) => outcome.status)).toEqual(['completed', 'failed']);
    expect(second.outcomes).toEqual(first.outcomes);
    expect(await lookup(['doi:10.1000/zeta.1'])).toHaveLength(1);
  });

  it('when a person marks references, then manual decisions apply, invoke queues new ones and a system proposal against a person decision is decoupled', async () => {
    const [a] = await ingest('fail', [{ identifiers: [doi('10.1000/eta.a')] }]);
    const [b] = await ingest('fail', [{ identifiers: [doi('10.1000/eta.b')] }]);
    await decided(a.reference_id);
    await decided(b.reference_id);
    const results = (await call<{ json: string[] }>(client, 'MakeDuplicateDecisions', { json: JSON.stringify([{ reference_id: b.reference_id, duplicate_determination: 'duplicate', canonical_reference_id: a.reference_id }]) })).json.map((item) => JSON.parse(item));
    expect(results).toEqual([
      expect.objectContaining({ reference_id: b.reference_id, outcome: 'duplicate', canonical_reference_id: a.reference_id, active_decision: true, decision_authority: 'person', decision_trigger: 'manual_api' }),
    ]);
    expect((await getReference(b.reference_id)).duplicate_decision).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: a.reference_id });
    await expect(
      call(client, 'MakeDuplicateDecisions', { json: JSON.stringify([{ reference_id: a.reference_id, duplicate_determination: 'duplicate', canonical_reference_id: b.reference_id }]) }),
    ).rejects.toMatchObject({ httpStatus: 422 });
    // A canonical with duplicates proposed as another's duplicate is stored for review, the reason first (as the reference implementation words it).
    const [c] = await ingest('fail', [{ identifiers: [doi('10.1000/eta.c')] }]);
    await decided(c.reference_id);
    const [review] = (await call<{ json: string[] }>(client, 'MakeDuplicateDecisions', { json: JSON.stringify([{ reference_id: a.reference_id, duplicate_determination: 'duplicate', canonical_reference_id: c.reference_id, detail: 'x' }]) })).json.map((item) => JSON.parse(item));
    expect(review).toMatchObject({
      outcome: 'decoupled',
      active_decision: false,
      detail: 'Decouple reason: Reference has existing duplicates and cannot become a duplicate itself. Remap existing duplicates before retrying. x',
    });

    await waitFor(() => eventsFor(b.reference_id).some((event) => event.duplicate_decision?.duplicate_determination === 'duplicate'), 'the manual decision event');
    const before = eventsFor(b.reference_id).length;
    await call(client, 'InvokeDeduplication', { ids: [b.reference_id] });
    await waitFor(async () => {
      const views = await lookup([b.reference_id]);
      return views.length === 1 && views[0].id === a.reference_id;
    }, 'lookup through the canonical');
    expect((await getReference(b.reference_id)).duplicate_decision).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: a.reference_id });
    expect(eventsFor(b.reference_id).length).toBe(before);
    // A batch existence check names the missing ids as a set (§5.1), one id as well as several.
    const unknown = uuidv7();
    await expect(call(client, 'InvokeDeduplication', { ids: [unknown] })).rejects.toMatchObject({ httpStatus: 422, detail: `Reference with id [${unknown}] does not exist.` });
  });

  it('when invoke names more ids than one query can hold (420,000, the size of the largest body the gateway takes), then the unknown ones are refused with 422', async () => {
    const ids = Array.from({ length: 420_000 }, () => uuidv7());
    await expect(call(client, 'InvokeDeduplication', { ids })).rejects.toMatchObject({ httpStatus: 422, detail: expect.stringMatching(/^Reference with id \[[0-9a-f-]{36}, /) });
  });

  it('when invoke names more references than one job carries, then every one of them is decided again', async () => {
    const outcomes: Outcome[] = [];
    for (let chunk = 0; chunk < 3; chunk += 1) {
      outcomes.push(...(await ingest('fail', Array.from({ length: 400 }, (_, index) => ({ identifiers: [doi(`10.1000/invoke.${chunk}.${index}`)] })))));
    }
    const ids = outcomes.map((outcome) => outcome.reference_id);
    await waitFor(async () => (await Promise.all(ids.slice(-5).map(getReference))).every((view) => view.duplicate_decision !== null), 'the first decisions');
    await call(client, 'InvokeDeduplication', { ids });
    const mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    try {
      const decisions = mongo.db('destiny_dedup').collection<{ reference_id: string; decision_trigger: string; duplicate_determination: string }>('duplicate_decisions');
      await waitFor(async () => (await decisions.countDocuments({ reference_id: { $in: ids }, decision_trigger: 'invoke_api', duplicate_determination: 'canonical' })) === ids.length, 'every invoked decision');
    } finally {
      await mongo.close();
    }
  });

  it('when invoke re-decides a canonical whose duplicates share its trusted identifier, then it is decided canonical again, not refused as a duplicate of itself', async () => {
    const [canonical] = await ingest('fail', [{ identifiers: [doi('10.1000/Mu.X')] }]);
    await decided(canonical.reference_id);
    const [copy] = await ingest('fail', [{ identifiers: [doi('10.1000/mu.x')] }]);
    expect(await decided(copy.reference_id)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: canonical.reference_id });
    await call(client, 'InvokeDeduplication', { ids: [canonical.reference_id] });
    const mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    try {
      const decisions = mongo.db('destiny_dedup').collection<{ reference_id: string; decision_trigger: string; duplicate_determination: string; active_decision: boolean }>('duplicate_decisions');
      const invoked = await waitFor(
        async () => (await decisions.find({ reference_id: canonical.reference_id, decision_trigger: 'invoke_api', duplicate_determination: { $ne: 'pending' } }).toArray())[0],
        'the invoked decision',
      );
      expect(invoked).toMatchObject({ duplicate_determination: 'canonical', active_decision: true });
    } finally {
      await mongo.close();
    }
    expect((await lookup([canonical.reference_id]))[0].identifiers.map((identifier) => identifier.identifier)).toEqual(['10.1000/Mu.X', '10.1000/mu.x']);
  });

  it('when a manual decision reached its reference but its commit stopped before activating it, then the service reconciles the decision records within its sweep', async () => {
    const [a] = await ingest('fail', [{ identifiers: [doi('10.1000/theta.a')] }]);
    const [b] = await ingest('fail', [{ identifiers: [doi('10.1000/theta.b')] }]);
    await decided(a.reference_id);
    await decided(b.reference_id);
    const [made] = (await call<{ json: string[] }>(client, 'MakeDuplicateDecisions', { json: JSON.stringify([{ reference_id: b.reference_id, duplicate_determination: 'duplicate', canonical_reference_id: a.reference_id }]) })).json.map((item) => JSON.parse(item) as { id: string });
    // Recreate what a process killed before the commit's last write leaves: the carried decision
    // inactive, the replaced one still active, and the activation journalled.
    const mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    try {
      const store = mongo.db('destiny_dedup');
      const decisions = store.collection<{ _id: string; reference_id: string; active_decision: boolean }>('duplicate_decisions');
      await decisions.updateMany({ reference_id: b.reference_id }, { $set: { active_decision: true } });
      await decisions.updateOne({ _id: made.id }, { $set: { active_decision: false } });
      expect((await decisions.find({ reference_id: b.reference_id, active_decision: true }).toArray()).map((decision) => decision._id)).not.toContain(made.id);
      await store.collection('decision_activations').insertOne({ _id: made.id as never, reference_id: b.reference_id, created_at: new Date(Date.now() - 5_000) });
      await waitFor(async () => (await store.collection('decision_activations').countDocuments()) === 0, 'the sweep to reconcile the activation');
      expect((await decisions.find({ reference_id: b.reference_id, active_decision: true }).toArray()).map((decision) => decision._id)).toEqual([made.id]);
    } finally {
      await mongo.close();
    }
  });

  it('when two duplicates join one canonical in one request and one later leaves, then each join is its own event and the leave re-indexes without a decision to percolate', async () => {
    const [canonical] = await ingest('fail', [{ visibility: 'public', identifiers: [doi('10.1000/iota.c')] }]);
    const [restricted] = await ingest('fail', [{ visibility: 'restricted', identifiers: [doi('10.1000/iota.r')] }]);
    const [open] = await ingest('fail', [{ visibility: 'public', identifiers: [doi('10.1000/iota.o')] }]);
    for (const outcome of [canonical, restricted, open]) await decided(outcome.reference_id);
    const joins = (
      await call<{ json: string[] }>(client, 'MakeDuplicateDecisions', {
        json: JSON.stringify([restricted, open].map((duplicate) => ({ reference_id: duplicate.reference_id, duplicate_determination: 'duplicate', canonical_reference_id: canonical.reference_id }))),
      })
    ).json.map((item) => JSON.parse(item) as { id: string; reference_id: string });
    const groupEvents = () => eventsFor(canonical.reference_id).filter((event) => event.changeset.duplicate_determination === 'duplicate');
    const joined = await waitFor(() => groupEvents().length >= 2 && groupEvents(), 'one event per join');
    expect(joined.map((event) => event.duplicate_decision_id)).toEqual(joins.map((result) => result.id));
    expect(joined.map((event) => event.changeset)).toEqual([
      { visibility: 'restricted', identifiers: [{ reference_id: restricted.reference_id, identifier: '10.1000/iota.r', identifier_type: 'doi' }], duplicate_determination: 'duplicate' },
      { visibility: 'public', identifiers: [{ reference_id: open.reference_id, identifier: '10.1000/iota.o', identifier_type: 'doi' }], duplicate_determination: 'duplicate' },
    ]);
    expect(joined[0].version).toBeLessThan(joined[1].version);

    const seen = eventsFor(canonical.reference_id).length;
    await call(client, 'MakeDuplicateDecisions', { json: JSON.stringify([{ reference_id: open.reference_id, duplicate_determination: 'canonical', canonical_reference_id: null }]) });
    const [left] = await waitFor(() => eventsFor(canonical.reference_id).length > seen && eventsFor(canonical.reference_id).slice(seen), 'the old canonical re-indexed');
    expect(left.changeset).toEqual({ visibility: 'public' });
    expect(left.duplicate_decision_id).toBeUndefined();
    expect((left.reference.identifiers ?? []).map((identifier) => identifier.identifier)).toEqual(['10.1000/iota.c', '10.1000/iota.r']);
  });

  it('when a duplicate with a smaller id joins a group after one with a larger id, then the canonical\'s event view lists them in id order, as lookup does', async () => {
    const [canonical] = await ingest('fail', [{ visibility: 'public', identifiers: [doi('10.1000/lambda.c')] }]);
    const copies = await ingest('fail', [{ visibility: 'public', identifiers: [doi('10.1000/lambda.1')] }, { visibility: 'public', identifiers: [doi('10.1000/lambda.2')] }]);
    for (const outcome of [canonical, ...copies]) await decided(outcome.reference_id);
    const [lower, higher] = [...copies].sort((a, b) => (a.reference_id < b.reference_id ? -1 : 1));
    const join = (duplicate: Outcome) =>
      call(client, 'MakeDuplicateDecisions', { json: JSON.stringify([{ reference_id: duplicate.reference_id, duplicate_determination: 'duplicate', canonical_reference_id: canonical.reference_id }]) });
    await join(higher);
    await join(lower);
    const joins = () => eventsFor(canonical.reference_id).filter((event) => event.changeset.duplicate_determination === 'duplicate');
    const [, last] = await waitFor(() => joins().length >= 2 && joins(), 'both joins');
    const identifiersOf = (view: { identifiers?: Array<Record<string, unknown>> | null }) => (view.identifiers ?? []).map((identifier) => identifier.identifier);
    const doiOf = (outcome: Outcome) => (copies[0] === outcome ? '10.1000/lambda.1' : '10.1000/lambda.2');
    expect(identifiersOf(last.reference)).toEqual(['10.1000/lambda.c', doiOf(lower), doiOf(higher)]);
    expect(identifiersOf(last.reference)).toEqual(identifiersOf((await lookup([canonical.reference_id]))[0]));
  });

  it('when the same line is imported again under the default strategy, then it is reported as a collision rather than accepted under an id that resolves to nothing', async () => {
    const line = { identifiers: [doi('10.1000/kappa.1')], enhancements: [bibliographic('Kappa trial of sleep hygiene in shift workers', ['Ada Lovelace'], 2021)] };
    const [first] = await ingest('fail', [line]);
    const [again] = await ingest('fail', [line]);
    expect(first.status).toBe('completed');
    expect(again.status).toBe('failed');
    expect(again.failure_details).toBe(`Entry ${again.line_number}:\n\nIdentifier(s) are already mapped on an existing reference:\nidentifier_type=doi, identifier=10.1000/kappa.1`);
  });

  it('when enhancements are added, then new ones are stored with an enhanced event carrying the origin and exact repeats are discarded', async () => {
    const [created] = await ingest('fail', [{ identifiers: [doi('10.1000/theta.1')] }]);
    const robotId = uuidv7();
    const enhancement = { reference_id: created.reference_id, source: 'robot', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'text' } };
    const request = { enhancements_json: [JSON.stringify(enhancement)], robot_id: robotId, robot_enhancement_batch_id: '', enhancement_request_id: '' };
    const first = await call<{ outcomes: Array<{ status: string }> }>(client, 'AddEnhancements', request);
    const second = await call<{ outcomes: Array<{ status: string }> }>(client, 'AddEnhancements', request);
    expect(first.outcomes.map((outcome) => outcome.status)).toEqual(['stored']);
    expect(second.outcomes.map((outcome) => outcome.status)).toEqual(['discarded']);
    const enhanced = await waitFor(() => eventsFor(created.reference_id).find((event) => event.kind === 'enhanced'), 'the enhanced event');
    expect(enhanced.origin).toEqual({ robot_id: robotId });
    expect(enhanced.changeset.enhancements).toHaveLength(1);
    expect((await getReference(created.reference_id)).enhancements).toHaveLength(1);
  });

  it('when a pending decision was stored but its job never sent (a crash in between), then the sweeper queues it again and it is decided', async () => {
    const id = uuidv7();
    const decisionId = uuidv7();
    const past = new Date(Date.now() - 60_000);
    await service.context.db.collection('references').insertOne({
      _id: id,
      visibility: 'public',
      identifiers: [doi('10.1000/iota.lost')],
      enhancements: [],
      active_decision: null,
      version: 0,
      import_result_id: null,
      merged_import_results: [],
      import_decision_id: decisionId,
      created_at: past,
    } as never);
    await service.context.db.collection('identifiers').insertOne({ _id: JSON.stringify(['doi', '10.1000/iota.lost', null]), reference_id: id } as never);
    await service.context.db.collection('duplicate_decisions').insertOne({
      _id: decisionId,
      reference_id: id,
      decision_authority: 'system',
      decision_trigger: 'import',
      enhancement_id: null,
      active_decision: false,
      candidate_canonical_ids: [],
      duplicate_determination: 'pending',
      canonical_reference_id: null,
      detail: null,
      created_at: past,
      updated_at: past,
    } as never);
    expect(await decided(id)).toMatchObject({ duplicate_determination: expect.stringMatching(/^(canonical|unsearchable)$/) });
  });

  it('when reads name unknown references or bad lookups, then 404 and 400 come back with the contract details', async () => {
    const missing = uuidv7();
    await expect(getReference(missing)).rejects.toMatchObject({ httpStatus: 404, detail: `Reference with id ${missing} does not exist.` });
    await expect(lookup(['nope:1'])).rejects.toMatchObject({ httpStatus: 400, detail: 'Invalid identifier lookup string: nope:1. Unknown identifier type: nope.' });
    expect(await lookup(['doi:10.9999/unknown'])).toEqual([]);
  });

  it('when the changes settle, then every outbox is drained and each reference\'s event versions only grew', async () => {
    const references = service.context.db.collection('references');
    await waitFor(async () => (await references.countDocuments({ outbox_pending: true })) === 0, 'the outbox to drain');
    expect(await references.countDocuments({ '_outbox.0': { $exists: true } })).toBe(0);
    const byReference = new Map<string, number[]>();
    for (const event of observer.events) byReference.set(event.reference_id, [...(byReference.get(event.reference_id) ?? []), event.version]);
    for (const versions of byReference.values()) expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
  });

  it('when every canonical-like view is streamed, then duplicates are folded and not listed on their own, each view with its version', async () => {
    const chunks: Array<{ json: string[]; versions: number[] }> = [];
    await new Promise<void>((resolve, reject) => {
      const stream = (client as unknown as { StreamDeduplicatedViews(request: unknown): NodeJS.ReadableStream }).StreamDeduplicatedViews({ chunk_size: 3 });
      stream.on('data', (message: { json: string[]; versions: number[] }) => chunks.push(message));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    const views = chunks.flatMap((chunk) => chunk.json).map((item) => JSON.parse(item) as View);
    expect(views.length).toBeGreaterThan(3);
    expect(views.every((view) => view.duplicate_decision?.duplicate_determination !== 'duplicate')).toBe(true);
    for (const chunk of chunks) expect(chunk.versions).toHaveLength(chunk.json.length);
    // A streamed version is the stored one: that of the reference's latest reference.changed event,
    // or above it where a write without an event followed (a decision invoked again with the same
    // outcome), so an index rebuilt from the stream never goes back behind an event.
    const streamed = new Map(views.map((view, index) => [view.id, chunks.flatMap((chunk) => chunk.versions)[index]]));
    const latestEvent = (id: string) => Math.max(0, ...eventsFor(id).map((event) => event.version));
    await waitFor(() => [...streamed].every(([id]) => latestEvent(id) >= 1), 'an event of every streamed reference');
    expect([...streamed].filter(([id, version]) => latestEvent(id) > version)).toEqual([]);
    expect([...streamed].filter(([id, version]) => latestEvent(id) === version).length).toBeGreaterThan(0);
    expect([...streamed.values()].some((version) => version > 1)).toBe(true);
  });
});
