import { uuidv7, type ReferenceChangedEvent } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { MongoClient, type Db } from 'mongodb';
import { COLLECTIONS } from '../src/data-access/collections';
import type { ReferenceDocument } from '../src/domain/reference.model';
import { startDedupService } from '../src/index';
import { bibliographic, call, dedupClient, observeReferenceChanged, startInfrastructure, waitFor, type DedupClient } from './dedup-helpers';

interface Outcome {
  line_number: number;
  status: string;
  reference_id: string;
  failure_details: string;
}

const WORKS = 24;
const SUBJECTS = ['asthma', 'stroke', 'malaria', 'obesity', 'glaucoma', 'psoriasis', 'anaemia', 'migraine', 'sepsis', 'scabies', 'rickets', 'gout'];
const METHODS = ['cohort study', 'randomised trial', 'case series', 'qualitative interviews'];
const SURNAMES = ['Okafor', 'Lindqvist', 'Haddad', 'Tanaka', 'Moreau', 'Kowalski', 'Ferreira', 'Nakamura', 'Osei', 'Petrov', 'Quispe', 'Ruiz'];

/** Work n: a DOI and a bibliographic record distinct from every other work's. */
function work(n: number, identifiers: Array<{ identifier: string | number; identifier_type: string }> = [{ identifier: `10.7000/work.${n}`, identifier_type: 'doi' }]) {
  const title = `${METHODS[n % METHODS.length]} of ${SUBJECTS[n % SUBJECTS.length]} care in ${SURNAMES[(n * 5) % SURNAMES.length]} county, part ${n}`;
  const authors = [`${SURNAMES[n % SURNAMES.length]} A`, `${SURNAMES[(n + 7) % SURNAMES.length]} B`];
  return { visibility: 'public', identifiers, enhancements: [bibliographic(title, authors, 1990 + n, `Journal ${SUBJECTS[(n + 3) % SUBJECTS.length]}`, { pagination: { volume: String(n), first_page: '1', last_page: '9' } })] };
}

