import { QUEUES, TOPOLOGY, uuidv7, type DeduplicationJob, type ReferenceChangedEvent } from '@destiny/contracts';
import { createInProcessBus, createLogger, OUTBOX_FIELD, type MessageBus, type OutboxEntry } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import { createBlockingKeyRepository } from '../src/data-access/blocking-key.repository';
import { COLLECTIONS } from '../src/data-access/collections';
import { createDecisionRepository, pendingDecision, type DecisionDocument } from '../src/data-access/decision.repository';
import { createReferenceRepository } from '../src/data-access/reference.repository';
import * as engine from '../src/domain/deduplication';
import { expandFromDocument } from '../src/domain/reference-changed.event-builder';
import type { ReferenceDocument } from '../src/domain/reference.model';
import { createIngestReferences } from '../src/usecases/ingest-references.usecase';
import { createDuplicateDecisionUsecases } from '../src/usecases/duplicate-decisions.usecase';
import { createReconcileDecisionActivations } from '../src/usecases/reconcile-decision-activations.usecase';
import { CANDIDATE_SEARCH_DISABLED_DETAIL, createProcessDeduplication, TRUSTED_IDENTIFIERS_UNMATCHED_DETAIL } from '../src/usecases/process-deduplication.usecase';
import { bibliographic, startInfrastructure, waitFor } from './dedup-helpers';

