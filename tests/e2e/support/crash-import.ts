import { identifierIdentityKey, type ExternalIdentifier, type ImportBatchSummary, type ReferenceChangedEvent } from '@destiny/contracts';
import { waitFor } from '@destiny/devstack/testing';
import { MongoClient } from 'mongodb';
import { observeReferenceChanged } from '../../../services/dedup-service/test/dedup-helpers';
import { slowFileRoute, type startFileServer } from '../../../services/import-service/test/import-helpers';
import type { SystemUnderTest } from './system-under-test';

// An import that a test interrupts by killing a process (dedup-service, the MongoDB stand-in)
// while it streams, and the invariants that must hold however the kills landed: every line one
// result, every identifier one owner, one reference per accepted line, every reference a
// decision, every decision on the bus.

const LINES = 1500;
const WORDS = ['anticoagulant', 'thrombosis', 'marrow', 'leukaemia', 'platelet', 'haemolysis', 'transfusion', 'myeloma', 'lymphoma', 'ferritin', 'neutropenia', 'sickle', 'aplastic', 'eculizumab', 'complement', 'coagulation', 'haemophilia', 'stem', 'graft', 'fibrinogen', 'cohort', 'randomised', 'paediatric', 'outcomes'];
const SURNAMES = ['Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Haddad', 'Novak', 'Ferreira', 'Kowalski', 'Iyer', 'Brennan', 'Castillo', 'Nakamura', 'Osei', 'Varga', 'Dubois', 'Holm'];

type Result = { status: string; reference_id: string | null; failure_details: string | null };
type Reference = { id: string; duplicate_decision: { duplicate_determination: string; canonical_reference_id: string | null } | null };
type LineKind = { kind: 'work' } | { kind: 'copy'; of: number } | { kind: 'repeat'; of: number };

/** A distinct work per k: its own title, authors, year and place, so only its copies match it. */
function work(k: number) {
  const pick = (list: string[], salt: number) => list[(k * 7919 + salt * 104729) % list.length];
  return {
    source: 'importer',
    visibility: 'public',
    content: {
      enhancement_type: 'bibliographic',
      title: `${pick(WORDS, 1)} ${pick(WORDS, 2)} and ${pick(WORDS, 3)} in ${pick(WORDS, 4)} ${pick(WORDS, 5)}: study ${k} of ${pick(WORDS, 6)}`,
      authorship: [`${pick(SURNAMES, 7)}, A.`, `${pick(SURNAMES, 8)}, B.`, `${pick(SURNAMES, 9)}, C.`].map((name, index) => ({ display_name: name, position: index === 0 ? 'first' : index === 2 ? 'last' : 'middle' })),
      publication_year: 1990 + (k % 30),
      publication_venue: { display_name: `Journal of ${pick(WORDS, 10)} ${k % 13}` },
      pagination: { volume: String(10 + (k % 40)), issue: String(1 + (k % 12)), first_page: String(100 + k), last_page: String(110 + k) },
    },
  };
}

/**
 * Line i (0-based): a new work under a DOI; every 10th from 200 a copy of line i-151's work under
 * an `other` id; every 25th from 300 line i-251 again (odd offsets, so both name a work line).
 */
function lineKind(i: number): LineKind {
  if (i >= 300 && i % 25 === 0) return { kind: 'repeat', of: i - 251 };
  if (i >= 200 && i % 10 === 0) return { kind: 'copy', of: i - 151 };
  return { kind: 'work' };
}

