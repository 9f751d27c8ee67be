import { uuidv7 } from '@destiny/contracts';
import { GROUP_TOO_LARGE_DETAIL } from '../src/usecases/process-deduplication.usecase';
import { bibliographic, call, dedupServiceForTests, waitFor } from './dedup-helpers';

// A reference grows with every merge; MongoDB stores no document over 16 MiB. The line that would
// take a reference over fails alone, before anything of it is written, and its chunk goes on.

type Outcome = { line_number: number; status: string; reference_id: string; failure_details: string };

describe('IngestReferences near the stored document size limit', () => {
  const dedup = dedupServiceForTests('dedup-size-limit');

  const megabytes = (count: number, letter: string) => letter.repeat(count * 1024 * 1024);
  const line = (lineNumber: number, identifiers: unknown[], abstracts: Array<[source: string, text: string]> = []) => ({
    line_number: lineNumber,
    import_result_id: uuidv7(),
    reference_json: JSON.stringify({ identifiers, enhancements: abstracts.map(([source, abstract]) => ({ source, visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract } })) }),
  });
  const doi = (value: string) => ({ identifier: value, identifier_type: 'doi' });
  const ingest = async (strategy: string, lines: unknown[]) =>
    (await call<{ outcomes: Outcome[] }>(dedup.client, 'IngestReferences', { import_batch_id: uuidv7(), collision_strategy: strategy, lines })).outcomes;
  const lookup = async (identifier: string) => (await call<{ json: string[] }>(dedup.client, 'LookupReferences', { identifiers: [identifier] })).json.map((item) => JSON.parse(item) as { id: string; identifiers: unknown[]; enhancements: unknown[] });

  it('when a merge would take a reference over the limit, then that line fails naming it, nothing of it is stored, and the rest of its chunk is', async () => {
    const [big] = await ingest('fail', [line(1, [doi('10.7777/big')], [['first', megabytes(9, 'a')]])]);
    expect(big.status).toBe('completed');

    const outcomes = await ingest('append', [
      line(1, [doi('10.7777/neighbour.1')]),
      line(2, [doi('10.7777/big'), { identifier: 77_777_001, identifier_type: 'pm_id' }], [['second', megabytes(9, 'b')]]),
      line(3, [doi('10.7777/neighbour.2')]),
    ]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['completed', 'failed', 'completed']);
    expect(outcomes[1]).toMatchObject({ reference_id: '', failure_details: `Entry 2:\n\nMerging this line into reference ${big.reference_id} would make it larger than the 16515072 bytes a stored reference may hold.` });
    expect(await lookup('pm_id:77777001')).toEqual([]);
    const [stored] = await lookup('doi:10.7777/big');
    expect(stored.enhancements).toHaveLength(1);
    expect(stored.identifiers).toHaveLength(1);
    expect(await lookup('doi:10.7777/neighbour.1')).toHaveLength(1);
    expect(await lookup('doi:10.7777/neighbour.2')).toHaveLength(1);
  }, 60_000);

  it('when several lines of one chunk merge into the same reference, then they are counted together and the one that would overflow it fails', async () => {
    await ingest('fail', [line(1, [doi('10.7777/grows')], [['first', megabytes(6, 'a')]])]);

    const outcomes = await ingest('append', [line(1, [doi('10.7777/grows')], [['second', megabytes(5, 'b')]]), line(2, [doi('10.7777/grows')], [['third', megabytes(5, 'c')]])]);

    expect(outcomes.map((outcome) => outcome.status)).toEqual(['completed', 'failed']);
    const [stored] = await lookup('doi:10.7777/grows');
    expect(stored.enhancements).toHaveLength(2);
  }, 60_000);

  it('when the reference has duplicates, then the merge\'s event (its view holds them, stored with it until relayed) counts too', async () => {
    const [canonical] = await ingest('fail', [line(1, [doi('10.7777/with-duplicates')], [['first', megabytes(6, 'a')]])]);
    const [duplicate] = await ingest('fail', [line(1, [doi('10.7777/its-duplicate')])]);
    const decided = async (id: string) => (JSON.parse((await call<{ json: string }>(dedup.client, 'GetReference', { id })).json) as { duplicate_decision: unknown }).duplicate_decision;
    await waitFor(async () => (await decided(canonical.reference_id)) && (await decided(duplicate.reference_id)), 'both references decided');
    await call(dedup.client, 'MakeDuplicateDecisions', { json: JSON.stringify([{ reference_id: duplicate.reference_id, duplicate_determination: 'duplicate', canonical_reference_id: canonical.reference_id, detail: null }]) });

    // 9 MB would fit alone (see above), but not beside a view of 9 MB in the merge's event.
    const [outcome] = await ingest('append', [line(1, [doi('10.7777/with-duplicates')], [['second', megabytes(3, 'b')]])]);

    expect(outcome).toMatchObject({ status: 'failed', failure_details: expect.stringContaining(`Merging this line into reference ${canonical.reference_id} would make it larger`) });
  }, 60_000);

  it('when a manual decision would make a duplicate group larger than a stored reference may be (its event carries the group\'s view), then 422 saying so, and nothing of the request is applied', async () => {
    const [large] = await ingest('fail', [line(1, [doi('10.7777/large-canonical')], [['first', megabytes(9, 'a')]])]);
    const [other] = await ingest('fail', [line(1, [doi('10.7777/large-duplicate')], [['first', megabytes(8, 'b')]])]);
    const decision = async (id: string) => (JSON.parse((await call<{ json: string }>(dedup.client, 'GetReference', { id })).json) as { duplicate_decision: unknown }).duplicate_decision;
    await waitFor(async () => (await decision(large.reference_id)) && (await decision(other.reference_id)), 'both references decided');
    const before = [await decision(large.reference_id), await decision(other.reference_id)];

    const decide = call(dedup.client, 'MakeDuplicateDecisions', {
      json: JSON.stringify([
        { reference_id: large.reference_id, duplicate_determination: 'canonical', detail: 'checked by hand' },
        { reference_id: other.reference_id, duplicate_determination: 'duplicate', canonical_reference_id: large.reference_id, detail: null },
      ]),
    });

    await expect(decide).rejects.toMatchObject({ httpStatus: 422, detail: `The duplicate group of reference ${large.reference_id} would be larger than the 16515072 bytes a stored reference may hold.` });
    expect([await decision(large.reference_id), await decision(other.reference_id)]).toEqual(before);
    const decisions = dedup.service.context.db.collection('duplicate_decisions');
    expect(await decisions.countDocuments({ reference_id: { $in: [large.reference_id, other.reference_id] }, decision_trigger: 'manual_api' })).toBe(0);
  }, 60_000);

  it('when deduplication finds a copy whose joining would make its group larger than a stored reference may be, then that copy goes to review saying so and the rest of its pass is decided', async () => {
    const record = bibliographic('Oversized groups in a randomised trial of nothing in particular', ['Ada Lovelace', 'Grace Hopper'], 2021, 'Journal of Large Things', { volume: '12', pagination: { first_page: '100', last_page: '110' } });
    const withRecord = (lineNumber: number, identifier: string, abstract: string | null) => ({
      line_number: lineNumber,
      import_result_id: uuidv7(),
      reference_json: JSON.stringify({ identifiers: [{ identifier_type: 'other', identifier, other_identifier_name: 'local' }], enhancements: [record, ...(abstract ? [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract } }] : [])] }),
    });
    const state = async (id: string) => JSON.parse((await call<{ json: string }>(dedup.client, 'GetReference', { id })).json) as { duplicate_decision: { duplicate_determination: string } | null };
    const [original] = await ingest('fail', [withRecord(1, 'oversize-original', megabytes(9, 'a'))]);
    await waitFor(async () => (await state(original.reference_id)).duplicate_decision, 'the original decided');
    expect((await state(original.reference_id)).duplicate_decision).toMatchObject({ duplicate_determination: 'canonical' });

    const [copy, neighbour] = await ingest('fail', [withRecord(1, 'oversize-copy', megabytes(8, 'b')), line(2, [doi('10.7777/oversize.neighbour')])]);

    // A decision for review is stored, not made active (§15.4): the copy's own state stays undecided.
    const decisions = dedup.service.context.db.collection<{ reference_id: string; duplicate_determination: string; detail: string | null }>('duplicate_decisions');
    const review = await waitFor(() => decisions.findOne({ reference_id: copy.reference_id, duplicate_determination: 'decoupled' }), 'the copy sent to review', 20_000);
    expect(review.detail).toContain(GROUP_TOO_LARGE_DETAIL);
    expect((await state(copy.reference_id)).duplicate_decision).toBeNull();
    await waitFor(async () => (await state(neighbour.reference_id)).duplicate_decision, 'the neighbour decided');
    expect((await state(neighbour.reference_id)).duplicate_decision).toMatchObject({ duplicate_determination: 'canonical' });
    expect((await state(original.reference_id)).duplicate_decision).toMatchObject({ duplicate_determination: 'canonical' });
  }, 60_000);

  it('when one line alone is larger than a stored reference may be, then it fails saying so', async () => {
    const [outcome] = await ingest('fail', [line(1, [doi('10.7777/too-big')], [['one', megabytes(17, 'a')]])]);

    expect(outcome).toMatchObject({ status: 'failed', reference_id: '', failure_details: 'Entry 1:\n\nThe reference would be larger than the 16515072 bytes a stored reference may hold.' });
    expect(await lookup('doi:10.7777/too-big')).toEqual([]);
  }, 60_000);
});
