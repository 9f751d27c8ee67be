import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { ImportBatchSummary } from '@destiny/contracts';
import { freePort, waitFor } from '@destiny/devstack/testing';
import { slowFileRoute, startFileServer } from '../../services/import-service/test/import-helpers';
import { abstract, doi, expectMixedFileResults, MIXED_FILE_STRATEGIES, mixedFile, seedFile } from '../../services/import-service/test/mixed-import-file';
import { startSystemUnderTest, type SystemUnderTest } from './support/system-under-test';

// Imports end to end through the gateway with bearer tokens: import-service runs as its own
// process (the built dist/main.js), so it can be killed mid-file and started again, behind the
// gateway and in front of dedup-service on the stand-ins and RabbitMQ.
const IMPORT_SERVICE_MAIN = path.resolve(__dirname, '../../services/import-service/dist/main.js');

type Result = { status: string; reference_id: string | null; failure_details: string | null };
type Reference = {
  id: string;
  identifiers: Array<{ identifier: string | number; identifier_type: string }>;
  enhancements: Array<{ reference_id: string; content: { abstract?: string } }>;
  duplicate_decision: { duplicate_determination: string; canonical_reference_id: string | null } | null;
};

describe('imports through the gateway with import-service as its own process', () => {
  let system: SystemUnderTest;
  let files: Awaited<ReturnType<typeof startFileServer>>;
  let importPort: number;
  let importService: ChildProcess;
  const children: ChildProcess[] = [];
  const url = (route: string) => system.url(route);
  const get = async <T>(route: string): Promise<T> => {
    const response = await fetch(url(route), { headers: system.admin });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };

  async function startImportProcess(): Promise<ChildProcess> {
    const child = spawn(process.execPath, [IMPORT_SERVICE_MAIN], {
      env: {
        ...process.env,
        ...system.env,
        GRPC_PORT: String(importPort),
        HEALTH_PORT: '0',
        LOG_LEVEL: 'silent',
        // Only the test's own file server is reachable; every other private address stays refused.
        OUTBOUND_ALLOWLIST: '127.0.0.1/32',
        IMPORT_CHUNK_SIZE: '50',
        IMPORT_RETRY_BASE_MS: '20',
        IMPORT_MAX_FILE_BYTES: '1000000',
        IMPORT_MAX_LINE_BYTES: '5000',
      },
      stdio: 'ignore',
    });
    children.push(child);
    await waitFor(async () => (await fetch(url('/imports/records/?limit=1'), { headers: system.admin })).status === 200, 'import-service to serve through the gateway', 30_000);
    return child;
  }

  beforeAll(async () => {
    files = await startFileServer();
    importPort = await freePort();
    system = await startSystemUnderTest({ label: 'gateway-import-batches', services: ['dedup-service'], external: { 'import-service': `127.0.0.1:${importPort}` } });
    importService = await startImportProcess();
  });

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await system?.stop();
    await files?.stop();
  });

  const createRecord = async (): Promise<string> => {
    const response = await fetch(url('/imports/records/'), system.bearer('POST', { processor_name: 'gateway-batches', processor_version: '1', expected_reference_count: -1, source_name: 'e2e' }));
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const register = (recordId: string, body: Record<string, unknown>) => fetch(url(`/imports/records/${recordId}/batches/`), system.bearer('POST', body));
  const registered = async (recordId: string, body: Record<string, unknown>): Promise<string> => {
    const response = await register(recordId, body);
    expect(response.status).toBe(202);
    return ((await response.json()) as { id: string }).id;
  };
  const summaryOf = (recordId: string, batchId: string) => get<ImportBatchSummary>(`/imports/records/${recordId}/batches/${batchId}/summary/`);
  const finished = (recordId: string, batchId: string) =>
    waitFor(async () => {
      const summary = await summaryOf(recordId, batchId);
      return ['completed', 'failed', 'partially_failed'].includes(summary.import_batch_status) && summary;
    }, `batch ${batchId} to finish`, 60_000);
  const results = (recordId: string, batchId: string) => get<Result[]>(`/imports/records/${recordId}/batches/${batchId}/results/`);

  const seeds = new Map<number, string>();

  it('when a request carries no bearer token, then 401 with the contract detail', async () => {
    const response = await fetch(url('/imports/records/'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ processor_name: 'x', processor_version: '1', source_name: 's' }) });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ detail: 'Authorization HTTPBearer header missing.' });
  });

  it('when the seed file is imported, then every line completes', async () => {
    const recordId = await createRecord();
    const batchId = await registered(recordId, { storage_url: files.serve('/seed.jsonl', seedFile()) });
    expect(await finished(recordId, batchId)).toMatchObject({ import_batch_status: 'completed', results: { completed: 100 } });
    for (const [k, row] of (await results(recordId, batchId)).entries()) seeds.set(k, row.reference_id as string);
    expect(new Set(seeds.values()).size).toBe(100);
  });

  it.each(MIXED_FILE_STRATEGIES)('when a 1,000-line file of good, malformed and colliding lines is imported with %s, then results, wording and the summary follow the contract', async (strategy) => {
    const recordId = await createRecord();
    const batchId = await registered(recordId, { storage_url: files.serve(`/mixed-${strategy}.jsonl`, mixedFile(strategy)), collision_strategy: strategy });
    const summary = await finished(recordId, batchId);
    expectMixedFileResults(strategy, summary, await results(recordId, batchId), (k) => seeds.get(k));
    const partial = await get<Result[]>(`/imports/records/${recordId}/batches/${batchId}/results/?result_status=partially_failed`);
    expect(partial).toHaveLength(100);
  });

  it('when the merges have run, then aggressive superseded the seed\'s abstract, append added beside it and defensive left it', async () => {
    const seed = await get<Reference>(`/references/${seeds.get(1)}/`);
    expect(seed.enhancements.map((enhancement) => enhancement.content.abstract)).toEqual(['merged from merge_aggressive', 'merged from append']);
    expect(seed.identifiers).toEqual([{ identifier: '10.5555/seed.1', identifier_type: 'doi' }]);
  });

  it('when a line names an identifier it collides on more than once (repeated, or in another spelling of the same DOI), then the fail details list it once', async () => {
    const recordId = await createRecord();
    const repeated = [doi('10.5555/gateway-repeat.1'), doi('10.5555/gateway-repeat.1'), doi('https://doi.org/10.5555/gateway-repeat.1'), { identifier: 4711, identifier_type: 'pm_id' }];
    const file = [{ identifiers: [doi('10.5555/gateway-repeat.1')] }, { identifiers: repeated }].map((line) => JSON.stringify(line)).join('\n');
    const summary = await finished(recordId, await registered(recordId, { storage_url: files.serve('/repeated-identifier.jsonl', file) }));
    expect(summary.failure_details).toEqual(['Entry 2:\n\nIdentifier(s) are already mapped on an existing reference:\nidentifier_type=doi, identifier=10.5555/gateway-repeat.1']);
  });

  it('when overwrite is asked for, then 422 says why and no batch is registered', async () => {
    const recordId = await createRecord();
    const response = await register(recordId, { storage_url: files.serve('/overwrite.jsonl', seedFile()), collision_strategy: 'overwrite' });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ detail: 'overwrite is not supported: the store is append-only.' });
    expect(await get<unknown[]>(`/imports/records/${recordId}/batches/`)).toEqual([]);
  });

  it('when the callback receiver fails twice, then the summary arrives on the third attempt and only once', async () => {
    const recordId = await createRecord();
    const calls: string[] = [];
    files.routes.set('/callback', (_request, response, body) => {
      calls.push(body);
      response.statusCode = calls.length <= 2 ? 503 : 204;
      response.end();
    });
    const batchId = await registered(recordId, { storage_url: files.serve('/callback.jsonl', JSON.stringify({ identifiers: [doi('10.5555/gateway-callback.1')] })), callback_url: `${files.base}/callback` });
    await waitFor(() => calls.length >= 3, 'three callback attempts');
    expect(JSON.parse(calls[2])).toEqual(await summaryOf(recordId, batchId));
    expect(JSON.parse(calls[2])).toMatchObject({ import_batch_id: batchId, import_batch_status: 'completed', results: { completed: 1 }, failure_details: [] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(calls).toHaveLength(3);
  });

  it('when storage or callback URLs aim at loopback, private ranges or the metadata address, then registration is refused saying why', async () => {
    const recordId = await createRecord();
    const port = new URL(files.base).port;
    const targets = [`http://127.0.0.2:${port}/seed.jsonl`, 'https://10.1.2.3/file.jsonl', 'https://192.168.10.20/file.jsonl', 'https://172.16.0.5/file.jsonl', 'https://169.254.169.254/latest/meta-data/', 'https://[::1]/file.jsonl', 'http://0.0.0.0/file.jsonl'];
    for (const target of targets) {
      const response = await register(recordId, { storage_url: target });
      expect({ target, status: response.status }).toEqual({ target, status: 422 });
      expect(((await response.json()) as { detail: string }).detail).toMatch(/^storage_url is not allowed: /);
    }
    const callback = await register(recordId, { storage_url: files.serve('/ssrf-callback.jsonl', seedFile()), callback_url: 'http://169.254.169.254/latest/meta-data/' });
    expect(callback.status).toBe(422);
    expect(((await callback.json()) as { detail: string }).detail).toMatch(/^callback_url is not allowed: /);
    expect(await get<unknown[]>(`/imports/records/${recordId}/batches/`)).toEqual([]);
  });

  it('when the file redirects (here to the metadata address), then the batch fails without following it', async () => {
    const recordId = await createRecord();
    files.routes.set('/redirect.jsonl', (_request, response) => {
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      response.end();
    });
    const summary = await finished(recordId, await registered(recordId, { storage_url: `${files.base}/redirect.jsonl` }));
    expect(summary.import_batch_status).toBe('failed');
    expect(summary.failure_details?.[0]).toMatch(/^The file at storage_url could not be fetched: redirects are not followed \(got 302/);
  });

  it('when a line or the whole file is over its limit, then the line fails and the file fails its batch, each saying which limit', async () => {
    const recordId = await createRecord();
    const long = JSON.stringify({ identifiers: [doi('10.5555/gateway-long.1')], enhancements: [abstract('x'.repeat(6000))] });
    const lines = await finished(recordId, await registered(recordId, { storage_url: files.serve('/long-line.jsonl', `${JSON.stringify({ identifiers: [doi('10.5555/gateway-long.0')] })}\n${long}\n`) }));
    expect(lines).toMatchObject({ import_batch_status: 'partially_failed', results: { completed: 1, failed: 1 }, failure_details: ['Entry 2:\n\nLine exceeds the maximum line length of 5000 bytes.'] });
    const huge = Array.from({ length: 400 }, (_, i) => JSON.stringify({ identifiers: [doi(`10.5555/gateway-huge.${i}`)], enhancements: [abstract('y'.repeat(3000))] })).join('\n');
    const file = await finished(recordId, await registered(recordId, { storage_url: files.serve('/huge.jsonl', huge) }));
    expect(file.import_batch_status).toBe('failed');
    expect(file.failure_details).toEqual(['The file at storage_url is larger than the limit of 1000000 bytes.']);
  });

  /** One line of exactly `bytes` bytes (the process's line limit is 5000). */
  const lineOf = (bytes: number, identifier: string) => {
    const empty = JSON.stringify({ identifiers: [doi(identifier)], enhancements: [abstract('')] });
    return JSON.stringify({ identifiers: [doi(identifier)], enhancements: [abstract('x'.repeat(bytes - Buffer.byteLength(empty)))] });
  };

  it('when the file opens with a byte-order mark and its first line is exactly at the line limit, then that line completes', async () => {
    const recordId = await createRecord();
    const file = `\ufeff${lineOf(5000, '10.5555/gateway-bom-limit.1')}\n${lineOf(5001, '10.5555/gateway-bom-limit.2')}\n`;
    const summary = await finished(recordId, await registered(recordId, { storage_url: files.serve('/bom-limit.jsonl', file) }));
    expect(summary).toMatchObject({ results: { completed: 1, failed: 1 }, failure_details: ['Entry 2:\n\nLine exceeds the maximum line length of 5000 bytes.'] });
  });

  it('when a whitespace-only line is longer than the line limit, then it is blank: it has no result and the lines after it keep their numbers', async () => {
    const recordId = await createRecord();
    const file = `${JSON.stringify({ identifiers: [doi('10.5555/gateway-long-blank.1')] })}\n${' \t'.repeat(3000)}\nnot json\n`;
    const batchId = await registered(recordId, { storage_url: files.serve('/long-blank.jsonl', file) });
    expect(await finished(recordId, batchId)).toMatchObject({ results: { completed: 1, failed: 1 }, failure_details: [expect.stringMatching(/^Entry 3:\n\nInvalid JSON/)] });
    expect(await results(recordId, batchId)).toHaveLength(2);
  });

  it('when import-service is killed mid-file and started again, then the batch completes with every line processed exactly once', async () => {
    const lines = Array.from({ length: 600 }, (_, i) => `${JSON.stringify({ identifiers: [doi(`10.5555/gateway-kill.${i}`)] })}\n`);
    const slow = slowFileRoute(lines);
    files.routes.set('/slow-kill.jsonl', slow.route);
    const recordId = await createRecord();
    const batchId = await registered(recordId, { storage_url: `${files.base}/slow-kill.jsonl` });
    await waitFor(async () => (await results(recordId, batchId)).length >= 100, 'the first chunks recorded');
    importService.kill('SIGKILL');
    await new Promise((resolve) => importService.once('exit', resolve));
    importService = await startImportProcess();

    const summary = await finished(recordId, batchId);
    expect(slow.requests()).toBe(2);
    expect(summary).toMatchObject({ import_batch_status: 'completed', results: { created: 0, started: 0, completed: 600, partially_failed: 0, failed: 0, retrying: 0 } });
    const all = await results(recordId, batchId);
    expect(all).toHaveLength(600);
    expect(new Set(all.map((row) => row.reference_id)).size).toBe(600);
    const found = await get<Reference[]>(`/references/?identifier=${encodeURIComponent('doi:10.5555/gateway-kill.0,doi:10.5555/gateway-kill.599')}`);
    expect(found).toHaveLength(2);
  });

  it('when two records of one work arrive under different identifiers, then one is a duplicate of the other, the lookup folds them, and a person can separate and regroup them', async () => {
    const work = (identifier: Record<string, unknown>, text: string) => ({
      identifiers: [identifier],
      enhancements: [
        {
          source: 'importer',
          visibility: 'public',
          content: {
            enhancement_type: 'bibliographic',
            title: 'Eculizumab for atypical haemolytic uraemic syndrome in adults: a prospective multicentre cohort',
            authorship: [{ display_name: 'Legendre, C.', position: 'first' }, { display_name: 'Licht, C.', position: 'last' }],
            publication_year: 2013,
            publication_venue: { display_name: 'New England Journal of Medicine' },
            pagination: { volume: '368', issue: '23', first_page: '2169', last_page: '2181' },
          },
        },
        abstract(text),
      ],
    });
    const other = { identifiers: [doi('10.5555/gateway-dedup.other')], enhancements: [abstract('a different work')] };
    const recordId = await createRecord();
    const file = [work(doi('10.5555/gateway-dedup.1'), 'from the journal'), work({ identifier: 88001, identifier_type: 'pm_id' }, 'from PubMed'), other].map((line) => JSON.stringify(line)).join('\n');
    const batchId = await registered(recordId, { storage_url: files.serve('/dedup.jsonl', file) });
    expect(await finished(recordId, batchId)).toMatchObject({ import_batch_status: 'completed' });
    const [journalId, pubmedId, otherId] = (await results(recordId, batchId)).map((row) => row.reference_id as string);
    const decided = (id: string) => waitFor(async () => (await get<Reference>(`/references/${id}/`)).duplicate_decision, `a decision for ${id}`);
    expect(await decided(journalId)).toEqual({ duplicate_determination: 'canonical', canonical_reference_id: null });
    expect(await decided(pubmedId)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: journalId });
    expect(await decided(otherId)).toEqual({ duplicate_determination: 'canonical', canonical_reference_id: null });

    // GET is the reference as stored; the lookup of the duplicate's identifier is its canonical's deduplicated view (§6.9).
    const stored = await get<Reference>(`/references/${pubmedId}/`);
    expect(stored.identifiers).toEqual([{ identifier: 88001, identifier_type: 'pm_id' }]);
    const [folded] = await get<Reference[]>('/references/?identifier=pm_id:88001');
    expect(folded.id).toBe(journalId);
    expect(folded.identifiers).toEqual([{ identifier: '10.5555/gateway-dedup.1', identifier_type: 'doi' }, { identifier: 88001, identifier_type: 'pm_id' }]);
    expect(folded.enhancements.filter((enhancement) => enhancement.content.abstract).map((enhancement) => [enhancement.reference_id, enhancement.content.abstract])).toEqual([
      [journalId, 'from the journal'],
      [pubmedId, 'from PubMed'],
    ]);

    const decide = (decisions: unknown[]) => fetch(url('/references/duplicate-decisions/'), system.bearer('POST', decisions));
    const separated = await decide([{ reference_id: pubmedId, duplicate_determination: 'canonical' }]);
    expect(separated.status).toBe(201);
    expect(await separated.json()).toEqual([expect.objectContaining({ reference_id: pubmedId, outcome: 'canonical', active_decision: true, decision_authority: 'person', decision_trigger: 'manual_api' })]);
    expect((await get<Reference[]>('/references/?identifier=pm_id:88001')).map((reference) => reference.id)).toEqual([pubmedId]);
    expect((await get<Reference[]>('/references/?identifier=doi:10.5555/gateway-dedup.1'))[0].identifiers).toHaveLength(1);

    const grouped = await decide([{ reference_id: otherId, duplicate_determination: 'duplicate', canonical_reference_id: journalId }]);
    expect(grouped.status).toBe(201);
    const refused = await decide([{ reference_id: pubmedId, duplicate_determination: 'duplicate', canonical_reference_id: otherId }]);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/^Cannot mark as duplicate of a non-canonical reference/);
    const [regrouped] = await get<Reference[]>('/references/?identifier=doi:10.5555/gateway-dedup.other');
    expect(regrouped.id).toBe(journalId);
    expect(regrouped.identifiers.map((identifier) => identifier.identifier)).toEqual(['10.5555/gateway-dedup.1', '10.5555/gateway-dedup.other']);
  });
});
