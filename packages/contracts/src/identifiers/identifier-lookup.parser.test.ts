import { lookupIdentifiersFromQuery, parseIdentifierLookup, splitLookupIdentifiers } from './identifier-lookup.parser';
import { identifierIdentity, identifierIdentityKey, identifierMergeKey } from './identifier-identity';

const V7 = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';

describe('parseIdentifierLookup (§6.4)', () => {
  it('when given a bare v7 uuid in any accepted form, then it is a reference id lookup', () => {
    expect(parseIdentifierLookup(V7.toUpperCase())).toEqual({ ok: true, lookup: { kind: 'reference_id', reference_id: V7 } });
  });

  it('when given <type>:<value>, then the value is split on the first colon and kept as given', () => {
    expect(parseIdentifierLookup('doi:https://doi.org/10.1/X:Y')).toEqual({
      ok: true,
      lookup: { kind: 'identifier', identifier_type: 'doi', identifier: 'https://doi.org/10.1/X:Y' },
    });
    expect(parseIdentifierLookup('pm_id:123')).toEqual({ ok: true, lookup: { kind: 'identifier', identifier_type: 'pm_id', identifier: '123' } });
  });

  it('when given other:<name>:<value>, then it splits on the first two colons', () => {
    expect(parseIdentifierLookup('other:isbn:978:0')).toEqual({
      ok: true,
      lookup: { kind: 'identifier', identifier_type: 'other', other_identifier_name: 'isbn', identifier: '978:0' },
    });
  });

  it('when there is no type and the text is not a v4/v7 uuid, then the exact 400 message is returned', () => {
    expect(parseIdentifierLookup('10.1234/abc')).toEqual({
      ok: false,
      message: 'Invalid identifier lookup string: 10.1234/abc. Must be UUID if no identifier type is specified.',
    });
    expect(parseIdentifierLookup('01970c2e-5b1a-1c3d-9e8f-0a1b2c3d4e5f').ok).toBe(false);
  });

  it('when the type is unknown or not lowercase, then "Unknown identifier type" is returned', () => {
    expect(parseIdentifierLookup('isbn:123')).toEqual({ ok: false, message: 'Invalid identifier lookup string: isbn:123. Unknown identifier type: isbn.' });
    expect(parseIdentifierLookup('DOI:10.1/x')).toEqual({ ok: false, message: 'Invalid identifier lookup string: DOI:10.1/x. Unknown identifier type: DOI.' });
  });

  it('when other lacks a name, then the other-name message is returned', () => {
    expect(parseIdentifierLookup('other:123')).toEqual({
      ok: false,
      message: 'Invalid identifier lookup string: other:123. Other identifier type must include other identifier name.',
    });
  });
});

describe('splitLookupIdentifiers (§7.2)', () => {
  it('when one value is given, then it is split on commas; when several are given, then each is one entry', () => {
    expect(splitLookupIdentifiers('doi:10.1/a,pm_id:1')).toEqual(['doi:10.1/a', 'pm_id:1']);
    expect(splitLookupIdentifiers(['doi:10.1/a,b', 'pm_id:1'])).toEqual(['doi:10.1/a,b', 'pm_id:1']);
  });
});

describe('identifier identity (§6.3)', () => {
  it('when identities are taken, then the tuple is (type, string identifier, other name or null)', () => {
    expect(identifierIdentity({ identifier: 123, identifier_type: 'pm_id' })).toEqual(['pm_id', '123', null]);
    expect(identifierIdentity({ identifier: 'x', identifier_type: 'other', other_identifier_name: 'isbn' })).toEqual(['other', 'x', 'isbn']);
  });

  it('when two DOIs differ only in case, then their identity keys differ', () => {
    expect(identifierIdentityKey({ identifier: '10.1/A', identifier_type: 'doi' })).not.toBe(identifierIdentityKey({ identifier: '10.1/a', identifier_type: 'doi' }));
  });

  it('when merge keys are taken, then the value is ignored', () => {
    expect(identifierMergeKey({ identifier: '10.1/A', identifier_type: 'doi' })).toBe(identifierMergeKey({ identifier: '10.9/B', identifier_type: 'doi' }));
  });
});

describe('lookupIdentifiersFromQuery', () => {
  it('when 100 identifiers are given, then they are accepted; at 101, then a 422 list-length issue is returned', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `pm_id:${i + 1}`);
    expect(lookupIdentifiersFromQuery(hundred.join(','))).toEqual({ ok: true, identifiers: hundred });
    const result = lookupIdentifiersFromQuery([...hundred, 'pm_id:101']);
    expect(!result.ok && result.issue).toMatchObject({
      type: 'too_long',
      loc: ['query', 'identifier'],
      msg: 'List should have at most 100 items after validation, not 101',
      ctx: { field_type: 'List', max_length: 100, actual_length: 101 },
    });
  });
});