describe('two dedup-service replicas on one MongoDB and one broker', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let replicas: RunningBackendService[];
  let clients: DedupClient[];
  let observer: Awaited<ReturnType<typeof observeReferenceChanged>>;
  let mongo: MongoClient;
  let db: Db;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-replicas');
    observer = await observeReferenceChanged(infrastructure.env.AMQP_NAMESPACE);
    replicas = await Promise.all([0, 1].map(() => startDedupService({ ...infrastructure.env, DEDUP_WRITER_LEASE_MS: '3000' })));
    clients = replicas.map((replica) => dedupClient(replica.grpcPort));
    mongo = await MongoClient.connect(infrastructure.env.MONGODB_URL);
    db = mongo.db('destiny_dedup');
  });

  afterAll(async () => {
    for (const client of clients ?? []) client.close();
    await observer?.close();
    await Promise.all((replicas ?? []).map((replica) => replica.stop()));
    await mongo?.close();
    await infrastructure?.stop();
  });

  let line = 0;
  async function ingest(client: DedupClient, references: unknown[]): Promise<Outcome[]> {
    const lines = references.map((reference) => ({ line_number: ++line, reference_json: JSON.stringify(reference), import_result_id: uuidv7() }));
    return (await call<{ outcomes: Outcome[] }>(client, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: 'fail', lines })).outcomes;
  }
  /** Chunks of three lines, every chunk its own call, alternating between the replicas, all at once. */
  const ingestAcrossReplicas = async (references: unknown[], firstReplica = 0) => {
    const chunks = Array.from({ length: Math.ceil(references.length / 3) }, (_, index) => references.slice(index * 3, index * 3 + 3));
    return (await Promise.all(chunks.map((chunk, index) => ingest(clients[(index + firstReplica) % 2], chunk)))).flat();
  };
  const references = () => db.collection<ReferenceDocument>(COLLECTIONS.references).find({}, { projection: { _outbox: 0 } }).toArray();
  const settled = () =>
    waitFor(async () => {
      const pending = await db.collection(COLLECTIONS.duplicateDecisions).countDocuments({ duplicate_determination: 'pending' });
      const outboxes = await db.collection(COLLECTIONS.references).countDocuments({ outbox_pending: true });
      const rows = await references();
      const published = rows.every((row) => observer.events.some((event) => event.reference_id === row._id && event.version === row.version));
      return pending === 0 && outboxes === 0 && published && rows;
    }, 'every decision made and every event published');

  it('when both replicas import the same DOIs, decide and group duplicates concurrently, then identifiers have one owner, every reference is decided once and no event is lost or published twice', async () => {
    // Wave 1: every work once, and every third work a second time through the other replica with an
    // abstract: whichever comes second collides and fails under the default strategy.
    const secondCopy = (n: number) => {
      const copy = work(n);
      return { ...copy, enhancements: [...copy.enhancements, { source: 'importer', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: `Second copy of work ${n}.` } }] };
    };
    const firstWave = await Promise.all([ingestAcrossReplicas(Array.from({ length: WORKS }, (_, n) => work(n))), ingestAcrossReplicas(Array.from({ length: WORKS / 3 }, (_, k) => secondCopy(k * 3)), 1)]);
    const outcomes = firstWave.flat();
    const stored = new Set((await settled()).map((row) => row._id));
    expect(stored.size).toBe(WORKS);
    expect(outcomes.filter((outcome) => outcome.status === 'completed' && stored.has(outcome.reference_id))).toHaveLength(WORKS);
    expect(outcomes.filter((outcome) => outcome.status === 'failed' || !stored.has(outcome.reference_id))).toHaveLength(WORKS / 3);

    // Wave 2: one duplicate per work, through both replicas: a case variant of the DOI (trusted
    // shortcut) for even works, the same record under a PubMed id (engine) for odd ones.
    const duplicates = Array.from({ length: WORKS }, (_, n) => (n % 2 === 0 ? work(n, [{ identifier: `10.7000/WORK.${n}`, identifier_type: 'doi' }]) : work(n, [{ identifier: 900_000 + n, identifier_type: 'pm_id' }])));
    const secondWave = await ingestAcrossReplicas(duplicates);
    expect(secondWave.filter((outcome) => outcome.status === 'completed')).toHaveLength(WORKS);
    const rows = await settled();

    // One owner per identifier: no two stored references carry the same identifier, and every
    // claim names the reference that carries it.
    expect(rows).toHaveLength(WORKS * 2);
    const carriers = new Map<string, string[]>();
    for (const row of rows) {
      for (const identifier of row.identifiers) {
        const key = `${identifier.identifier_type}:${String(identifier.identifier)}`;
        carriers.set(key, [...(carriers.get(key) ?? []), row._id]);
      }
    }
    expect([...carriers.values()].filter((owners) => owners.length > 1)).toEqual([]);
    const claims = await db.collection<{ _id: string; reference_id: string }>(COLLECTIONS.identifiers).find({}).toArray();
    const ids = new Set(rows.map((row) => row._id));
    expect(claims.filter((claim) => !ids.has(claim.reference_id))).toEqual([]);

    // Decided once: one decision per reference, the active one; the duplicates grouped under their
    // work.
    const decisions = (await db.collection<{ _id: string; reference_id: string; duplicate_determination: string }>(COLLECTIONS.duplicateDecisions).find({}).toArray()).filter((decision) => ids.has(decision.reference_id));
    expect(decisions).toHaveLength(rows.length);
    for (const row of rows) expect(decisions.filter((decision) => decision.reference_id === row._id).map((decision) => decision._id)).toEqual([row.active_decision?.decision_id]);
    const canonicals = rows.filter((row) => row.active_decision?.duplicate_determination === 'canonical');
    const duplicateRows = rows.filter((row) => row.active_decision?.duplicate_determination === 'duplicate');
    expect([canonicals.length, duplicateRows.length]).toEqual([WORKS, WORKS]);

    // No lost event: every version of every reference was published (from 1, its import), each
    // decision event names its decision, and a canonical's group event names the duplicate's decision.
    const eventsOf = (id: string) => observer.events.filter((event) => event.reference_id === id);
    for (const row of rows) {
      expect([...new Set(eventsOf(row._id).map((event) => event.version))].sort((a, b) => a - b)).toEqual(Array.from({ length: row.version }, (_, index) => index + 1));
      const decisionEvents = eventsOf(row._id).filter((event) => event.kind === 'duplicate_decision_changed');
      expect(eventsOf(row._id).find((event) => event.version === 1)?.kind).toBe('imported');
      expect(decisionEvents[0]).toMatchObject({ version: 2, duplicate_decision_id: row.active_decision?.decision_id });
    }
    // Each event once: the replicas' relays take turns under one lease instead of both reading every waiting outbox.
    const copies = new Map<string, number>();
    for (const event of observer.events) copies.set(event.event_id, (copies.get(event.event_id) ?? 0) + 1);
    expect([...copies].filter(([, count]) => count > 1)).toEqual([]);
    for (const duplicate of duplicateRows) {
      const canonicalId = duplicate.active_decision?.canonical_reference_id as string;
      const groupEvent = eventsOf(canonicalId).find((event: ReferenceChangedEvent) => event.duplicate_decision_id === duplicate.active_decision?.decision_id);
      expect(groupEvent?.changeset.duplicate_determination).toBe('duplicate');
      expect(groupEvent?.reference.identifiers).toEqual(expect.arrayContaining(duplicate.identifiers.map((identifier) => expect.objectContaining({ identifier_type: identifier.identifier_type }))));
    }
  });
});
