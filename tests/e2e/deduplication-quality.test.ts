import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { labelledLineToView, scoreAgainstKey, type DuplicateDetermination } from '../../services/dedup-service/src/domain/deduplication';
import { loadHaematologySample } from '../../services/dedup-service/src/domain/deduplication/labelled-sample.fixture';
import { startSystemUnderTest, type SystemUnderTest } from './support/system-under-test';

// The quality bar of deduplication, measured on the service rather than the engine alone: the
// hand-labelled haematology sample imported through the gateway as a file (one `other`
// identifier and a bibliographic enhancement per line, never the gold group), decided by
// dedup-service, read back through the gateway and scored against the key.

interface ReferenceRead {
  id: string;
  identifiers: Array<{ identifier_type: string; identifier: string; other_identifier_name?: string }>;
  duplicate_decision: { duplicate_determination: string; canonical_reference_id: string | null } | null;
}

const TERMINAL = new Set(['completed', 'failed', 'partially_failed']);

describe('deduplication quality through the API', () => {
  const { lines, groupOf } = loadHaematologySample();
  let system: SystemUnderTest;
  let files: http.Server;

  beforeAll(async () => {
    const body = lines.map((line) => {
      const view = labelledLineToView(line);
      return JSON.stringify({ visibility: 'public', identifiers: view.identifiers, enhancements: view.enhancements });
    });
    files = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/x-ndjson' }).end(body.join('\n')));
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', () => resolve()));
    system = await startSystemUnderTest({ label: 'dedup-quality', services: ['dedup-service', 'import-service'], env: { 'import-service': { OUTBOUND_ALLOWLIST: '127.0.0.0/8' } } });
  });

  afterAll(async () => {
    await system?.stop();
    await new Promise<void>((resolve) => (files ? files.close(() => resolve()) : resolve()));
  });

  it('when the labelled sample is imported through the gateway, then no two different works are merged and recall holds the engine floor', async () => {
    const record = (await (await fetch(system.url('/imports/records/'), system.bearer('POST', { processor_name: 'dedup-quality', processor_version: '1', expected_reference_count: lines.length, source_name: 'haematology' }))).json()) as { id: string };
    const filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
    const registered = await fetch(system.url(`/imports/records/${record.id}/batches/`), system.bearer('POST', { storage_url: `${filesUrl}/haematology.jsonl` }));
    expect(registered.status).toBe(202);
    const batch = (await registered.json()) as { id: string };
    const batchUrl = system.url(`/imports/records/${record.id}/batches/${batch.id}/`);
    let status = '';
    for (let attempt = 0; attempt < 1200 && !TERMINAL.has(status); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = ((await (await fetch(batchUrl, { headers: system.admin })).json()) as { status: string }).status;
    }
    expect(status).toBe('completed');
    const results = (await (await fetch(`${batchUrl}results/`, { headers: system.admin })).json()) as Array<{ reference_id: string }>;
    expect(results).toHaveLength(lines.length);

    // Read every reference until all are decided (decisions follow the import asynchronously).
    const references = new Map<string, ReferenceRead>();
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const undecided = results.map((result) => result.reference_id).filter((id) => !references.get(id)?.duplicate_decision);
      if (undecided.length === 0) break;
      for (let start = 0; start < undecided.length; start += 32) {
        const reads = await Promise.all(undecided.slice(start, start + 32).map(async (id) => (await (await fetch(system.url(`/references/${id}/`), { headers: system.admin })).json()) as ReferenceRead));
        for (const read of reads) references.set(read.id, read);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }

    const recordIdOf = new Map<string, string>();
    for (const reference of references.values()) {
      const own = reference.identifiers.find((identifier) => identifier.other_identifier_name === 'benchmark_record_id');
      if (own) recordIdOf.set(reference.id, own.identifier);
    }
    expect(recordIdOf.size).toBe(lines.length);
    const decisions = new Map<string, DuplicateDetermination>();
    for (const reference of references.values()) {
      const decision = reference.duplicate_decision;
      expect(decision).not.toBeNull();
      const canonical = decision?.canonical_reference_id ?? null;
      decisions.set(recordIdOf.get(reference.id) as string, {
        determination: decision?.duplicate_determination as DuplicateDetermination['determination'],
        canonicalId: canonical === null ? null : (recordIdOf.get(canonical) ?? canonical),
        candidateIds: [],
        detail: '',
      });
    }
    const score = scoreAgainstKey(decisions, groupOf);
    expect(score.falseMerges).toEqual([]);
    expect(score.precision).toBe(1);
    // The engine's file-order floor (haematology.test.ts): the service decides the file in order.
    expect(score.recall).toBeGreaterThanOrEqual(0.948);
  });
});
