import { compactOwnChangeEntry, expandFromContent, expandFromDocument, referenceChangedEntry } from './reference-changed.event-builder';
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

/** The compact entry of the same event, with the full entry's event id. */
function compactOwnDecisionEntry(of: ReferenceDocument, eventId: string) {
  const compact = compactOwnChangeEntry({ kind: 'duplicate_decision_changed', reference: of, duplicateDecisionId: 'd1', now: new Date('2026-01-02T00:00:00.000Z') });
  return { ...compact, event_id: eventId, payload: { ...(compact.payload as Record<string, unknown>), event_id: eventId } };
}

describe('compact own-decision outbox entries', () => {
  it('when a compact entry is expanded from the unchanged document, then it is the event built whole at decision time', () => {
    const full = ownDecisionEntry(reference);
    const compact = compactOwnDecisionEntry(reference, full.event_id);
    expect(JSON.stringify(compact.payload).length).toBeLessThan(JSON.stringify(full.payload).length / 2);
    expect(expandFromDocument(compact, reference)).toEqual(full);
  });

  it('when a compact entry is built, then it is the whole event without its view and changeset, plus where the content ends', () => {
    const full = ownDecisionEntry(reference);
    const { reference: _view, changeset: _changeset, ...rest } = full.payload as Record<string, unknown>;
    expect(compactOwnDecisionEntry(reference, full.event_id)).toEqual({ ...full, payload: { ...rest, own_content_at: { identifiers: 2, enhancements: 2 } } });
  });

  it('when identifiers, enhancements and a superseding version were added after the decision, then the expanded event still shows the content at decision time', () => {
    const full = ownDecisionEntry(reference);
    const compact = compactOwnDecisionEntry(reference, full.event_id);
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

  it('when a compact entry is completed from a copy of the content taken at the decision or later, then it is the event completed from the document', () => {
    const full = ownDecisionEntry(reference);
    const compact = compactOwnDecisionEntry(reference, full.event_id);
    const later = { _id: reference._id, visibility: reference.visibility, identifiers: [...reference.identifiers, { identifier_type: 'open_alex' as const, identifier: 'W1' }], enhancements: reference.enhancements };
    expect(expandFromContent(compact, { _id: reference._id, visibility: reference.visibility, identifiers: reference.identifiers, enhancements: reference.enhancements })).toStrictEqual(expandFromDocument(compact, reference));
    expect(expandFromContent(compact, later)).toStrictEqual(full);
  });

  it('when no copy of the content is kept, or one shorter than the entry names, then completing from memory answers null; a whole entry stays as it is', () => {
    const full = ownDecisionEntry(reference);
    const compact = compactOwnDecisionEntry(reference, full.event_id);
    expect(expandFromContent(compact, undefined)).toBeNull();
    expect(expandFromContent(compact, { _id: reference._id, visibility: reference.visibility, identifiers: reference.identifiers.slice(0, 1), enhancements: reference.enhancements })).toBeNull();
    expect(expandFromContent(full, undefined)).toBe(full);
  });
});
