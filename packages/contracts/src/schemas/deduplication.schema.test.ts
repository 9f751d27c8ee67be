import { validate } from '../validation/validate';
import { DeduplicationCandidatesIn, InvokeDeduplicationIn, MakeDuplicateDecisionsIn } from './deduplication.schema';

const A = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
const B = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e60';

describe('MakeDuplicateDecision (§15.7)', () => {
  it('when a duplicate names its canonical and a canonical names none, then both are valid and detail defaults to null', () => {
    const result = validate(
      MakeDuplicateDecisionsIn,
      [
        { reference_id: A, duplicate_determination: 'canonical' },
        { reference_id: B, duplicate_determination: 'duplicate', canonical_reference_id: A, detail: 'same DOI' },
      ],
      'body',
    );
    expect(result.ok && result.value).toEqual([
      { reference_id: A, duplicate_determination: 'canonical', canonical_reference_id: null, detail: null },
      { reference_id: B, duplicate_determination: 'duplicate', canonical_reference_id: A, detail: 'same DOI' },
    ]);
  });

  it.each([
    ['a duplicate without canonical', { reference_id: B, duplicate_determination: 'duplicate' }],
    ['a canonical with a canonical id', { reference_id: B, duplicate_determination: 'canonical', canonical_reference_id: A }],
  ])('when %s is sent, then the iff rule fails for that item', (_case, item) => {
    const result = validate(MakeDuplicateDecisionsIn, [item], 'body');
    expect(!result.ok && result.errors).toEqual([
      expect.objectContaining({ type: 'value_error', loc: ['body', 0], msg: 'Value error, canonical_reference_id must be populated if and only if duplicate_determination is DUPLICATE' }),
    ]);
  });

  it.each([
    ['a reference id that is no uuid', { reference_id: 'x', duplicate_determination: 'duplicate' }, 'uuid_parsing', ['body', 0, 'reference_id']],
    ['no reference id', { duplicate_determination: 'canonical', canonical_reference_id: A }, 'missing', ['body', 0, 'reference_id']],
    ['an unknown determination', { reference_id: A, duplicate_determination: 'bogus', canonical_reference_id: A }, 'enum', ['body', 0, 'duplicate_determination']],
    ['a detail that is no string', { reference_id: A, duplicate_determination: 'canonical', canonical_reference_id: A, detail: 5 }, 'string_type', ['body', 0, 'detail']],
  ])('when an item has %s, then only that field issue is reported (pydantic runs the iff rule only on an item whose fields are valid)', (_case, item, type, loc) => {
    const result = validate(MakeDuplicateDecisionsIn, [item], 'body');
    expect(!result.ok && result.errors.map((issue) => [issue.type, issue.loc])).toEqual([[type, loc]]);
  });

  it('when another determination is sent, then it is an enum error', () => {
    const result = validate(MakeDuplicateDecisionsIn, [{ reference_id: A, duplicate_determination: 'unsearchable' }], 'body');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'enum', loc: ['body', 0, 'duplicate_determination'] });
  });

  it('when 0 or 11 decisions are sent, then the 1–10 bounds reject them', () => {
    expect(validate(MakeDuplicateDecisionsIn, [], 'body').ok).toBe(false);
    const eleven = Array.from({ length: 11 }, () => ({ reference_id: A, duplicate_determination: 'canonical' }));
    const result = validate(MakeDuplicateDecisionsIn, eleven, 'body');
    expect(!result.ok && result.errors[0].type).toBe('too_long');
  });
});

describe('invoke and candidate bodies', () => {
  it('when invoke lists reference ids, then it is valid', () => {
    expect(validate(InvokeDeduplicationIn, { reference_ids: [A, B] }, 'body').ok).toBe(true);
  });

  it('when the candidate evaluation body has an unknown top-level key, then it is extra_forbidden', () => {
    const result = validate(DeduplicationCandidatesIn, { reference_ids: [A], k: 5 }, 'body');
    expect(!result.ok && result.errors[0]).toMatchObject({ type: 'extra_forbidden', loc: ['body', 'k'] });
  });
});
