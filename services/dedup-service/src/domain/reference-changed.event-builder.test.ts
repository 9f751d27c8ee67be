import { compactOwnChange, expandFromDocument, referenceChangedEntry } from './reference-changed.event-builder';
import { referenceDoc, type ReferenceDocument, type StoredEnhancement } from './reference.model';

function enhancement(id: string, content: Record<string, unknown>): StoredEnhancement {
  return { id, reference_id: 'ref-1', source: 'importer', visibility: 'public', robot_version: null, derived_from: null, content, created_at: '2026-01-01T00:00:00.000Z', superseded_by: null, fingerprint: id };
}

const reference: ReferenceDocument = {
  _id: 'ref-1',
  visibility: 'public',
  identifiers: [
    { identifier_type: 'doi', identifier: '10.1234/abc' },
    { identifier_type: 'pm_id', identifier: 123 },
  ],
  enhancements: [
    enhancement('e1', { enhancement_type: 'bibliographic', title: 'A title', pagination: { first_page: '1' } }),
    enhancement('e2', { enhancement_type: 'abstract', process: 'other', abstract: 'Words.' }),
  ],
  active_decision: { decision_id: 'd1', duplicate_determination: 'canonical', canonical_reference_id: null, decision_authority: 'system' },
  version: 3,
  import_result_id: 'r1',
  merged_import_results: [],
  import_decision_id: 'd1',
  created_at: new Date('2026-01-01T00:00:00.000Z'),
};

function ownDecisionEntry(of: ReferenceDocument) {
  return referenceChangedEntry({ kind: 'duplicate_decision_changed', reference: of, duplicates: [], changeset: referenceDoc([{ reference: of }], of.visibility, 'canonical'), duplicateDecisionId: 'd1', now: new Date('2026-01-02T00:00:00.000Z') });
}

describe('compact own-decision outbox entries', () => {
  it('when a compact entry is expanded from the unchanged document, then it is the event built at decision time', () => {
    const full = ownDecisionEntry(reference);
    const compact = compactOwnChange(full, reference);
    expect(JSON.stringify(compact.payload).length).toBeLessThan(JSON.stringify(full.payload).length / 2);
    expect(expandFromDocument(compact, reference)).toEqual(full);
  });

  it('when identifiers, enhancements and a superseding version were added after the decision, then the expanded event still shows the content at decision time', () => {
    const full = ownDecisionEntry(reference);
    const compact = compactOwnChange(full, reference);
    const later: ReferenceDocument = {
      ...reference,
      identifiers: [...reference.identifiers, { identifier_type: 'open_alex', identifier: 'W1' }],
      enhancements: [{ ...reference.enhancements[0], superseded_by: 'e3' }, reference.enhancements[1], enhancement('e3', { enhancement_type: 'bibliographic', title: 'A newer title' })],
      active_decision: { decision_id: 'd2', duplicate_determination: 'duplicate', canonical_reference_id: 'ref-0', decision_authority: 'person' },
      version: 5,
    };
    expect(expandFromDocument(compact, later)).toEqual(full);
  });

  it('when an entry was stored whole, then expanding leaves it as it is', () => {
    const full = ownDecisionEntry(reference);
    expect(expandFromDocument(full, { ...reference, identifiers: [] })).toBe(full);
  });
});
