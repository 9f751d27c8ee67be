import { identifierIdentityKey, type ExternalIdentifier } from '@destiny/contracts';
import { MongoClient } from 'mongodb';
import { waitFor } from '@destiny/devstack/testing';
import { startFileServer } from '../../services/import-service/test/import-helpers';
import { startSystemUnderTest, type SystemUnderTest } from './support/system-under-test';

// Six batches registered at once, one per strategy (two under `fail`), whose lines draw their
// identifiers from small shared pools: chunks of different batches collide with each other and
// with references the deduplication lane is deciding at the same moment. Whatever the
// interleaving, an identifier belongs to one reference, and every line ends as its strategy says.

const LINES = 400;
const STRATEGIES = ['fail', 'fail', 'discard', 'merge_defensive', 'merge_aggressive', 'append'] as const;
const COLLISION_DETAILS = ['Identifier(s) are already mapped on an existing reference:', 'Incoming reference collides with more than one existing reference.'];

type Result = { status: string; reference_id: string | null; failure_details: string | null };
type StoredReference = { _id: string; identifiers: Array<{ identifier_type: string; identifier: string | number }>; enhancements: Array<{ content: { abstract?: string } }>; active_decision: { duplicate_determination: string } | null };

describe('concurrent imports sharing identifiers', () => {
  let system: SystemUnderTest;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  const tag = `concurrent-${Date.now()}`;
  const doi = (k: number) => `10.8888/${tag}.${k}`;
  const pmid = (k: number) => 7_000_000 + k;

  /** A fixed mix per (batch, line): a DOI, a PubMed id, or both, sometimes with a batch-own `other` id; every abstract unique. */
  function lineOf(batch: number, n: number): string {
    const pick = (salt: number, size: number) => (batch * 7919 + n * 104729 + salt * 15485863) % size;
    const identifiers: unknown[] = [];
    const shape = pick(1, 4);
    if (shape !== 1) identifiers.push({ identifier_type: 'doi', identifier: doi(pick(2, 150)) });
    if (shape !== 0) identifiers.push({ identifier_type: 'pm_id', identifier: pmid(pick(3, 100)) });
    if (pick(4, 5) === 0) identifiers.push({ identifier_type: 'other', other_identifier_name: 'batch-line', identifier: `${tag}-${batch}-${n}` });
    const source = pick(5, 2) === 0 ? 'importer-a' : 'importer-b';
    // Titles shared across lines keep the deduplication lane deciding groups while the chunks merge.
    const title = pick(6, 60);
    const enhancements = [
      { source, visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: `abstract ${batch}-${n}` } },
      { source, visibility: 'public', content: { enhancement_type: 'bibliographic', title: `Shared findings on platelet counts in cohort ${title} of the multicentre registry`, authorship: [{ display_name: `Author ${title}`, position: 'first' }], publication_year: 2000 + (title % 20) } },
    ];
    return JSON.stringify({ identifiers, enhancements });
  }

  beforeAll(async () => {
    files = await startFileServer();
    system = await startSystemUnderTest({
      label: 'concurrent-imports',
      services: ['dedup-service', 'import-service'],
      env: { 'import-service': { OUTBOUND_ALLOWLIST: '127.0.0.0/8', IMPORT_RETRY_BASE_MS: '50' } },
    });
  });

  afterAll(async () => {
    await system?.stop();
    await files?.stop();
  });

  it('when six batches under every strategy collide with each other, then each identifier has one reference, each line its strategy\'s outcome, and each reference a decision', async () => {
    const created = await fetch(system.url('/imports/records/'), system.bearer('POST', { processor_name: 'concurrent', processor_version: '1', expected_reference_count: -1, source_name: 'e2e' }));
    expect(created.status).toBe(201);
    const recordId = ((await created.json()) as { id: string }).id;
    const batches = await Promise.all(
      STRATEGIES.map(async (strategy, batch) => {
        const storageUrl = files.serve(`/${tag}-${batch}.jsonl`, Array.from({ length: LINES }, (_, n) => lineOf(batch, n)).join('\n'));
        const response = await fetch(system.url(`/imports/records/${recordId}/batches/`), system.bearer('POST', { storage_url: storageUrl, collision_strategy: strategy }));
        expect(response.status).toBe(202);
        return { strategy, batch, id: ((await response.json()) as { id: string }).id };
      }),
    );
    const get = async <T>(route: string): Promise<T> => {
      const response = await fetch(system.url(route), { headers: system.admin });
      expect(response.status).toBe(200);
      return (await response.json()) as T;
    };

    // Meanwhile a deduplicator keeps asking for the newest references to be deduplicated again, so
    // the decision lane writes the very references the chunks are merging into.
    const mongo = await MongoClient.connect(String(system.env.MONGODB_URL));
    const dedup = mongo.db('destiny_dedup');
    let importing = true;
    const reDeduplicating = (async () => {
      while (importing) {
        const newest = await dedup.collection('references').find({}, { projection: { _id: 1 } }).sort({ _id: -1 }).limit(200).toArray();
        if (newest.length > 0) expect((await fetch(system.url('/references/duplicate-decisions/invoke/'), system.bearer('POST', { reference_ids: newest.map((row) => row._id) }))).status).toBe(202);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    const resultsOf = new Map<number, Result[]>();
    try {
      for (const { batch, id } of batches) {
        await waitFor(async () => ['completed', 'partially_failed', 'failed'].includes((await get<{ status: string }>(`/imports/records/${recordId}/batches/${id}/`)).status), `batch ${batch} to finish`, 120_000);
        resultsOf.set(batch, await get<Result[]>(`/imports/records/${recordId}/batches/${id}/results/`));
      }
    } finally {
      importing = false;
      await reDeduplicating;
    }

    // Every line one result; a failure is only ever a collision its strategy reports, never a
    // repository error or exhausted retries.
    for (const { strategy, batch } of batches) {
      const results = resultsOf.get(batch) as Result[];
      expect(results).toHaveLength(LINES);
      const unexpected = results.filter((result) => result.status !== 'completed' && !(result.status === 'failed' && COLLISION_DETAILS.some((detail) => result.failure_details?.includes(detail))));
      expect({ strategy, unexpected }).toEqual({ strategy, unexpected: [] });
      if (strategy === 'discard') expect(results.filter((result) => result.status === 'failed')).toEqual([]);
    }

    try {
      const tagged = { $or: [{ 'identifiers.identifier': { $regex: `^10\\.8888/${tag}\\.` } }, { 'identifiers.identifier': { $gte: pmid(0), $lt: pmid(100) } }] };
      const references = await dedup.collection<StoredReference>('references').find(tagged).toArray();
      const stored = new Map(references.map((reference) => [reference._id, reference]));

      // One reference per identifier, and the claim names it.
      const holders = new Map<string, Set<string>>();
      for (const reference of references) {
        for (const identifier of reference.identifiers) {
          const key = `${identifier.identifier_type}:${String(identifier.identifier).toLowerCase()}`;
          holders.set(key, (holders.get(key) ?? new Set()).add(reference._id));
        }
      }
      expect([...holders].filter(([, ids]) => ids.size > 1).map(([key, ids]) => `${key} held by ${[...ids].join(', ')}`)).toEqual([]);
      const claims = await dedup.collection<{ _id: string; reference_id: string }>('identifiers').find({ reference_id: { $in: [...stored.keys()] } }).toArray();
      const keysOf = (id: string) => new Set(stored.get(id)?.identifiers.map((identifier) => identifierIdentityKey(identifier as ExternalIdentifier)));
      expect(claims.filter((claim) => !keysOf(claim.reference_id).has(claim._id))).toEqual([]);
      const claimed = new Set(claims.map((claim) => `${claim.reference_id} ${claim._id}`));
      expect(references.flatMap((reference) => [...keysOf(reference._id)].filter((key) => !claimed.has(`${reference._id} ${key}`)).map((key) => `${reference._id} ${key}`))).toEqual([]);

      // A completed line names a stored reference holding its abstract (created, appended or, under
      // merge_aggressive, a new version; a defensive merge keeps an existing pair's abstract instead).
      for (const { strategy, batch } of batches) {
        for (const [n, result] of (resultsOf.get(batch) as Result[]).entries()) {
          if (result.status !== 'completed' || result.reference_id === null || strategy === 'discard') continue;
          const reference = stored.get(result.reference_id);
          expect({ strategy, n, stored: reference !== undefined }).toEqual({ strategy, n, stored: true });
          if (strategy === 'merge_defensive') continue;
          expect({ strategy, n, abstract: reference?.enhancements.some((enhancement) => enhancement.content.abstract === `abstract ${batch}-${n}`) }).toEqual({ strategy, n, abstract: true });
        }
      }

      // Every reference ends with a decision.
      await waitFor(async () => (await dedup.collection<StoredReference>('references').countDocuments({ $and: [tagged, { $or: [{ active_decision: null }, { 'active_decision.duplicate_determination': 'pending' }] }] } as never)) === 0, 'a decision for every reference', 60_000);
    } finally {
      await mongo.close();
    }
  });
});
