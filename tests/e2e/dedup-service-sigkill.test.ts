import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ImportBatchSummary, ReferenceChangedEvent } from '@destiny/contracts';
import { freePort, waitFor } from '@destiny/devstack/testing';
import { MongoClient } from 'mongodb';
import { observeReferenceChanged } from '../../services/dedup-service/test/dedup-helpers';
import { slowFileRoute, startFileServer } from '../../services/import-service/test/import-helpers';
import { startSystemUnderTest, type SystemUnderTest } from './support/system-under-test';

// dedup-service, the one service that writes references, runs as its own process (the built
// dist/main.js) and is killed with SIGKILL several times while an import streams into it and its
// decisions are being made. Nothing it acknowledged may be lost or applied twice: every line keeps
// one result, every identifier one owner, every reference a decision and its events.
const DEDUP_SERVICE_MAIN = path.resolve(__dirname, '../../services/dedup-service/dist/main.js');

type Result = { status: string; reference_id: string | null; failure_details: string | null };
type Reference = {
  id: string;
  identifiers: Array<{ identifier: string | number; identifier_type: string; other_identifier_name?: string }>;
  duplicate_decision: { duplicate_determination: string; canonical_reference_id: string | null } | null;
};

const LINES = 1500;
const WORDS = ['anticoagulant', 'thrombosis', 'marrow', 'leukaemia', 'platelet', 'haemolysis', 'transfusion', 'myeloma', 'lymphoma', 'ferritin', 'neutropenia', 'sickle', 'aplastic', 'eculizumab', 'complement', 'coagulation', 'haemophilia', 'stem', 'graft', 'fibrinogen', 'cohort', 'randomised', 'paediatric', 'outcomes'];
const SURNAMES = ['Okafor', 'Lindqvist', 'Moreau', 'Tanaka', 'Haddad', 'Novak', 'Ferreira', 'Kowalski', 'Iyer', 'Brennan', 'Castillo', 'Nakamura', 'Osei', 'Varga', 'Dubois', 'Holm'];

/** A distinct work per k: its own title, authors, year and place, so only its copies match it. */
function work(k: number) {
  const pick = (list: string[], salt: number) => list[(k * 7919 + salt * 104729) % list.length];
  const title = `${pick(WORDS, 1)} ${pick(WORDS, 2)} and ${pick(WORDS, 3)} in ${pick(WORDS, 4)} ${pick(WORDS, 5)}: study ${k} of ${pick(WORDS, 6)}`;
  return {
    source: 'importer',
    visibility: 'public',
    content: {
      enhancement_type: 'bibliographic',
      title,
      authorship: [`${pick(SURNAMES, 7)}, A.`, `${pick(SURNAMES, 8)}, B.`, `${pick(SURNAMES, 9)}, C.`].map((name, index) => ({ display_name: name, position: index === 0 ? 'first' : index === 2 ? 'last' : 'middle' })),
      publication_year: 1990 + (k % 30),
      publication_venue: { display_name: `Journal of ${pick(WORDS, 10)} ${k % 13}` },
      pagination: { volume: String(10 + (k % 40)), issue: String(1 + (k % 12)), first_page: String(100 + k), last_page: String(110 + k) },
    },
  };
}

const doiOf = (k: number) => `10.7777/sigkill.${k}`;
/**
 * Line i (0-based): a new work under a DOI; every 10th from 200 a copy of line i-151's work under
 * an `other` id; every 25th from 300 line i-251 again (odd offsets, so both name a work line).
 */
function lineKind(i: number): { kind: 'work' } | { kind: 'copy'; of: number } | { kind: 'repeat'; of: number } {
  if (i >= 300 && i % 25 === 0) return { kind: 'repeat', of: i - 251 };
  if (i >= 200 && i % 10 === 0) return { kind: 'copy', of: i - 151 };
  return { kind: 'work' };
}
function lineOf(i: number): Record<string, unknown> {
  const kind = lineKind(i);
  if (kind.kind === 'repeat') return lineOf(kind.of);
  if (kind.kind === 'copy') return { identifiers: [{ identifier: `copy-${i}`, identifier_type: 'other', other_identifier_name: 'sigkill-test' }], enhancements: [work(kind.of)] };
  return { identifiers: [{ identifier: doiOf(i), identifier_type: 'doi' }], enhancements: [work(i)] };
}

