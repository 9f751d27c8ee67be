import { serialiseJsonLine, uuidv7 } from '@destiny/contracts';
import { bibliographic, call, dedupServiceForTests, waitFor } from './dedup-helpers';

interface View {
  visibility: unknown;
  id: string;
  identifiers?: unknown[] | null;
  enhancements?: Array<{ content?: { enhancement_type?: string } }> | null;
  duplicate_decision: { duplicate_determination: string } | null;
}

/** robot-broker's reference-file line before GetReferenceFileLines: the view, redacted and written (`referenceFileRecord`). */
function lineOfView(view: View, fullText: boolean): string {
  const enhancements = (view.enhancements ?? []).filter((enhancement) => fullText || enhancement.content?.enhancement_type !== 'full_text');
  return serialiseJsonLine({ visibility: view.visibility, id: view.id, identifiers: view.identifiers ?? [], enhancements });
}

describe('dedup-service reference-file lines through gRPC', () => {
  const dedup = dedupServiceForTests('dedup-file-lines');

  let line = 0;
  async function ingest(strategy: string, reference: unknown): Promise<string> {
    const response = await call<{ outcomes: Array<{ reference_id: string; status: string }> }>(dedup.client, 'IngestReferences', {
      import_batch_id: uuidv7(),
      collision_strategy: strategy,
      lines: [{ line_number: ++line, reference_json: JSON.stringify(reference), import_result_id: uuidv7() }],
    });
    expect(response.outcomes[0].status).toBe('completed');
    return response.outcomes[0].reference_id;
  }
  const views = async (ids: string[]) => (await call<{ json: string[] }>(dedup.client, 'GetDeduplicatedViews', { ids })).json.map((text) => JSON.parse(text) as View);
  const decided = (id: string) => waitFor(async () => (await views([id]))[0]?.duplicate_decision, `a decision for ${id}`);
  const doi = (value: string) => ({ identifier: value, identifier_type: 'doi' });

  /** Asks for the lines twice (the second answer may come from what the first kept) and compares both with the views' lines. */
  async function expectLinesOfViews(ids: string[]): Promise<void> {
    const expected = await views(ids);
    for (const fullText of [false, true, false, true]) {
      const answer = await call<{ ids: string[]; lines: string[]; full_texts: boolean[] }>(dedup.client, 'GetReferenceFileLines', { ids, full_text: fullText });
      expect(answer.ids).toEqual(expected.map((view) => view.id));
      expect(answer.lines).toEqual(expected.map((view) => lineOfView(view, fullText)));
      expect(answer.full_texts).toEqual(answer.lines.map((text) => fullText && text.includes('"enhancement_type":"full_text"')));
    }
  }

  it('when references change in every way a view can, then each answer is the lines of the views at that moment, byte for byte', async () => {
    const record = bibliographic('Lines trial of walking for knee pain in older adults', ['Ada Lovelace', 'Grace Hopper'], 2021, 'Journal of Lines', { pagination: { first_page: '3' } });
    const canonical = await ingest('fail', { visibility: 'public', identifiers: [doi('10.1000/lines.1')], enhancements: [record] });
    await decided(canonical);
    const duplicate = await ingest('fail', { visibility: 'public', identifiers: [{ identifier: 27182, identifier_type: 'pm_id' }], enhancements: [record] });
    expect(await decided(duplicate)).toEqual({ duplicate_determination: 'duplicate', canonical_reference_id: canonical });
    const other = await ingest('fail', { visibility: 'public', identifiers: [doi('10.1000/lines.other')], enhancements: [{ source: 's', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract: 'Line\u2028separated\u0085text' } }] });
    await decided(other);
    const ids = [other, canonical, uuidv7(), duplicate, canonical];
    await expectLinesOfViews(ids);

    // A full text on the duplicate shows in its canonical's line for callers entitled to it.
    const fullText = { reference_id: duplicate, source: 'pdf-bot', visibility: 'public', robot_version: '1.2', content: { enhancement_type: 'full_text', file_url: 'https://files.example/lines.pdf' } };
    const added = await call<{ outcomes: Array<{ status: string }> }>(dedup.client, 'AddEnhancements', { enhancements_json: [JSON.stringify(fullText)], robot_id: uuidv7(), robot_enhancement_batch_id: '', enhancement_request_id: '' });
    expect(added.outcomes.map((outcome) => outcome.status)).toEqual(['stored']);
    await expectLinesOfViews(ids);

    // A merge that adds only an identifier changes the view without a new version.
    await ingest('merge_defensive', { visibility: 'public', identifiers: [doi('10.1000/lines.other'), { identifier: 'W314', identifier_type: 'open_alex' }] });
    expect((await views([other]))[0].identifiers).toHaveLength(2);
    await expectLinesOfViews(ids);

    // A person makes the third reference a duplicate too: the canonical's line takes it in.
    await call(dedup.client, 'MakeDuplicateDecisions', { json: JSON.stringify([{ reference_id: other, duplicate_determination: 'duplicate', canonical_reference_id: canonical }]) });
    expect((await views([canonical]))[0].identifiers).toHaveLength(4);
    await expectLinesOfViews(ids);
  });
});