// Deduplication jobs that wait while one is being decided are decided together in one pass.
describe('deduplication jobs on MongoDB', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let client: MongoClient;
  let db: Db;
  let bus: MessageBus;
  const jobs: DeduplicationJob[] = [];
  const logger = createLogger({ service: 'dedup-jobs-test', level: 'silent' });

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-jobs');
    client = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = client.db('destiny_dedup_jobs');
    bus = createInProcessBus({ logger });
    await bus.declareTopology(TOPOLOGY);
    await bus.consume(QUEUES.dedupServiceDeduplication, async (message) => {
      jobs.push(message as DeduplicationJob);
      return { outcome: 'ack' };
    });
  });

  afterEach(async () => {
    jobs.splice(0);
    await db.dropDatabase();
  });

  afterAll(async () => {
    await bus?.close();
    await client?.close();
    await infrastructure?.stop();
  });

  const repositories = () => ({ references: createReferenceRepository(db), decisions: createDecisionRepository(db), blocking: createBlockingKeyRepository(db) });
  const reconcile = () => createReconcileDecisionActivations({ ...repositories(), exclusive: run, logger });
  const run = <T>(work: () => Promise<T>) => work();

  /** Ingests each chunk as import-service would, one IngestReferences call per chunk; answers the chunks' jobs in order. */
  async function ingestChunks(chunks: Array<Array<{ identifier: Record<string, unknown>; title: string; authors: string[] }>>): Promise<DeduplicationJob[]> {
    const ingest = createIngestReferences({ db, ...repositories(), engine, trustedTypes: new Set(['doi']), bus, logger, exclusive: run, onEvents: () => undefined });
    let line = 0;
    for (const chunk of chunks) {
      const lines = chunk.map((item) => ({
        line_number: ++line,
        import_result_id: uuidv7(),
        reference_json: JSON.stringify({ identifiers: [item.identifier], enhancements: [bibliographic(item.title, item.authors, 2020)] }),
      }));
      await ingest({ import_batch_id: uuidv7(), collision_strategy: 'fail', lines });
    }
    await waitFor(async () => jobs.length === chunks.length, 'a deduplication job for every chunk', 10_000);
    return [...jobs];
  }

  /** A lane that holds its first pass until `release` is called and counts the decisions of every pass. */
  function heldLane() {
    const passes: number[] = [];
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const exclusive = async <T>(work: () => Promise<T>): Promise<T> => {
      const before = await pendingCount();
      if (passes.length === 0) await held;
      const result = await work();
      passes.push(before - (await pendingCount()));
      return result;
    };
    return { passes, exclusive, release: () => release() };
  }

  const pendingCount = () => db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).countDocuments({ duplicate_determination: 'pending' });
  const decisionOf = async (referenceId: string) => db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).findOne({ reference_id: referenceId, active_decision: true });
  /**
   * The reference repository, with another lane (the ingest's merges) changing `changedId` right
   * before each write of many references, `times` times (every time by default), or only before
   * writes that include it.
   */
  const changedBeforeWrites = (changedId: string, options: { times?: number; onlyIncluding?: boolean } = {}) => {
    const references = createReferenceRepository(db);
    let left = options.times ?? Number.POSITIVE_INFINITY;
    const racing: typeof references = {
      ...references,
      async updateMany(operations) {
        if (left > 0 && (!options.onlyIncluding || operations.some((operation) => operation.filter._id === changedId))) {
          left -= 1;
          await db.collection(COLLECTIONS.references).updateOne({ _id: changedId as never }, { $inc: { version: 1 } });
        }
        return references.updateMany(operations);
      },
    };
    return racing;
  };

  const first = { identifier: { identifier_type: 'doi', identifier: '10.1000/jobs.1' }, title: 'Complement inhibition in paroxysmal nocturnal haemoglobinuria: a cohort study', authors: ['Hill, A.', 'Kelly, R.'] };
  const second = { identifier: { identifier_type: 'doi', identifier: '10.1000/jobs.2' }, title: 'Thrombotic microangiopathy after transplantation treated with eculizumab', authors: ['Ardissino, G.'] };
  const third = { identifier: { identifier_type: 'doi', identifier: '10.1000/jobs.3' }, title: 'Renal outcomes of atypical haemolytic uraemic syndrome in children', authors: ['Fakhouri, F.'] };
  // A copy under another kind of identifier: no conflicting DOI, so the metadata decides.
  const copyOf = (item: typeof first, pubmedId: number) => ({ ...item, identifier: { identifier_type: 'pm_id', identifier: pubmedId } });

  /**
   * Three jobs decided in one pass (behind a first one) while the ingest lane changes `second` just
   * before the pass writes: the copy of `second` is stored as its duplicate, `second` itself is not,
   * as a pass that stops half-way leaves them. Resolves once the raced passes have settled.
   */
  async function copyWrittenCanonicalNot() {
    const [firstJob, canonicalJob, copyJob] = await ingestChunks([[first], [second], [copyOf(second, 1002)]]);
    const [secondId] = canonicalJob.reference_ids;
    const [copyId] = copyJob.reference_ids;
    const racing = changedBeforeWrites(secondId, { times: 1, onlyIncluding: true });
    const lane = heldLane();
    const racedProcess = createProcessDeduplication({ ...repositories(), references: racing, engine, trustedTypes: new Set(['doi']), exclusive: lane.exclusive, onEvents: () => undefined, logger });
    const settled = [racedProcess(firstJob), racedProcess(canonicalJob), racedProcess(copyJob)].map((promise) => promise.then(() => 'done', (error: Error) => error.message));
    lane.release();
    return { canonicalJob, copyJob, secondId, copyId, outcomes: await Promise.all(settled) };
  }

  it('when jobs arrive while one is being decided, then the waiting jobs are decided together in one pass, in arrival order', async () => {
    const [job1, job2, job3] = await ingestChunks([[first], [second, copyOf(first, 1001)], [copyOf(second, 1002), third]]);
    const lane = heldLane();
    const process = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: lane.exclusive, onEvents: () => undefined, logger });
    const settled = [process(job1), process(job2), process(job3)];
    lane.release();
    await Promise.all(settled);
    expect(lane.passes).toEqual([1, 4]);
    const [firstId, secondId, copyOfFirstId, copyOfSecondId, thirdId] = [...job1.reference_ids, ...job2.reference_ids, ...job3.reference_ids];
    expect(await decisionOf(firstId)).toMatchObject({ duplicate_determination: 'canonical' });
    expect(await decisionOf(secondId)).toMatchObject({ duplicate_determination: 'canonical' });
    expect(await decisionOf(copyOfFirstId)).toMatchObject({ duplicate_determination: 'duplicate', canonical_reference_id: firstId });
    // Decided in the same pass as its canonical, after it: the pass sees what it decided before.
    expect(await decisionOf(copyOfSecondId)).toMatchObject({ duplicate_determination: 'duplicate', canonical_reference_id: secondId });
    expect(await decisionOf(thirdId)).toMatchObject({ duplicate_determination: 'canonical' });
  });

  it('when one pass resolves two pending decisions of the same reference (invoked twice at once), then only the later stays active', async () => {
    const [job1, job2] = await ingestChunks([[first], [second]]);
    await createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger })(job1);
    const [referenceId] = job1.reference_ids;
    const invoked = [uuidv7(), uuidv7()];
    await db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).insertMany(invoked.map((id) => pendingDecision(id, referenceId, 'invoke_api', new Date())));
    const lane = heldLane();
    const process = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: lane.exclusive, onEvents: () => undefined, logger });
    const settled = [process(job2), ...invoked.map((id) => process({ reference_ids: [referenceId], decision_ids: [id] }))];
    lane.release();
    await Promise.all(settled);

    expect(lane.passes).toEqual([1, 2]);
    const active = await db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).find({ reference_id: referenceId, active_decision: true }).toArray();
    expect(active.map((decision) => decision._id)).toEqual([invoked[1]]);
    const reference = await db.collection(COLLECTIONS.references).findOne({ _id: referenceId as never });
    expect(reference?.active_decision).toMatchObject({ decision_id: invoked[1], duplicate_determination: 'canonical' });
  });

  /** One IngestReferences chunk of whole reference lines; answers its job. */
  async function ingestLines(references: unknown[]): Promise<DeduplicationJob> {
    const ingest = createIngestReferences({ db, ...repositories(), engine, trustedTypes: new Set(['doi', 'pm_id']), bus, logger, exclusive: run, onEvents: () => undefined });
    await ingest({ import_batch_id: uuidv7(), collision_strategy: 'fail', lines: references.map((reference, index) => ({ line_number: index + 1, import_result_id: uuidv7(), reference_json: JSON.stringify(reference) })) });
    await waitFor(async () => jobs.length === 1, 'the chunk\'s deduplication job', 10_000);
    return jobs[0];
  }
  const withBibliographic = (identifier: Record<string, unknown>, item: typeof first) => ({ identifiers: [identifier], enhancements: [bibliographic(item.title, item.authors, 2020)] });
  const abstractOnly = { source: 'importer', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'An abstract and nothing else to match on.' } };

  it('when a reference\'s trusted identifiers match no other reference, then it is canonical with the contract\'s detail unless its metadata finds a duplicate', async () => {
    const job = await ingestLines([{ identifiers: [{ identifier_type: 'pm_id', identifier: 4242 }], enhancements: [abstractOnly] }, withBibliographic(first.identifier, first), withBibliographic({ identifier_type: 'pm_id', identifier: 1001 }, first)]);
    await createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi', 'pm_id']), exclusive: run, onEvents: () => undefined, logger })(job);
    const [abstractOnlyId, firstId, copyId] = job.reference_ids;
    expect(await decisionOf(abstractOnlyId)).toMatchObject({ duplicate_determination: 'canonical', detail: TRUSTED_IDENTIFIERS_UNMATCHED_DETAIL });
    expect(await decisionOf(firstId)).toMatchObject({ duplicate_determination: 'canonical', detail: TRUSTED_IDENTIFIERS_UNMATCHED_DETAIL });
    expect(await decisionOf(copyId)).toMatchObject({ duplicate_determination: 'duplicate', canonical_reference_id: firstId });
  });

  it('when canonical candidate search is off, then only the trusted-identifier shortcut decides and everything else is unsearchable', async () => {
    const job = await ingestLines([withBibliographic(first.identifier, first), withBibliographic({ identifier_type: 'other', identifier: 'x-1', other_identifier_name: 'local' }, first), withBibliographic({ identifier_type: 'pm_id', identifier: 1001 }, first)]);
    await createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi', 'pm_id']), candidateSearch: false, exclusive: run, onEvents: () => undefined, logger })(job);
    const [doiId, otherId, pubmedId] = job.reference_ids;
    expect(await decisionOf(doiId)).toMatchObject({ duplicate_determination: 'canonical', detail: TRUSTED_IDENTIFIERS_UNMATCHED_DETAIL });
    expect(await decisionOf(otherId)).toMatchObject({ duplicate_determination: 'unsearchable', detail: CANDIDATE_SEARCH_DISABLED_DETAIL });
    expect(await decisionOf(pubmedId)).toMatchObject({ duplicate_determination: 'canonical', detail: TRUSTED_IDENTIFIERS_UNMATCHED_DETAIL });
  });

  it('when a blocking key finds references whose filed years are more than one apart, then they are not candidates; one year apart they are', async () => {
    const atPlace = (identifier: string, title: string, year: number) => ({
      identifiers: [{ identifier_type: 'other', identifier, other_identifier_name: 'local' }],
      enhancements: [bibliographic(title, ['Hill, A.'], year, 'Journal of Tests', { pagination: { volume: '5', first_page: '10', last_page: '20' } })],
    });
    const decide = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger });
    const earlier = await ingestLines([atPlace('year-2000', 'Complement inhibition in paroxysmal nocturnal haemoglobinuria: a cohort study', 2000)]);
    await decide(earlier);
    jobs.splice(0);
    // Same journal, volume and pages (the locator key), another title: only the year tells them apart before reading.
    const later = await ingestLines([atPlace('year-2010', 'Renal outcomes of atypical haemolytic uraemic syndrome in children', 2010), atPlace('year-2001', 'Thrombotic microangiopathy after transplantation treated with eculizumab', 2001)]);
    await decide(later);
    const [year2010, year2001] = later.reference_ids;
    expect(await decisionOf(year2010)).toMatchObject({ duplicate_determination: 'canonical', detail: 'No duplicate among 0 candidate(s).' });
    // The 2000 reference is read and scored; the 2010 one, decided earlier in the pass, is not.
    expect(await decisionOf(year2001)).toMatchObject({ duplicate_determination: 'canonical', detail: 'No duplicate among 1 candidate(s).' });
    expect(await db.collection(COLLECTIONS.referenceBlockingKeys).findOne({ _id: earlier.reference_ids[0] } as never)).toMatchObject({ years: [2000] });
  });

  it('when a reference was filed under journal-locator keys without a year (as before keys carried years), then a later reference at that locator still finds and merges with it', async () => {
    const placed = (identifier: string, year: number) => ({
      identifiers: [{ identifier_type: 'other', identifier, other_identifier_name: 'local' }],
      enhancements: [bibliographic('Eculizumab in atypical haemolytic uraemic syndrome', ['Hill, A.', 'Kelly, R.'], year, 'Journal of Tests', { pagination: { volume: '5', first_page: '10', last_page: '20' } })],
    });
    const decide = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger });
    const earlier = await ingestLines([placed('filed-before', 2011)]);
    await decide(earlier);
    jobs.splice(0);
    // Its keys rewritten as the earlier format stored the locator ones: without a year, and no years filed.
    const sets = db.collection<{ _id: string; keys: string[]; years?: number[] }>(COLLECTIONS.referenceBlockingKeys);
    const stored = await sets.findOne({ _id: earlier.reference_ids[0] });
    const legacy = [...new Set((stored?.keys ?? []).filter((key) => key.startsWith('lp:') || key.startsWith('ll:')).map((key) => key.slice(0, key.lastIndexOf(':'))))];
    expect(legacy.length).toBe(2);
    await sets.updateOne({ _id: earlier.reference_ids[0] }, { $set: { keys: legacy }, $unset: { years: '' } });
    // Its title keys are gone too, so only the locator without a year can lead a copy to it.
    const later = await ingestLines([placed('filed-after', 2011)]);
    await decide(later);
    expect(await decisionOf(later.reference_ids[0])).toMatchObject({ duplicate_determination: 'duplicate', canonical_reference_id: earlier.reference_ids[0] });
  });

  it('when blocking keys are added to a reference with years and then with an unknown year, then its years are kept, grown, and then cleared', async () => {
    const blocking = createBlockingKeyRepository(db);
    const now = new Date();
    await blocking.addMany([{ referenceId: 'r1', keys: ['k:a'], years: [2000] }], now);
    await blocking.addMany([{ referenceId: 'r1', keys: ['k:b'], years: [2000, 2001] }], now);
    let found = await blocking.lookup(['k:a', 'k:b']);
    expect(found.candidates.get('k:b')).toEqual(['r1']);
    expect(found.years.get('r1')).toEqual([2000, 2001]);
    await blocking.addMany([{ referenceId: 'r1', keys: ['k:c'], years: null }], now);
    found = await blocking.lookup(['k:a', 'k:c']);
    expect(found.candidates.get('k:a')).toEqual(['r1']);
    expect(found.candidates.get('k:c')).toEqual(['r1']);
    expect(found.years.has('r1')).toBe(false);
  });

  it('when the waiting jobs exceed the pass size, then a pass takes whole jobs up to it', async () => {
    const [job1, job2, job3, job4] = await ingestChunks([[first], [second, third], [copyOf(first, 1001)], [copyOf(third, 1003)]]);
    const lane = heldLane();
    const process = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: lane.exclusive, onEvents: () => undefined, logger }, { maxCoalescedDecisions: 2 });
    const settled = [process(job1), process(job2), process(job3), process(job4)];
    lane.release();
    await Promise.all(settled);
    expect(lane.passes).toEqual([1, 2, 2]);
    expect(await pendingCount()).toBe(0);
  });

  it('when a pass fails, then every job in it fails (to be delivered again) and their decisions stay pending until a later pass', async () => {
    const [job1, job2, job3] = await ingestChunks([[first], [second], [copyOf(first, 1001)]]);
    const lane = heldLane();
    let failNext = false;
    const exclusive = async <T>(work: () => Promise<T>): Promise<T> =>
      lane.exclusive(async () => {
        if (failNext) {
          failNext = false;
          throw new Error('the reference store is unavailable');
        }
        return work();
      });
    const process = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive, onEvents: () => undefined, logger });
    const settled = [process(job1), process(job2), process(job3)].map((promise) => promise.then(() => 'done', (error: Error) => error.message));
    // The next pass (jobs 2 and 3 together) fails once job 1's pass has settled.
    const firstPassDone = settled[0].then(() => {
      failNext = true;
    });
    lane.release();
    await firstPassDone;
    expect(await Promise.all(settled)).toEqual(['done', 'the reference store is unavailable', 'the reference store is unavailable']);
    expect(await pendingCount()).toBe(2);
    await Promise.all([process(job2), process(job3)]);
    expect(await pendingCount()).toBe(0);
    expect(await decisionOf(job3.reference_ids[0])).toMatchObject({ duplicate_determination: 'duplicate', canonical_reference_id: job1.reference_ids[0] });
  });

  it('when a pass wrote some references before another turned out changed, then the retry records the written decisions as applied instead of deciding them again', async () => {
    const { canonicalJob, copyJob, secondId, copyId, outcomes } = await copyWrittenCanonicalNot();
    const retried = 'a reference changed while its duplicate decision was applied; the job will be retried';
    expect(outcomes).toEqual(['done', retried, retried]);
    // The copy was written with its decision, which is still pending; its canonical was not.
    expect(await db.collection(COLLECTIONS.references).findOne({ _id: copyId as never })).toMatchObject({ active_decision: { duplicate_determination: 'duplicate', canonical_reference_id: secondId } });

    // Delivered again in the other order: the copy's job first, while its canonical is undecided.
    const process = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger });
    await process(copyJob);
    await process(canonicalJob);
    expect(await pendingCount()).toBe(0);
    for (const id of [secondId, copyId]) {
      const active = await db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).find({ reference_id: id, active_decision: true }).toArray();
      expect(active).toHaveLength(1);
      const reference = await db.collection(COLLECTIONS.references).findOne({ _id: id as never });
      expect(reference?.active_decision?.decision_id).toBe(active[0]._id);
    }
    expect(await decisionOf(copyId)).toMatchObject({ duplicate_determination: 'duplicate', canonical_reference_id: secondId });
    expect(await decisionOf(secondId)).toMatchObject({ duplicate_determination: 'canonical' });
  });

  it('when a pass wrote a copy as a duplicate but not its canonical\'s own decision, then the canonical decided later counts the copy as its duplicate and its event carries it', async () => {
    // As a stopped pass leaves it (here another lane changed the canonical first; a database that
    // dies mid-write does the same).
    const { canonicalJob, copyJob, secondId, copyId } = await copyWrittenCanonicalNot();
    const storedReference = (id: string) => db.collection(COLLECTIONS.references).findOne({ _id: id as never });
    expect(await storedReference(copyId)).toMatchObject({ active_decision: { duplicate_determination: 'duplicate', canonical_reference_id: secondId } });
    expect(await storedReference(secondId)).toMatchObject({ active_decision: null });

    // Delivered again, the copy's job first, then the canonical's.
    const process = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger });
    await process(copyJob);
    await process(canonicalJob);
    expect(await decisionOf(secondId)).toMatchObject({ duplicate_determination: 'canonical' });
    // The canonical's latest event is its group's view: its own content and its duplicate's.
    const stored = (await storedReference(secondId)) as unknown as ReferenceDocument & { [OUTBOX_FIELD]: OutboxEntry[] };
    const latest = stored[OUTBOX_FIELD].map((entry) => expandFromDocument(entry, stored).payload as ReferenceChangedEvent).sort((a, b) => b.version - a.version)[0];
    expect(latest).toMatchObject({ version: stored.version, duplicate_decision: { duplicate_determination: 'canonical' } });
    expect(latest.reference.identifiers).toContainEqual(expect.objectContaining({ identifier_type: 'pm_id', identifier: 1002 }));
  });

  it('when a pass wrote a reference but failed before its decisions, and a later pass moves the reference on, then only the latest decision stays active', async () => {
    const [job] = await ingestChunks([[first, second]]);
    const process = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger });
    await process(job);
    const [firstId, secondId] = job.reference_ids;
    const invoke = async (id: string) => {
      const decision = pendingDecision(uuidv7(), id, 'invoke_api', new Date());
      await db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).insertOne(decision);
      return decision._id;
    };
    const activeOf = async (id: string) => (await db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).find({ reference_id: id, active_decision: true }).toArray()).map((decision) => decision._id);
    // Invoked on both; the pass writes the first reference, then finds the second changed by the ingest lane.
    const invokedFirst = await invoke(firstId);
    const invokedSecond = await invoke(secondId);
    const racing = changedBeforeWrites(secondId);
    const raced = createProcessDeduplication({ ...repositories(), references: racing, engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger });
    const failedJob = { reference_ids: [firstId, secondId], decision_ids: [invokedFirst, invokedSecond] };
    await expect(raced(failedJob)).rejects.toThrow('a reference changed while its duplicate decision was applied');

    // Invoked again before the failed job comes back: this pass moves the first reference on.
    const invokedAgain = await invoke(firstId);
    await process({ reference_ids: [firstId], decision_ids: [invokedAgain] });
    expect(await activeOf(firstId)).toEqual([invokedAgain]);

    await process(failedJob);
    expect(await pendingCount()).toBe(0);
    for (const id of [firstId, secondId]) {
      const reference = await db.collection(COLLECTIONS.references).findOne({ _id: id as never });
      expect(await activeOf(id)).toEqual([reference?.active_decision?.decision_id]);
    }
  });

  it('when manual decisions are written while another lane keeps changing one of their references, then 409 after a few tries, and each reference carries exactly its one active decision', async () => {
    const [job] = await ingestChunks([[first, second, third]]);
    await createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger })(job);
    const [firstId, secondId, thirdId] = job.reference_ids;
    const racing = changedBeforeWrites(thirdId);
    const manual = createDuplicateDecisionUsecases({ ...repositories(), references: racing, engine, bus, exclusive: run, onEvents: () => undefined });
    const body = [secondId, thirdId].map((id) => ({ reference_id: id, duplicate_determination: 'duplicate', canonical_reference_id: firstId }));
    await expect(manual.makeDecisions(body)).rejects.toMatchObject({ httpStatus: 409 });

    const stored = async (id: string) => (await db.collection(COLLECTIONS.references).findOne({ _id: id as never }))?.active_decision as { decision_id: string; duplicate_determination: string };
    expect(await stored(secondId)).toMatchObject({ duplicate_determination: 'duplicate' });
    expect(await stored(thirdId)).toMatchObject({ duplicate_determination: 'canonical' });
    for (const id of [firstId, secondId, thirdId]) {
      const active = await db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).find({ reference_id: id, active_decision: true }).toArray();
      expect(active.map((decision) => decision._id)).toEqual([(await stored(id)).decision_id]);
    }
  });

  it('when the process stops after a manual decision is stored but before its reference is written, then the reference keeps one active decision, its earlier one', async () => {
    const [job] = await ingestChunks([[first, second]]);
    await createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger })(job);
    const [firstId, secondId] = job.reference_ids;
    const references = createReferenceRepository(db);
    // What a process killed at that point leaves: nothing after the decision's insert is written.
    const stopping = { ...references, updateMany: async () => Promise.reject(new Error('the process stopped')) };
    const manual = createDuplicateDecisionUsecases({ ...repositories(), references: stopping, engine, bus, exclusive: run, onEvents: () => undefined });
    await expect(manual.makeDecisions([{ reference_id: secondId, duplicate_determination: 'duplicate', canonical_reference_id: firstId }])).rejects.toThrow('the process stopped');

    const carried = (await db.collection(COLLECTIONS.references).findOne({ _id: secondId as never }))?.active_decision as { decision_id: string; duplicate_determination: string };
    expect(carried.duplicate_determination).toBe('canonical');
    const decisions = await db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).find({ reference_id: secondId }).toArray();
    expect(decisions.map((decision) => [decision.decision_authority, decision.active_decision])).toEqual([
      ['system', true],
      ['person', false],
    ]);
    expect(decisions.filter((decision) => decision.active_decision).map((decision) => decision._id)).toEqual([carried.decision_id]);

    // Reconciled later: the decision its reference never took stays inactive, and nothing is left to reconcile.
    await reconcile()(new Date(Date.now() + 1000));
    const after = await db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).find({ reference_id: secondId }).toArray();
    expect(after.map((decision) => [decision.decision_authority, decision.active_decision])).toEqual([
      ['system', true],
      ['person', false],
    ]);
    expect(await db.collection(COLLECTIONS.decisionActivations).countDocuments()).toBe(0);
  });

  it('when the process stops after a manual decision reached its reference but before it was activated, then the reconciliation activates it and deactivates the one it replaced', async () => {
    const [job] = await ingestChunks([[first, second]]);
    await createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger })(job);
    const [firstId, secondId] = job.reference_ids;
    const decisionRepository = createDecisionRepository(db);
    // What a process killed at that point leaves: the reference written, the decisions' last write not.
    const stopping = {
      ...decisionRepository,
      decisions: new Proxy(decisionRepository.decisions, {
        get: (target, property) => {
          if (property === 'bulkWrite') return () => Promise.reject(new Error('the process stopped'));
          const value = Reflect.get(target, property) as unknown;
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        },
      }),
    };
    const manual = createDuplicateDecisionUsecases({ ...repositories(), decisions: stopping, engine, bus, exclusive: run, onEvents: () => undefined });
    await expect(manual.makeDecisions([{ reference_id: secondId, duplicate_determination: 'duplicate', canonical_reference_id: firstId }])).rejects.toThrow('the process stopped');
    const carried = (await db.collection(COLLECTIONS.references).findOne({ _id: secondId as never }))?.active_decision as { decision_id: string; duplicate_determination: string };
    expect(carried.duplicate_determination).toBe('duplicate');
    const activeIds = async () => (await db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).find({ reference_id: secondId, active_decision: true }).toArray()).map((decision) => decision._id);
    expect(await activeIds()).not.toEqual([carried.decision_id]);

    // Not before the activation is stale: a commit may still be running.
    expect(await reconcile()(new Date(Date.now() - 60_000))).toBe(0);
    expect(await reconcile()(new Date(Date.now() + 1000))).toBe(1);
    expect(await activeIds()).toEqual([carried.decision_id]);
    expect(await db.collection(COLLECTIONS.decisionActivations).countDocuments()).toBe(0);
  });

  it('when manual decisions meet a reference another lane changed once, then they are decided again on what is stored and all applied', async () => {
    const [job] = await ingestChunks([[first, second, third]]);
    await createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger })(job);
    const [firstId, secondId, thirdId] = job.reference_ids;
    const racing = changedBeforeWrites(thirdId, { times: 1 });
    const manual = createDuplicateDecisionUsecases({ ...repositories(), references: racing, engine, bus, exclusive: run, onEvents: () => undefined });
    const results = await manual.makeDecisions([secondId, thirdId].map((id) => ({ reference_id: id, duplicate_determination: 'duplicate', canonical_reference_id: firstId })));
    expect(results.map((result) => [result.reference_id, result.outcome, result.active_decision])).toEqual([
      [secondId, 'duplicate', true],
      [thirdId, 'duplicate', true],
    ]);
    for (const [index, id] of [secondId, thirdId].entries()) {
      const active = await db.collection<DecisionDocument>(COLLECTIONS.duplicateDecisions).find({ reference_id: id, active_decision: true }).toArray();
      expect(active.map((decision) => [decision._id, decision.duplicate_determination, decision.decision_authority])).toEqual([[results[index].id, 'duplicate', 'person']]);
    }
  });

  /** The event of `id`'s highest version in its outbox, with the stored document's version. */
  async function latestEventOf(id: string) {
    const stored = (await db.collection(COLLECTIONS.references).findOne({ _id: id as never })) as unknown as ReferenceDocument & { [OUTBOX_FIELD]: OutboxEntry[] };
    const latest = stored[OUTBOX_FIELD].map((entry) => expandFromDocument(entry, stored).payload as ReferenceChangedEvent).sort((a, b) => b.version - a.version)[0];
    return { latest, version: stored.version };
  }
  const carriesPubmedId = (event: ReferenceChangedEvent, pubmedId: number) => (event.reference.identifiers ?? []).some((identifier) => identifier.identifier_type === 'pm_id' && identifier.identifier === pubmedId);

  it('when a copy\'s write conflicts after its canonical\'s group event was written, and a person then decides the copy canonical, then the canonical\'s latest event no longer carries the copy', async () => {
    const [canonicalJob, copyJob] = await ingestChunks([[second], [copyOf(second, 1002)]]);
    const process = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger });
    await process(canonicalJob);
    const [secondId] = canonicalJob.reference_ids;
    const [copyId] = copyJob.reference_ids;
    const raced = createProcessDeduplication({ ...repositories(), references: changedBeforeWrites(copyId, { times: 1, onlyIncluding: true }), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger });
    await expect(raced(copyJob)).rejects.toThrow('a reference changed while its duplicate decision was applied');
    expect(await db.collection(COLLECTIONS.references).findOne({ _id: copyId as never })).toMatchObject({ active_decision: null });

    const manual = createDuplicateDecisionUsecases({ ...repositories(), engine, bus, exclusive: run, onEvents: () => undefined });
    await manual.makeDecisions([{ reference_id: copyId, duplicate_determination: 'canonical' }]);
    // Delivered again: the system's proposal does not overrule the person's decision.
    await process(copyJob);
    expect(await decisionOf(copyId)).toMatchObject({ duplicate_determination: 'canonical', decision_authority: 'person' });

    const { latest, version } = await latestEventOf(secondId);
    expect(latest.version).toBe(version);
    expect(latest.duplicate_decision).toMatchObject({ duplicate_determination: 'canonical' });
    expect(carriesPubmedId(latest, 1002)).toBe(false);
  });

  it('when a manual decision joins a copy to a canonical that another lane keeps changing, then the canonical\'s latest event carries the copy that joined', async () => {
    const [job] = await ingestChunks([[second, third]]);
    await createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger })(job);
    const [secondId, thirdId] = job.reference_ids;
    // The canonical changes before each write of many references; the copy's own write lands.
    const manual = createDuplicateDecisionUsecases({ ...repositories(), references: changedBeforeWrites(secondId, { onlyIncluding: true }), engine, bus, exclusive: run, onEvents: () => undefined });
    // The first attempt conflicts; the second finds the copy's decision stored and writes the copy alone.
    await manual.makeDecisions([{ reference_id: thirdId, duplicate_determination: 'duplicate', canonical_reference_id: secondId }]);
    expect(await decisionOf(thirdId)).toMatchObject({ duplicate_determination: 'duplicate', canonical_reference_id: secondId });

    const { latest, version } = await latestEventOf(secondId);
    expect(latest.reference.identifiers).toContainEqual(expect.objectContaining({ identifier_type: 'doi', identifier: third.identifier.identifier }));
    expect(latest.version).toBe(version);
  });

  it('when a candidate the pass only compared against changes before the pass writes, then the pass fails (to be delivered again) and writes nothing', async () => {
    const [job1, job2] = await ingestChunks([[first], [copyOf(first, 1001)]]);
    const process = createProcessDeduplication({ ...repositories(), engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger });
    await process(job1);
    const [firstId] = job1.reference_ids;
    const [copyId] = job2.reference_ids;
    // Another writer (the ingest lane, say) enhances the canonical right after the pass read its summary.
    const references = createReferenceRepository(db);
    const racing = {
      ...references,
      async summariesHeld(ids: readonly string[]) {
        const rows = await references.summariesHeld(ids);
        await db.collection(COLLECTIONS.references).updateOne({ _id: firstId as never }, { $inc: { version: 1 } });
        return rows;
      },
    };
    const raced = createProcessDeduplication({ ...repositories(), references: racing, engine, trustedTypes: new Set(['doi']), exclusive: run, onEvents: () => undefined, logger });
    await expect(raced(job2)).rejects.toThrow(`reference ${firstId} changed concurrently`);
    expect(await pendingCount()).toBe(1);
    expect(await db.collection(COLLECTIONS.references).findOne({ _id: copyId as never })).toMatchObject({ active_decision: null });

    await process(job2);
    expect(await decisionOf(copyId)).toMatchObject({ duplicate_determination: 'duplicate', canonical_reference_id: firstId });
  });
});