describe('dedup-service killed with SIGKILL while it ingests and decides an import', () => {
  let system: SystemUnderTest;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let dedupPort: number;
  let dedupService: ChildProcess;
  let observer: Awaited<ReturnType<typeof observeReferenceChanged>>;
  const children: ChildProcess[] = [];
  const url = (route: string) => system.url(route);
  const get = async <T>(route: string): Promise<T> => {
    const response = await fetch(url(route), { headers: system.admin });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  async function startDedupProcess(): Promise<ChildProcess> {
    const child = spawn(process.execPath, [DEDUP_SERVICE_MAIN], {
      env: {
        ...process.env,
        ...system.env,
        GRPC_PORT: String(dedupPort),
        HEALTH_PORT: '0',
        LOG_LEVEL: 'silent',
        // A decision whose job died with the process is queued again after this long (default 2 min),
        // and the lease the killed process held expires after this long (default 15 s).
        DEDUP_PENDING_REQUEUE_MS: '3000',
        DEDUP_WRITER_LEASE_MS: '3000',
      },
      stdio: 'ignore',
    });
    children.push(child);
    // An unknown reference is a 404 only once dedup-service answers behind the gateway.
    await waitFor(async () => (await fetch(url('/references/00000000-0000-7000-8000-000000000000/'), { headers: system.admin })).status === 404, 'dedup-service to serve through the gateway', 30_000);
    return child;
  }

  async function kill(): Promise<void> {
    const exited = new Promise((resolve) => dedupService.once('exit', resolve));
    dedupService.kill('SIGKILL');
    await exited;
  }

  beforeAll(async () => {
    files = await startFileServer();
    dedupPort = await freePort();
    system = await startSystemUnderTest({
      label: 'dedup-sigkill',
      services: ['import-service'],
      external: { 'dedup-service': `127.0.0.1:${dedupPort}` },
      env: { 'import-service': { IMPORT_CHUNK_SIZE: '50' } },
    });
    observer = await observeReferenceChanged(String(system.env.AMQP_NAMESPACE));
    dedupService = await startDedupProcess();
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await observer?.close();
    await system?.stop();
    await files?.stop();
  });

  it('when killed three times mid-import, then every line has one result, every identifier one owner, every reference one decision and its events', async () => {
    const lines = Array.from({ length: LINES }, (_, i) => `${JSON.stringify(lineOf(i))}\n`);
    files.routes.set('/sigkill.jsonl', slowFileRoute(lines).route);
    const record = await (await fetch(url('/imports/records/'), system.bearer('POST', { processor_name: 'sigkill', processor_version: '1', expected_reference_count: -1, source_name: 'e2e' }))).json() as { id: string };
    const registered = await fetch(url(`/imports/records/${record.id}/batches/`), system.bearer('POST', { storage_url: `${files.base}/sigkill.jsonl` }));
    expect(registered.status).toBe(202);
    const batchId = ((await registered.json()) as { id: string }).id;
    const summary = () => get<ImportBatchSummary>(`/imports/records/${record.id}/batches/${batchId}/summary/`);
    const recorded = async () => {
      const results = (await summary()).results;
      return results.completed + results.failed + results.partially_failed;
    };

    // Killed while chunks are being ingested, then once more right after the last line is
    // recorded, while its decisions are still being made.
    for (const after of [150, 600, 1100]) {
      await waitFor(async () => (await recorded()) >= after, `${after} lines recorded`, 60_000);
      await kill();
      dedupService = await startDedupProcess();
    }
    const done = await waitFor(async () => {
      const current = await summary();
      return ['completed', 'partially_failed', 'failed'].includes(current.import_batch_status) && current;
    }, 'the batch to finish', 120_000);
    await kill();
    dedupService = await startDedupProcess();

    const repeats = Array.from({ length: LINES }, (_, i) => i).filter((i) => lineKind(i).kind === 'repeat');
    expect(done).toMatchObject({ import_batch_status: 'partially_failed', results: { created: 0, started: 0, completed: LINES - repeats.length, partially_failed: 0, failed: repeats.length, retrying: 0 } });
    const results = await get<Result[]>(`/imports/records/${record.id}/batches/${batchId}/results/`);
    expect(results).toHaveLength(LINES);
    const referenceOfLine = new Map<number, string>();
    for (const [i, row] of results.entries()) {
      const kind = lineKind(i);
      if (kind.kind === 'repeat') {
        expect(row).toMatchObject({ status: 'failed', reference_id: null });
        expect(row.failure_details).toBe(`Entry ${i + 1}:\n\nIdentifier(s) are already mapped on an existing reference:\nidentifier_type=doi, identifier=${doiOf(kind.of)}`);
      } else {
        expect(row).toMatchObject({ status: 'completed', failure_details: null });
        referenceOfLine.set(i, row.reference_id as string);
      }
    }
    // One reference per accepted line: a chunk retried after a kill reused what its first attempt stored.
    expect(new Set(referenceOfLine.values()).size).toBe(referenceOfLine.size);
    const mongo = await MongoClient.connect(String(system.env.MONGODB_URL));
    try {
      const stored = await mongo.db('destiny_dedup').collection('references').countDocuments({ 'identifiers.identifier': { $regex: '^(10\\.7777/sigkill\\.|copy-)' } });
      expect(stored).toBe(referenceOfLine.size);
    } finally {
      await mongo.close();
    }

    // Every DOI has one owner, the line's reference; every reference ends with a decision, and a
    // copy is the duplicate of the work it copies.
    const works = [...referenceOfLine.keys()].filter((i) => lineKind(i).kind === 'work');
    for (let start = 0; start < works.length; start += 100) {
      const slice = works.slice(start, start + 100);
      const found = await get<Reference[]>(`/references/?identifier=${encodeURIComponent(slice.map((i) => `doi:${doiOf(i)}`).join(','))}`);
      expect(found.map((reference) => reference.id).sort()).toEqual(slice.map((i) => referenceOfLine.get(i)).sort());
    }
    const decisionOf = (id: string) => waitFor(async () => (await get<Reference>(`/references/${id}/`)).duplicate_decision, `a decision for ${id}`, 60_000);
    for (const [i, id] of referenceOfLine) {
      const kind = lineKind(i);
      const expected = kind.kind === 'copy' ? { duplicate_determination: 'duplicate', canonical_reference_id: referenceOfLine.get(kind.of) } : { duplicate_determination: 'canonical', canonical_reference_id: null };
      expect({ line: i, decision: await decisionOf(id) }).toEqual({ line: i, decision: expected });
    }

    // Each reference's decision reached the bus at least once (a kill may send an event twice, never drop it).
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
  }, 300_000);
});
