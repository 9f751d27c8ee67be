import { uuidv7, type DeduplicatedReference, type Enhancement, type ReferenceChangedEvent, type ReferenceDoc } from '@destiny/contracts';
import { planPercolation, referenceDocOf } from './percolation-document';

const REF = uuidv7();
const DUP = uuidv7();

function enhancement(referenceId: string, content: Record<string, unknown>, extra: Partial<Enhancement> = {}): Enhancement {
  return { id: uuidv7(), reference_id: referenceId, source: 'src', visibility: 'public', robot_version: null, derived_from: null, content: content as Enhancement['content'], created_at: '2026-01-31T12:00:00Z', ...extra };
}

function view(enhancements: Enhancement[], determination: 'canonical' | 'duplicate' | 'exact_duplicate' | null = 'canonical'): DeduplicatedReference {
  return {
    visibility: 'public',
    id: REF,
    identifiers: [
      { identifier: 123, identifier_type: 'pm_id' },
      { identifier: 'x', identifier_type: 'other', other_identifier_name: 'local' },
      { identifier: '10.1/dup', identifier_type: 'doi' },
    ],
    enhancements,
    duplicate_decision: determination ? { duplicate_determination: determination, canonical_reference_id: null } : null,
  };
}

function event(kind: ReferenceChangedEvent['kind'], reference: DeduplicatedReference, changeset: ReferenceDoc, origin: ReferenceChangedEvent['origin'] = {}): ReferenceChangedEvent {
  return { event_id: uuidv7(), reference_id: reference.id, version: 2, kind, reference, changeset, duplicate_decision: reference.duplicate_decision, origin, occurred_at: '2026-01-31T12:00:00Z' };
}

describe('ReferenceDoc of a deduplicated view (§13.2)', () => {
  test('when identifiers and enhancements of every kind are present, then identifiers are strings, raw/association/linked-data are left out, pagination and empty values are dropped', () => {
    const doc = referenceDocOf(
      view([
        enhancement(REF, { enhancement_type: 'bibliographic', title: 'T', pagination: { volume: '1' }, authorship: [], publisher: null }, { robot_version: '1.2.0' }),
        enhancement(REF, { enhancement_type: 'raw', source_export_date: '2026-01-01T00:00:00Z', description: 'd', data: { a: 1 } }),
        enhancement(REF, { enhancement_type: 'reference_association', associated_reference_ids: [DUP], association_type: 'cites' }),
        enhancement(REF, { enhancement_type: 'linked_data', vocabulary_uri: 'https://v.example/', data: { '@context': 'https://c.example/' } }),
        enhancement(DUP, { enhancement_type: 'abstract', process: 'other', abstract: 'A' }),
      ]),
      { visibility: 'public', identifiers: [{ reference_id: DUP, identifier: '10.1/dup', identifier_type: 'doi' }] },
    );
    expect(doc).toEqual({
      visibility: 'public',
      identifiers: [
        { reference_id: REF, identifier: '123', identifier_type: 'pm_id' },
        { reference_id: REF, identifier: 'x', identifier_type: 'other', other_identifier_name: 'local' },
        { reference_id: DUP, identifier: '10.1/dup', identifier_type: 'doi' },
      ],
      enhancements: [
        { id: expect.any(String), reference_id: REF, visibility: 'public', source: 'src', robot_version: '1.2.0', created_at: '2026-01-31T12:00:00Z', content: { enhancement_type: 'bibliographic', title: 'T' } },
        { id: expect.any(String), reference_id: DUP, visibility: 'public', source: 'src', created_at: '2026-01-31T12:00:00Z', content: { enhancement_type: 'abstract', process: 'other', abstract: 'A' } },
      ],
      duplicate_determination: 'canonical',
    });
  });

  test('when values are empty in every way, then null, undefined, empty lists and empty objects are dropped and other falsy values kept, in key order', () => {
    const doc = referenceDocOf(
      view([enhancement(REF, { enhancement_type: 'annotation', annotations: [], note: '', count: 0, flag: false, data: {}, missing: null, nothing: undefined, kept: { a: 1 } }, { robot_version: null, created_at: undefined })]),
      { visibility: 'public' },
    );
    const [item] = doc.enhancements ?? [];
    expect(Object.keys(item)).toEqual(['id', 'reference_id', 'visibility', 'source', 'content']);
    expect(Object.entries(item.content)).toEqual([['enhancement_type', 'annotation'], ['note', ''], ['count', 0], ['flag', false], ['kept', { a: 1 }]]);
  });

  test('when the view is empty and undecided, then only the visibility remains', () => {
    expect(referenceDocOf({ visibility: 'restricted', id: REF, identifiers: [], enhancements: [], duplicate_decision: null }, { visibility: 'public' })).toEqual({ visibility: 'restricted' });
  });
});

