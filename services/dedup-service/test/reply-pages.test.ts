import { uuidv7 } from '@destiny/contracts';
import type { RunningBackendService } from '@destiny/platform';
import { startDedupService } from '../src/index';
import { call, dedupClient, startInfrastructure, waitFor, type DedupClient } from './dedup-helpers';

// A lookup names up to 100 references of up to 16 MiB each, a robot's batch up to 10,000, and the view
// stream sends hundreds per page: more than one gRPC reply or message can carry. Each is answered up
// to a page budget (DEDUP_REPLY_PAGE_BYTES, here 2,000 bytes); the rest is named by id to be asked for
// again, or sent in the next message.

interface Page {
  json: string[];
  remaining_ids: string[];
}

describe('replies of dedup-service in pages', () => {
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>>;
  let service: RunningBackendService;
  let client: DedupClient;

  beforeAll(async () => {
    infrastructure = await startInfrastructure('dedup-lookup-pages');
    service = await startDedupService({ ...infrastructure.env, DEDUP_REPLY_PAGE_BYTES: '2000' });
    client = dedupClient(service.grpcPort);
  });

  afterAll(async () => {
    client?.close();
    await service?.stop();
    await infrastructure?.stop();
  });

  const doi = (index: number) => `10.1000/paged-lookup.${index}`;
  const abstract = (index: number) => ({ source: 'importer', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: `${index}`.repeat(900) } });
  const decided = async (id: string) => (JSON.parse((await call<{ json: string }>(client, 'GetReference', { id })).json) as { duplicate_decision: unknown }).duplicate_decision;

  it('when the looked-up views outgrow the page budget, then each page stops at the budget and names the rest by id, and looking those up gives the rest without gaps or repeats', async () => {
    const lines = [0, 1, 2, 3, 4].map((index) => ({ line_number: index + 1, import_result_id: uuidv7(), reference_json: JSON.stringify({ identifiers: [{ identifier: doi(index), identifier_type: 'doi' }], enhancements: [abstract(index)] }) }));
    const { outcomes } = await call<{ outcomes: Array<{ reference_id: string }> }>(client, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: 'fail', lines });
    for (const outcome of outcomes) await waitFor(() => decided(outcome.reference_id), `a decision for ${outcome.reference_id}`);

    const pages: Page[] = [await call<Page>(client, 'LookupReferences', { identifiers: [0, 1, 2, 3, 4].map((index) => `doi:${doi(index)}`) })];
    while (pages.at(-1)!.remaining_ids.length > 0) pages.push(await call<Page>(client, 'LookupReferences', { identifiers: pages.at(-1)!.remaining_ids }));

    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages.slice(0, -1)) expect(page.json.reduce((bytes, text) => bytes + text.length, 0)).toBeGreaterThanOrEqual(2000);
    const views = pages.flatMap((page) => page.json).map((text) => JSON.parse(text) as { id: string; enhancements: unknown[] });
    expect(views.map((view) => view.id).sort()).toEqual(outcomes.map((outcome) => outcome.reference_id).sort());
    expect(views.every((view) => view.enhancements.length === 1)).toBe(true);
    // Every page names exactly the views it did not carry.
    pages.slice(0, -1).forEach((page, index) => expect(page.remaining_ids).toEqual(pages.slice(index + 1).flatMap((later) => later.json).map((text) => (JSON.parse(text) as { id: string }).id)));
  });

  it('when a robot\'s reference lines outgrow the page budget, then each page stops at the budget and names the rest, in request order', async () => {
    const lines = [10, 11, 12, 13].map((index) => ({ line_number: index, import_result_id: uuidv7(), reference_json: JSON.stringify({ identifiers: [{ identifier: doi(index), identifier_type: 'doi' }], enhancements: [abstract(index)] }) }));
    const ids = (await call<{ outcomes: Array<{ reference_id: string }> }>(client, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: 'fail', lines })).outcomes.map((outcome) => outcome.reference_id);

    const pages: Array<{ ids: string[]; lines: string[]; remaining_ids: string[] }> = [await call(client, 'GetReferenceFileLines', { ids, full_text: false })];
    while (pages.at(-1)!.remaining_ids.length > 0) pages.push(await call(client, 'GetReferenceFileLines', { ids: pages.at(-1)!.remaining_ids, full_text: false }));

    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages.slice(0, -1)) expect(page.lines.reduce((bytes, line) => bytes + line.length, 0)).toBeGreaterThanOrEqual(2000);
    expect(pages.flatMap((page) => page.ids)).toEqual(ids);
    expect(pages.flatMap((page) => page.lines).map((line) => (JSON.parse(line) as { id: string }).id)).toEqual(ids);
  });

  it('when the streamed views of a page outgrow the budget, then they go out as several messages, none past the budget by more than one view', async () => {
    const messages: Array<{ json: string[]; versions: number[] }> = [];
    await new Promise<void>((resolve, reject) => {
      const stream = (client as unknown as { StreamDeduplicatedViews(request: unknown): NodeJS.ReadableStream }).StreamDeduplicatedViews({ chunk_size: 500 });
      stream.on('data', (message: { json: string[]; versions: number[] }) => messages.push(message));
      stream.on('end', resolve);
      stream.on('error', reject);
    });
    const sizes = messages.map((message) => message.json.reduce((bytes, text) => bytes + text.length, 0));
    expect(messages.length).toBeGreaterThan(1);
    messages.forEach((message, index) => {
      expect(message.versions).toHaveLength(message.json.length);
      expect(sizes[index] - message.json.at(-1)!.length).toBeLessThan(2000);
    });
    expect(messages.flatMap((message) => message.json).length).toBeGreaterThanOrEqual(9);
  });
});
