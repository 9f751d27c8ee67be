import { BSON } from 'mongodb';
import type { ReferenceRepository } from '../data-access/reference.repository';
import { referenceFileLine } from '../domain/reference-file-line.builder';
import type { ReferenceDocument } from '../domain/reference.model';
import { createReferenceFileLines } from './reference-file-lines.usecase';

/** A store answering the two reads the use case makes, as the driver answers with `raw: true`. */
function fakeStore() {
  const documents = new Map<string, Record<string, unknown>>();
  const collection = {
    find(filter: Record<string, { $in: string[] }>) {
      const ids = filter._id?.$in;
      const canonicals = filter['active_decision.canonical_reference_id']?.$in;
      const rows = [...documents.values()].filter((document) => {
        const decision = document.active_decision as { duplicate_determination: string; canonical_reference_id: string | null } | null;
        if (ids) return ids.includes(document._id as string);
        return decision?.duplicate_determination === 'duplicate' && canonicals.includes(decision.canonical_reference_id as string);
      });
      return { toArray: async () => rows.reverse().map((document) => Buffer.from(BSON.serialize(document))) };
    },
  };
  return { documents, references: { references: collection } as unknown as ReferenceRepository };
}

function stored(id: string, title: string, decision: ReferenceDocument['active_decision'] = null): ReferenceDocument {
  return {
    _id: id,
    visibility: 'public',
    identifiers: [{ identifier_type: 'doi', identifier: `10.1/${id}` }],
    enhancements: [{ id: `${id}-e`, reference_id: id, source: 's', visibility: 'public', robot_version: null, derived_from: null, content: { enhancement_type: 'bibliographic', title }, created_at: '2026-01-01T00:00:00.000Z', superseded_by: null, fingerprint: 'f' }],
    active_decision: decision,
    version: 1,
    import_result_id: null,
    merged_import_results: [],
    import_decision_id: null,
    created_at: new Date('2026-01-01T00:00:00.000Z'),
  };
}

const duplicateOf = (canonical: string): ReferenceDocument['active_decision'] => ({ decision_id: 'd', duplicate_determination: 'duplicate', canonical_reference_id: canonical, decision_authority: 'system' });

describe('reference-file lines kept by the bytes they were written from', () => {
  it.each([
    ['the default size', undefined],
    ['room for less than one entry', 1],
  ])('when documents change between polls and the cache has %s, then every answer is the lines of the documents as read', async (_label, cacheBytes) => {
    const store = fakeStore();
    const linesOf = createReferenceFileLines({ references: store.references, cacheBytes });
    const expected = (ids: string[], fullText: boolean) =>
      ids
        .filter((id) => store.documents.has(id))
        .map((id) => {
          const document = store.documents.get(id) as unknown as ReferenceDocument;
          const duplicates = [...store.documents.values()].filter((other) => (other as unknown as ReferenceDocument).active_decision?.canonical_reference_id === id).sort((a, b) => String(a._id).localeCompare(String(b._id))) as unknown as ReferenceDocument[];
          return referenceFileLine(document, document.active_decision?.duplicate_determination === 'duplicate' ? [] : duplicates, fullText);
        });
    const ids = ['a', 'b', 'missing', 'c'];
    store.documents.set('a', { ...stored('a', 'A') });
    store.documents.set('b', { ...stored('b', 'B') });
    store.documents.set('c', { ...stored('c', 'C') });
    const steps: Array<() => void> = [
      () => undefined,
      () => store.documents.set('a', { ...stored('a', 'A, retitled') }),
      () => store.documents.set('c', { ...stored('c', 'C'), active_decision: duplicateOf('b') }),
      () => store.documents.set('c', { ...stored('c', 'C, retitled'), active_decision: duplicateOf('b') }),
      () => store.documents.delete('b'),
    ];
    for (const step of steps) {
      step();
      for (const fullText of [false, true, false]) expect(await linesOf(ids, fullText)).toEqual(expected(ids, fullText));
    }
  });

  it('when the same bytes are read again, then the line kept is answered, and a changed document gets a new one', async () => {
    const store = fakeStore();
    const linesOf = createReferenceFileLines({ references: store.references });
    store.documents.set('a', { ...stored('a', 'A') });
    const [first] = await linesOf(['a'], false);
    const [again] = await linesOf(['a'], false);
    expect(again).toBe(first);
    store.documents.set('a', { ...stored('a', 'A, retitled') });
    const [changed] = await linesOf(['a'], false);
    expect(changed).not.toBe(first);
    expect(changed.line).toContain('A, retitled');
  });
});