describe('which events percolate, and as what (§13.2)', () => {
  test('when a canonical decision arrives for a fresh reference, then reference and changeset are identical and the reference is the target', () => {
    const reference = { ...view([]), identifiers: [{ identifier: '10.1/a', identifier_type: 'doi' as const }] };
    const changeset = referenceDocOf(reference, { visibility: 'public' });
    const plan = planPercolation(event('duplicate_decision_changed', reference, changeset));
    expect(plan.percolate && plan.task.document.reference).toEqual(plan.percolate && plan.task.document.changeset);
    expect(plan.percolate && plan.task.reference_id).toBe(REF);
    expect(plan.percolate && plan.task.source).toMatch(/^DuplicateDecision:/);
  });

  test('when the decision event carries its duplicate decision id, then it is the source', () => {
    const reference = view([]);
    const decisionId = uuidv7();
    const withDecision = { ...event('duplicate_decision_changed', reference, referenceDocOf(reference, { visibility: 'public' })), duplicate_decision_id: decisionId };
    const plan = planPercolation(withDecision);
    expect(plan.percolate && plan.task.source).toBe(`DuplicateDecision:${decisionId}`);
  });

  test('when enhancements arrive from a robot batch, then the changeset holds only them (no identifiers, no determination) and the origin robot is recorded', () => {
    const added = enhancement(REF, { enhancement_type: 'abstract', process: 'other', abstract: 'A' });
    const robot = uuidv7();
    const batch = uuidv7();
    const plan = planPercolation(event('enhanced', view([added], 'duplicate'), { visibility: 'public', enhancements: [{ ...added, id: added.id as string, robot_version: undefined, created_at: added.created_at ?? undefined, content: added.content as Record<string, unknown> }] }, { robot_id: robot, robot_enhancement_batch_id: batch }));
    expect(plan.percolate).toBe(true);
    if (!plan.percolate) return;
    expect(plan.task.document.changeset).toEqual({ visibility: 'public', enhancements: [expect.objectContaining({ id: added.id, content: added.content })] });
    expect(plan.task.document.reference.duplicate_determination).toBe('duplicate');
    expect(plan.task).toEqual(expect.objectContaining({ reference_id: REF, source: `RobotEnhancementBatch:${batch}`, origin_robot_id: robot }));
  });

  test('when enhancements come from an enhancement request without a robot batch, then the request is the source', () => {
    const added = enhancement(REF, { enhancement_type: 'abstract', process: 'other', abstract: 'A' });
    const request = uuidv7();
    const plan = planPercolation(event('enhanced', view([added]), { visibility: 'public', enhancements: [{ id: added.id as string, reference_id: REF, visibility: 'public', source: 'src', content: added.content as Record<string, unknown> }] }, { robot_id: uuidv7(), enhancement_request_id: request }));
    expect(plan.percolate && plan.task.source).toBe(`EnhancementRequest:${request}`);
  });

  test('when the event is an import, an exact duplicate, a removed decision or a duplicate\'s own decision, then it does not percolate', () => {
    const reasons = [
      event('imported', view([], null), { visibility: 'public' }),
      event('duplicate_decision_changed', view([], 'exact_duplicate'), { visibility: 'public', duplicate_determination: 'exact_duplicate' }),
      event('duplicate_decision_changed', view([], null), { visibility: 'public' }),
      event('duplicate_decision_changed', view([], 'duplicate'), { visibility: 'public', duplicate_determination: 'duplicate' }),
      event('enhanced', view([]), { visibility: 'public' }),
    ].map((item) => planPercolation(item));
    expect(reasons.map((plan) => plan.percolate)).toEqual([false, false, false, false, false]);
  });

  test('when a canonical is refreshed because a robot enhanced one of its duplicates, then it does not percolate (the duplicate\'s own event does)', () => {
    const added: Enhancement = { id: uuidv7(), reference_id: uuidv7(), visibility: 'public', source: 'robot', robot_version: null, derived_from: null, created_at: '2026-01-31T12:00:00Z', content: { enhancement_type: 'abstract', process: 'other', abstract: 'Heath' } } as unknown as Enhancement;
    const plan = planPercolation(event('duplicate_enhanced', view([added]), { visibility: 'public', enhancements: [{ id: added.id as string, reference_id: added.reference_id, visibility: 'public', source: 'robot', content: added.content as Record<string, unknown> }] }, { robot_id: uuidv7(), robot_enhancement_batch_id: uuidv7() }));
    expect(plan).toEqual({ percolate: false, reason: 'a duplicate was enhanced; automations fire on the duplicate' });
  });
});
