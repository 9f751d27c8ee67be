import { compactEnhancedEntry, compactOwnChangeEntry, contentEndsWith, expandFromContent, expandFromDocument, referenceChangedEntry } from './reference-changed.event-builder';
import { enhancementChangeset, referenceDoc, type ActiveDecision, type ReferenceDocument, type StoredEnhancement } from './reference.model';

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

  it('when the kept copy ends where the entry does, then the copy can be released once the entry is published; a later copy or a whole entry cannot release it', () => {
    const full = ownDecisionEntry(reference);
    const compact = compactOwnDecisionEntry(reference, full.event_id);
    const copy = { _id: reference._id, visibility: reference.visibility, identifiers: reference.identifiers, enhancements: reference.enhancements };
    expect(contentEndsWith(compact, copy)).toBe(true);
    expect(contentEndsWith(compact, { ...copy, identifiers: [...reference.identifiers, { identifier_type: 'open_alex' as const, identifier: 'W1' }] })).toBe(false);
    expect(contentEndsWith(compact, { ...copy, enhancements: [...reference.enhancements, { ...reference.enhancements[0], id: 'later' }] })).toBe(false);
    expect(contentEndsWith(full, copy)).toBe(false);
  });
});

describe('compact imported outbox entries', () => {
  it('when an imported entry is expanded after the reference was decided and enhanced, then it is the event built whole at import: no decision, the view and changeset the stored reference', () => {
    const imported: ReferenceDocument = { ...reference, active_decision: null, version: 1 };
    const full = referenceChangedEntry({ kind: 'imported', reference: imported, duplicates: [], changeset: referenceDoc([{ reference: imported }], imported.visibility, null), now: new Date('2026-01-02T00:00:00.000Z') });
    const compact = compactOwnChangeEntry({ kind: 'imported', reference: imported, now: new Date('2026-01-02T00:00:00.000Z') });
    const sameId = { ...compact, event_id: full.event_id, payload: { ...(compact.payload as Record<string, unknown>), event_id: full.event_id } };
    const later: ReferenceDocument = { ...reference, enhancements: [...reference.enhancements, enhancement('e3', { enhancement_type: 'abstract', process: 'other', abstract: 'Later words.' })], version: 4 };

    const expanded = expandFromDocument(sameId, later).payload as Record<string, unknown>;
    expect(expanded).toEqual(full.payload);
    expect(expanded).toMatchObject({ kind: 'imported', version: 1, duplicate_decision: null, reference: { duplicate_decision: null } });
    expect((expanded.changeset as Record<string, unknown>).duplicate_determination).toBeUndefined();
  });
});

describe('compact enhanced outbox entries', () => {
  const now = new Date('2026-01-03T00:00:00.000Z');
  const origin = { robot_id: 'robot-1', robot_enhancement_batch_id: 'batch-1' };

  /** The entry the enhancement write stored whole before, with the compact entry's event id. */
  function fullEnhancedEntry(before: ReferenceDocument, added: StoredEnhancement[], eventId: string) {
    const after = { ...before, enhancements: [...before.enhancements, ...added], version: before.version + 1 };
    const full = referenceChangedEntry({ kind: 'enhanced', reference: after, duplicates: [], changeset: enhancementChangeset(added), origin, now });
    return { ...full, event_id: eventId, payload: { ...(full.payload as Record<string, unknown>), event_id: eventId } };
  }

  function compactEnhanced(before: ReferenceDocument, added: StoredEnhancement[]) {
    const after = { ...before, enhancements: [...before.enhancements, ...added], version: before.version + 1 };
    return { after, compact: compactEnhancedEntry({ reference: after, addedFrom: before.enhancements.length, origin, now }) };
  }

  // A small deterministic generator, so a failing case can be replayed.
  function random(seed: number) {
    let state = seed;
    return (below: number) => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % below;
    };
  }

  const contents = [
    { enhancement_type: 'abstract', process: 'other', abstract: 'Words.' },
    { enhancement_type: 'bibliographic', title: 'A title', pagination: { first_page: '1' }, authorship: [] },
    { enhancement_type: 'raw', data: { anything: true } },
    { enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 's', label: 'l', value: true }] },
  ];
  const decisions: Array<ActiveDecision | null> = [
    null,
    { decision_id: 'd1', duplicate_determination: 'canonical', canonical_reference_id: null, decision_authority: 'system' },
    { decision_id: 'd2', duplicate_determination: 'duplicate', canonical_reference_id: 'ref-0', decision_authority: 'person' },
  ];

  it('when a compact enhanced entry is expanded from the document after later appends, supersessions and decisions, then it is the event built whole at write time', () => {
    for (let seed = 1; seed <= 200; seed += 1) {
      const next = random(seed);
      let counter = 0;
      const make = () => {
        counter += 1;
        return { ...enhancement(`e${counter}`, contents[next(contents.length)]), robot_version: next(2) === 0 ? null : '1.0.0' };
      };
      const existing = Array.from({ length: next(4) }, make);
      // An earlier supersession inside the existing prefix stays in the view's history only.
      if (existing.length >= 2 && next(2) === 0) existing[0] = { ...existing[0], superseded_by: existing[existing.length - 1].id };
      const before: ReferenceDocument = {
        ...reference,
        identifiers: reference.identifiers.slice(0, 1 + next(2)),
        enhancements: existing,
        active_decision: decisions[next(decisions.length)],
        version: next(9),
      };
      const added = Array.from({ length: 1 + next(3) }, make);
      const { after, compact } = compactEnhanced(before, added);
      const full = fullEnhancedEntry(before, added, compact.event_id);
      const appended = Array.from({ length: next(3) }, make);
      const enhancements = [...after.enhancements, ...appended];
      // A later version superseding one of the enhancements the event holds (a supersession is never replaced).
      const index = next(after.enhancements.length);
      if (appended.length > 0 && next(2) === 0 && enhancements[index].superseded_by === null) enhancements[index] = { ...enhancements[index], superseded_by: appended[0].id };
      const later: ReferenceDocument = {
        ...after,
        identifiers: next(2) === 0 ? after.identifiers : [...after.identifiers, { identifier_type: 'open_alex', identifier: `W${seed}` }],
        enhancements,
        active_decision: decisions[next(decisions.length)],
        version: after.version + next(3),
      };
      const expanded = expandFromDocument(compact, later);
      expect(expanded).toStrictEqual(full);
      expect(JSON.stringify(expanded.payload)).toBe(JSON.stringify(full.payload));
      expect(expandFromContent(compact, { _id: later._id, visibility: later.visibility, identifiers: later.identifiers, enhancements: later.enhancements })).toStrictEqual(full);
    }
  });

  it('when a compact enhanced entry is built, then it holds neither the view nor the changeset, only where the content and the new enhancements end', () => {
    const added = [enhancement('e3', { enhancement_type: 'abstract', process: 'other', abstract: 'More words.' })];
    const { compact } = compactEnhanced(reference, added);
    const full = fullEnhancedEntry(reference, added, compact.event_id);
    const { reference: _view, changeset: _changeset, ...rest } = full.payload as Record<string, unknown>;
    expect(compact).toStrictEqual({ ...full, payload: { ...rest, own_content_at: { identifiers: 2, enhancements: 3, added_from: 2 } } });
    expect(expandFromContent(compact, { _id: reference._id, visibility: reference.visibility, identifiers: reference.identifiers, enhancements: reference.enhancements })).toBeNull();
  });
});
