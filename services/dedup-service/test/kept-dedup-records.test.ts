import { uuidv7 } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import { COLLECTIONS } from '../src/data-access/collections';
import { recordFormat, type DedupRecord } from '../src/domain/deduplication';
import type { ReferenceDocument } from '../src/domain/reference.model';
import { startDedupService } from '../src/index';
import { bibliographic, call, dedupClient, observeReferenceChanged, startInfrastructure, waitFor, type DedupClient } from './dedup-helpers';

interface View {
  id: string;
  identifiers: Array<Record<string, unknown>>;
  duplicate_decision: { duplicate_determination: string; canonical_reference_id: string | null } | null;
}

// A decision compares a new reference with the comparison records its candidates keep, not with
// their whole documents: every content change must keep that record current.
describe('dedup-service comparison records kept on references', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let service: RunningBackendService;
  let client: DedupClient;
  let mongo: MongoClient;
  let db: Db;
  let observer: Awaited<ReturnType<typeof observeReferenceChanged>>;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-kept-records');
    service = await startDedupService(infrastructure.env);
    client = dedupClient(service.grpcPort);
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = mongo.db('destiny_dedup');
    observer = await observeReferenceChanged(infrastructure.env.AMQP_NAMESPACE);
  });

  afterAll(async () => {
    client?.close();
    await observer?.close();
    await mongo?.close();
    await service?.stop();
    await infrastructure?.stop();
  });

  let line = 0;
  async function ingest(strategy: string, reference: unknown): Promise<string> {
    const lines = [{ line_number: ++line, reference_json: JSON.stringify(reference), import_result_id: uuidv7() }];
    const [outcome] = (await call<{ outcomes: Array<{ reference_id: string; status: string }> }>(client, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: strategy, lines })).outcomes;
    expect(outcome.status).toBe('completed');
    return outcome.reference_id;
  }
  const getReference = async (id: string) => JSON.parse((await call<{ json: string }>(client, 'GetReference', { id })).json) as View;
  const decided = (id: string) => waitFor(async () => (await getReference(id)).duplicate_decision, `a decision for ${id}`);
  const stored = (id: string) => db.collection<ReferenceDocument>(COLLECTIONS.references).findOne({ _id: id });
  const catalogue = (value: string) => ({ identifier: value, identifier_type: 'other', other_identifier_name: 'catalogue' });
  // Each test's works have their own authors and pages: only the title tells a test's versions apart.
  const works = {
    robot: { authors: ['Okafor, C.', 'Lindqvist, M.'], firstPage: 201 },
    merge: { authors: ['Brennan, S.', 'Achebe, N.'], firstPage: 301 },
    legacy: { authors: ['Moreau, J.', 'Sato, K.'], firstPage: 401 },
    format: { authors: ['Ivanova, E.', 'Mensah, K.'], firstPage: 451 },
    group: { authors: ['Novak, P.', 'Haddad, L.'], firstPage: 501 },
  };
  // A corrected record moves the article too (same title elsewhere would still match a translated title).
  const placeOf = (work: keyof typeof works, corrected: boolean) => {
    const first = works[work].firstPage + (corrected ? 50 : 0);
    return { pagination: { volume: corrected ? '42' : '41', issue: corrected ? '1' : '3', first_page: String(first), last_page: String(first + 12) } };
  };
  const bibliographicOf = (work: keyof typeof works, title: string, corrected = false) => bibliographic(title, works[work].authors, 2015, 'Journal of Clinical Epidemiology', placeOf(work, corrected));
  const article = (work: keyof typeof works, identifier: string, title: string, corrected = false) => ({ identifiers: [catalogue(identifier)], enhancements: [bibliographicOf(work, title, corrected)] });

  /** The kept record is the corrected one, and a copy of the correction joins the reference. */
  async function expectCorrectionFollowed(work: keyof typeof works, referenceId: string, newTitle: string) {
    expect((await stored(referenceId))?.dedup_record?.record).toMatchObject({ title: newTitle, volume: '42' });
    const copy = await ingest('fail', article(work, `${work}-copy`, newTitle, true));
    expect(await decided(copy)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: referenceId });
  }

  it('when a robot adds a newer bibliographic record, then the kept record follows it and a copy of the new record joins that reference', async () => {
    const oldTitle = 'Screening adults for latent tuberculosis before biologic therapy: a survey of practice';
    const newTitle = 'Interferon-gamma release assays against skin tests for latent tuberculosis before biologic therapy';
    const first = await ingest('fail', article('robot', 'robot-first', oldTitle));
    expect(await decided(first)).toEqual({ duplicate_determination: 'canonical', canonical_reference_id: null });
    expect((await stored(first))?.dedup_record).toMatchObject({ format: recordFormat, record: { id: first, title: oldTitle, year: 2015, volume: '41' } });

    const robotRecord = { ...bibliographicOf('robot', newTitle, true), source: 'metadata-robot', reference_id: first };
    const abstract = { reference_id: first, source: 'abstract-robot', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'Background: a survey.' } };
    const outcomes = (await call<{ outcomes: Array<{ status: string }> }>(client, 'AddEnhancements', { enhancements_json: [JSON.stringify(robotRecord), JSON.stringify(abstract)], enhancement_ids: [], robot_id: '', robot_enhancement_batch_id: uuidv7(), enhancement_request_id: '' })).outcomes;
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['stored', 'stored']);
    await expectCorrectionFollowed('robot', first, newTitle);
  });

  it('when an import merges a newer version of the bibliographic record, then the kept record follows it and a copy of the new version joins that reference', async () => {
    const oldTitle = 'Adherence to inhaled corticosteroids in adolescents with asthma: a cohort from primary care';
    const newTitle = 'Corrected version: inhaled corticosteroid adherence among adolescents with persistent asthma';
    const first = await ingest('fail', article('merge', 'merge-first', oldTitle));
    await decided(first);
    expect(await ingest('merge_aggressive', article('merge', 'merge-first', newTitle, true))).toBe(first);
    await expectCorrectionFollowed('merge', first, newTitle);
  });

  it('when stored references keep no record or one in another format, then copies are still compared with their content', async () => {
    const withoutTitle = 'Long-term outcomes of bariatric surgery in adolescents with severe obesity: five-year follow-up';
    const otherFormatTitle = 'Vitamin D supplementation and fracture risk in community-dwelling older women: a pragmatic trial';
    const without = await ingest('fail', article('legacy', 'legacy-without', withoutTitle));
    const otherFormat = await ingest('fail', article('format', 'legacy-format', otherFormatTitle));
    await decided(without);
    await decided(otherFormat);
    // As an earlier version stored them; a fresh process holds nothing of them in memory.
    await service.stop();
    client.close();
    const references = db.collection<ReferenceDocument>(COLLECTIONS.references);
    await references.updateOne({ _id: without }, { $unset: { dedup_record: '' } });
    const kept = (await stored(otherFormat))?.dedup_record?.record as DedupRecord;
    await references.updateOne({ _id: otherFormat }, { $set: { dedup_record: { format: recordFormat - 1, record: { ...kept, title: 'A record read under rules that no longer apply', volume: '7', pages: '1-3', authors: ['Nobody, N.'] } } } });
    service = await startDedupService(infrastructure.env);
    client = dedupClient(service.grpcPort);

    const copyOfWithout = await ingest('fail', article('legacy', 'legacy-without-copy', withoutTitle));
    const copyOfOtherFormat = await ingest('fail', article('format', 'legacy-format-copy', otherFormatTitle));
    expect(await decided(copyOfWithout)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: without });
    expect(await decided(copyOfOtherFormat)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: otherFormat });
  });

  it('when a copy joins a group whose canonical was only compared, then the canonical\'s event lists the earlier duplicates and the newcomer', async () => {
    const title = 'Home-based cardiac rehabilitation after myocardial infarction: a randomised comparison with centre-based care';
    const canonical = await ingest('fail', article('group', 'group-canonical', title));
    await decided(canonical);
    const earlier = await ingest('fail', article('group', 'group-earlier', title));
    expect(await decided(earlier)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: canonical });
    const newcomer = await ingest('fail', article('group', 'group-newcomer', title));
    expect(await decided(newcomer)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: canonical });

    const named = (identifiers: Array<Record<string, unknown>>) => identifiers.map((identifier) => identifier.identifier);
    const latest = await waitFor(() => {
      const events = observer.events.filter((event) => event.reference_id === canonical);
      const last = events[events.length - 1];
      return last && named(last.reference.identifiers ?? []).includes('group-newcomer') && last;
    }, 'the canonical event naming the newcomer');
    expect(named(latest.reference.identifiers ?? [])).toEqual(['group-canonical', 'group-earlier', 'group-newcomer']);
  });
});
