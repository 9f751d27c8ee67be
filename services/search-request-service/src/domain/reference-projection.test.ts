import type { DeduplicatedReference, Enhancement } from '@destiny/contracts';
import { enhancementsByPriority, isIndexable, orderAuthors, projectReference } from './reference-projection';

const OWN = '01900000-0000-7000-8000-000000000001';
const DUP = '01900000-0000-7000-8000-000000000002';

function enhancement(referenceId: string, content: Record<string, unknown>, createdAt: string | null, id = `${referenceId}-${createdAt}`): Enhancement {
  return { id, reference_id: referenceId, source: 's', visibility: 'public', robot_version: null, derived_from: null, content: content as Enhancement['content'], created_at: createdAt };
}

function view(enhancements: Enhancement[], determination: string | null = 'canonical'): DeduplicatedReference {
  return {
    visibility: 'public',
    id: OWN,
    identifiers: [],
    enhancements,
    duplicate_decision: determination ? { duplicate_determination: determination as 'canonical', canonical_reference_id: null } : null,
  };
}

describe('reference projection (§13.5)', () => {
  it('when enhancements come from the reference and its duplicates, then its own come first, each group most recent first', () => {
    const ordered = enhancementsByPriority(
      view([
        enhancement(DUP, { enhancement_type: 'abstract' }, '2026-03-01T00:00:00Z', 'dup-new'),
        enhancement(OWN, { enhancement_type: 'abstract' }, '2026-01-01T00:00:00Z', 'own-old'),
        enhancement(OWN, { enhancement_type: 'abstract' }, '2026-02-01T00:00:00Z', 'own-new'),
        enhancement(DUP, { enhancement_type: 'abstract' }, null, 'dup-undated'),
      ]),
    );
    expect(ordered.map((item) => item.id)).toEqual(['own-new', 'own-old', 'dup-new', 'dup-undated']);
  });

  it('when several bibliographic enhancements exist, then each field comes from the highest-priority one that has it', () => {
    const document = projectReference(
      view([
        enhancement(DUP, { enhancement_type: 'bibliographic', title: 'Duplicate title', publication_year: 1990, authorship: [{ display_name: 'D', orcid: null, position: 'first' }] }, '2026-05-01T00:00:00Z'),
        enhancement(OWN, { enhancement_type: 'bibliographic', title: 'Own title', publication_date: '2011-04-05' }, '2026-01-01T00:00:00Z'),
        enhancement(DUP, { enhancement_type: 'abstract', process: 'other', abstract: 'Only the duplicate has one.' }, '2026-01-01T00:00:00Z'),
      ]),
    );
    expect(document).toMatchObject({ id: OWN, title: 'Own title', publication_date: '2011-04-05', publication_year: 2011, authors: ['D'], abstract: 'Only the duplicate has one.', duplicate_determination: 'canonical' });
    expect(document.view.enhancements).toHaveLength(3);
  });

  it('when a publication year does not fit the integer mapping, then the date\'s year (or nothing) is used', () => {
    const document = projectReference(view([enhancement(OWN, { enhancement_type: 'bibliographic', title: 'T', publication_year: 99_999_999_999, publication_date: '2001-02-03' }, '2026-01-01T00:00:00Z')]));
    expect(document.publication_year).toBe(2001);
    expect(projectReference(view([enhancement(OWN, { enhancement_type: 'bibliographic', publication_year: 99_999_999_999 }, null)])).publication_year).toBeUndefined();
  });

  it('when authors are listed, then first, middle alphabetically, and last are the order', () => {
    expect(
      orderAuthors([
        { display_name: 'Last', orcid: null, position: 'last' },
        { display_name: 'Zoe', orcid: null, position: 'middle' },
        { display_name: 'First', orcid: null, position: 'first' },
        { display_name: 'Adam', orcid: null, position: 'middle' },
      ]),
    ).toEqual(['First', 'Adam', 'Zoe', 'Last']);
  });

  it('when annotation enhancements overlap in a scheme, then only the highest-priority one contributes it', () => {
    const document = projectReference(
      view([
        enhancement(OWN, { enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 'topic', label: 'a', value: true, score: null, data: {} }] }, '2026-01-01T00:00:00Z'),
        enhancement(
          OWN,
          {
            enhancement_type: 'annotation',
            annotations: [
              { annotation_type: 'boolean', scheme: 'topic', label: 'b', value: true, score: null, data: {} },
              { annotation_type: 'score', scheme: 'quality', label: 'q', score: 0.2, data: {} },
            ],
          },
          '2025-01-01T00:00:00Z',
        ),
      ]),
    );
    expect(document.annotations).toEqual(['topic/a']);
    expect(document.evaluated_schemes).toEqual(['topic', 'quality']);
  });

  it.each([
    [{ annotation_type: 'boolean', value: true, score: 0.8, data: {} }, 0.8],
    [{ annotation_type: 'boolean', value: false, score: 0.8, data: {} }, 0.2],
    [{ annotation_type: 'boolean', value: true, score: 0.8, data: { inclusion_score: 0.35 } }, 0.35],
    [{ annotation_type: 'score', score: 0.6, data: {} }, 0.6],
  ])('when the inclusion:destiny annotation is %p, then inclusion_destiny is %p', (annotation, expected) => {
    const document = projectReference(view([enhancement(OWN, { enhancement_type: 'annotation', annotations: [{ scheme: 'inclusion:destiny', label: 'include', ...annotation }] }, '2026-01-01T00:00:00Z')]));
    expect(document.inclusion_destiny).toBeCloseTo(expected, 10);
  });

  it('when nothing is known, then empty fields are left out of the document', () => {
    const document = projectReference(view([], null));
    expect(Object.keys(document).sort()).toEqual(['id', 'view', 'visibility']);
    expect(document.view).toEqual({ visibility: 'public', id: OWN, identifiers: [], enhancements: [] });
  });

  it('when the active decision folds the reference into a canonical, then it is not indexable; canonical-like ones are', () => {
    expect(isIndexable(view([], 'duplicate'))).toBe(false);
    expect(isIndexable(view([], 'canonical'))).toBe(true);
    expect(isIndexable(view([], 'unsearchable'))).toBe(true);
    expect(isIndexable(view([], null))).toBe(true);
  });
});