export interface CrashImport {
  /** Lines with a result so far (completed, failed or partially failed). */
  recorded(): Promise<number>;
  /** Waits for the batch to finish, then checks every invariant; resolves once all hold. */
  expectEverythingOnce(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Registers the 1,500-line import through the gateway, its file streamed slowly (25 lines every
 * 40 ms), with a test queue observing `reference.changed` events from the start.
 */
export async function startCrashImport(system: SystemUnderTest, files: Awaited<ReturnType<typeof startFileServer>>, options: { label: string; mongoUrl: string; tag: string }): Promise<CrashImport> {
  const doiOf = (k: number) => `10.7777/${options.tag}.${k}`;
  const lineOf = (i: number): Record<string, unknown> => {
    const kind = lineKind(i);
    if (kind.kind === 'repeat') return lineOf(kind.of);
    if (kind.kind === 'copy') return { identifiers: [{ identifier: `${options.tag}-copy-${i}`, identifier_type: 'other', other_identifier_name: 'crash-test' }], enhancements: [work(kind.of)] };
    return { identifiers: [{ identifier: doiOf(i), identifier_type: 'doi' }], enhancements: [work(i)] };
  };
  const get = async <T>(route: string): Promise<T> => {
    const response = await fetch(system.url(route), { headers: system.admin });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  const observer = await observeReferenceChanged(String(system.env.AMQP_NAMESPACE));
  files.routes.set(`/${options.tag}.jsonl`, slowFileRoute(Array.from({ length: LINES }, (_, i) => `${JSON.stringify(lineOf(i))}\n`)).route);
  const created = await fetch(system.url('/imports/records/'), system.bearer('POST', { processor_name: options.label, processor_version: '1', expected_reference_count: -1, source_name: 'e2e' }));
  expect(created.status).toBe(201);
  const recordId = ((await created.json()) as { id: string }).id;
  const registered = await fetch(system.url(`/imports/records/${recordId}/batches/`), system.bearer('POST', { storage_url: `${files.base}/${options.tag}.jsonl` }));
  expect(registered.status).toBe(202);
  const batchId = ((await registered.json()) as { id: string }).id;
  /** The summary, or null while a killed process is still away (the gateway answers 503 then). */
  const summary = async (): Promise<ImportBatchSummary | null> => {
    const response = await fetch(system.url(`/imports/records/${recordId}/batches/${batchId}/summary/`), { headers: system.admin });
    if (response.status === 503) return null;
    expect(response.status).toBe(200);
    return (await response.json()) as ImportBatchSummary;
  };

  return {
    async recorded() {
      const results = (await summary())?.results;
      return results ? results.completed + results.failed + results.partially_failed : 0;
    },

    async expectEverythingOnce() {
      const done = await waitFor(async () => {
        const current = await summary();
        return current !== null && ['completed', 'partially_failed', 'failed'].includes(current.import_batch_status) && current;
      }, 'the batch to finish', 120_000);
      const repeats = Array.from({ length: LINES }, (_, i) => i).filter((i) => lineKind(i).kind === 'repeat');
      expect(done).toMatchObject({ import_batch_status: 'partially_failed', results: { created: 0, started: 0, completed: LINES - repeats.length, partially_failed: 0, failed: repeats.length, retrying: 0 } });

      const results = await get<Result[]>(`/imports/records/${recordId}/batches/${batchId}/results/`);
      expect(results).toHaveLength(LINES);
      const referenceOfLine = new Map<number, string>();
      for (const [i, row] of results.entries()) {
        const kind = lineKind(i);
        if (kind.kind === 'repeat') {
          expect({ line: i, status: row.status, reference_id: row.reference_id, failure_details: row.failure_details }).toEqual({ line: i, status: 'failed', reference_id: null, failure_details: `Entry ${i + 1}:\n\nIdentifier(s) are already mapped on an existing reference:\nidentifier_type=doi, identifier=${doiOf(kind.of)}` });
        } else {
          expect({ line: i, status: row.status, failure_details: row.failure_details }).toEqual({ line: i, status: 'completed', failure_details: null });
          referenceOfLine.set(i, row.reference_id as string);
        }
      }
      // One reference per accepted line: a chunk sent again after a kill reused what its first attempt stored.
      expect(new Set(referenceOfLine.values()).size).toBe(referenceOfLine.size);
      // Every identifier has one claim, naming its line's reference.
      const mongo = await MongoClient.connect(options.mongoUrl);
      try {
        const dedup = mongo.db('destiny_dedup');
        const tagged = new RegExp(`^(10\\.7777/${options.tag}\\.|${options.tag}-copy-)`);
        expect(await dedup.collection('references').countDocuments({ 'identifiers.identifier': { $regex: tagged } })).toBe(referenceOfLine.size);
        const claimKeyOf = (i: number) => identifierIdentityKey((lineOf(i).identifiers as ExternalIdentifier[])[0]);
        const claims = await dedup.collection<{ _id: string; reference_id: string }>('identifiers').find({ _id: { $in: [...referenceOfLine.keys()].map(claimKeyOf) } }).toArray();
        const ownerOf = new Map(claims.map((claim) => [claim._id, claim.reference_id]));
        expect([...referenceOfLine].filter(([i, id]) => ownerOf.get(claimKeyOf(i)) !== id).map(([i]) => i)).toEqual([]);
      } finally {
        await mongo.close();
      }

      // Every reference ends with a decision, and a copy and the work it copies are one group. Which
      // of the two is canonical depends on which was decided first: a decision retried after a
      // kill may come after its copy's.
      const decisions = new Map<number, NonNullable<Reference['duplicate_decision']>>();
      for (const [i, id] of referenceOfLine) decisions.set(i, await waitFor(async () => (await get<Reference>(`/references/${id}/`)).duplicate_decision, `a decision for line ${i}`, 60_000));
      const canonical = { duplicate_determination: 'canonical', canonical_reference_id: null };
      const copied = new Map<number, number>();
      for (const i of referenceOfLine.keys()) {
        const kind = lineKind(i);
        if (kind.kind === 'copy') copied.set(kind.of, i);
      }
      for (const [i, decision] of decisions) {
        const kind = lineKind(i);
        const partner = kind.kind === 'copy' ? kind.of : copied.get(i);
        if (partner === undefined) {
          expect({ line: i, decision }).toEqual({ line: i, decision: canonical });
          continue;
        }
        const duplicateOf = (line: number) => ({ duplicate_determination: 'duplicate', canonical_reference_id: referenceOfLine.get(line) });
        const expected = decision.duplicate_determination === 'canonical' ? [canonical, duplicateOf(i)] : [duplicateOf(partner), canonical];
        expect({ line: i, partner, pair: [decision, decisions.get(partner)] }).toEqual({ line: i, partner, pair: expected });
      }

      // The lookup finds each DOI's reference folded into its canonical (§6.9).
      const works = [...referenceOfLine.keys()].filter((i) => lineKind(i).kind === 'work');
      const foldedOf = (i: number) => decisions.get(i)?.canonical_reference_id ?? referenceOfLine.get(i);
      for (let start = 0; start < works.length; start += 100) {
        const slice = works.slice(start, start + 100);
        const found = await get<Reference[]>(`/references/?identifier=${encodeURIComponent(slice.map((i) => `doi:${doiOf(i)}`).join(','))}`);
        expect(found.map((reference) => reference.id).sort()).toEqual(slice.map(foldedOf).sort());
      }

      // Each decision reached the bus at least once (a kill may send an event twice, never drop it),
      // and an event sent twice is the same event.
      await waitFor(() => {
        const decided = new Set(observer.events.filter((event: ReferenceChangedEvent) => event.duplicate_decision !== null).map((event) => event.reference_id));
        return [...referenceOfLine.values()].every((id) => decided.has(id));
      }, 'a decision event for every reference', 60_000);
      const byEventId = new Map<string, string>();
      for (const event of observer.events) {
        const body = JSON.stringify(event);
        expect(byEventId.get(event.event_id) ?? body).toBe(body);
        byEventId.set(event.event_id, body);
      }
    },

    close: () => observer.close(),
  };
}
