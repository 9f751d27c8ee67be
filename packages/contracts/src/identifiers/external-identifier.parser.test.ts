import { parseExternalIdentifier } from './external-identifier.parser';
import { normaliseDoi, normaliseEric, normaliseOpenAlex, normaliseProQuest, normalisePaginationInPlace } from './identifier.normaliser';

describe('DOI normalisation (§6.3 steps 1–6)', () => {
  it('when the §17.3 example is parsed, then the doi.org prefix is removed and the case kept', () => {
    const parsed = parseExternalIdentifier({ identifier: 'https://doi.org/10.1234/ABC.5', identifier_type: 'doi' });
    expect(parsed).toEqual({ ok: true, identifier: { identifier: '10.1234/ABC.5', identifier_type: 'doi' } });
  });

  it('when the DOI is decomposed Unicode, then it is NFC-composed (step 1)', () => {
    expect(normaliseDoi('10.1234/cafe\u0301')).toBe('10.1234/caf\u00e9');
  });

  it('when the DOI holds a no-break space or a Unicode hyphen, then they become space and "-" (step 2)', () => {
    expect(normaliseDoi('\u00a010.1234/a\u2010b\u00a0')).toBe('10.1234/a-b');
  });

  it.each([
    ['  10.1234/abc  ', '10.1234/abc'],
    ['http://doi.org/10.1234/abc', '10.1234/abc'],
    ['https://dx.doi.org/10.1234/abc', '10.1234/abc'],
    ['HTTPS://DX.DOI.ORG/10.1234/abc', '10.1234/abc'],
    ['doi.org/10.1234/abc', '10.1234/abc'],
    ['dx.doi.org/10.1234/abc', '10.1234/abc'],
    ['doi:10.1234/abc', '10.1234/abc'],
    ['DOI:   10.1234/abc', '10.1234/abc'],
    ['https://doi.org/doi: 10.1234/ABC ', '10.1234/ABC'],
  ])('when given %p, then it becomes %p (steps 3–6)', (input, expected) => {
    expect(normaliseDoi(input)).toBe(expected);
  });

  it('when the DOI uses Unicode decimal digits in the registrant, then it is valid (\\p{Nd})', () => {
    expect(parseExternalIdentifier({ identifier: '10.\u0661\u0662\u0663\u0664/abc', identifier_type: 'doi' }).ok).toBe(true);
  });

  it.each([['10.123/abc'], ['11.1234/abc'], ['10.1234/'], ['10.1234/a b'], ['https://example.org/10.1234/abc']])(
    'when the DOI is %p, then it fails the pattern',
    (identifier) => {
      const parsed = parseExternalIdentifier({ identifier, identifier_type: 'doi' });
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.issues[0].type).toBe('string_pattern_mismatch');
    },
  );

  it('when the input object is parsed, then it is not modified', () => {
    const raw = { identifier: 'doi:10.1234/abc', identifier_type: 'doi' };
    parseExternalIdentifier(raw);
    expect(raw.identifier).toBe('doi:10.1234/abc');
  });
});

describe('pm_id', () => {
  it.each([[12345678], ['12345678'], [' 42 '], [7.0]])('when given %p, then it is stored as an integer', (identifier) => {
    const parsed = parseExternalIdentifier({ identifier, identifier_type: 'pm_id' });
    expect(parsed.ok && typeof parsed.identifier.identifier).toBe('number');
  });

  it.each([['1.0'], [' 1 '], ['1_0']])('when given %p (text pydantic reads as an integer), then it is that integer', (identifier) => {
    const parsed = parseExternalIdentifier({ identifier, identifier_type: 'pm_id' });
    expect(parsed.ok && parsed.identifier.identifier).toBe(identifier === '1_0' ? 10 : 1);
  });

  it('when given 12345678 as text, then the JSON value is the number 12345678', () => {
    const parsed = parseExternalIdentifier({ identifier: '12345678', identifier_type: 'pm_id' });
    expect(parsed).toEqual({ ok: true, identifier: { identifier: 12345678, identifier_type: 'pm_id' } });
  });

  it.each([
    [0, 'greater_than'],
    [-3, 'greater_than'],
    [1.5, 'int_from_float'],
    ['12a', 'int_parsing'],
    ['1.5', 'int_parsing'],
  ])('when given %p, then it fails with %s', (identifier, type) => {
    const parsed = parseExternalIdentifier({ identifier, identifier_type: 'pm_id' });
    expect(!parsed.ok && parsed.issues[0].type).toBe(type);
  });
});

describe('open_alex, eric, pro_quest and other', () => {
  it.each([
    ['https://openalex.org/W2741809807', 'W2741809807'],
    ['http://explore.openalex.org/works/W123', 'W123'],
    ['openalex.org/works/W123', 'W123'],
    ['W123 ', 'W123'],
  ])('when the OpenAlex id is %p, then it becomes %p', (input, expected) => {
    expect(normaliseOpenAlex(input)).toBe(expected);
    expect(parseExternalIdentifier({ identifier: input, identifier_type: 'open_alex' }).ok).toBe(true);
  });

  it('when an OpenAlex id does not match ^W\\d+$, then it fails', () => {
    expect(parseExternalIdentifier({ identifier: 'A123', identifier_type: 'open_alex' }).ok).toBe(false);
    expect(parseExternalIdentifier({ identifier: 'w123', identifier_type: 'open_alex' }).ok).toBe(false);
  });

  it.each([
    ['https://eric.ed.gov/?id=EJ1234567', 'EJ1234567'],
    ['https://files.eric.ed.gov/fulltext/ED123456.pdf', 'ED123456'],
    ['ED42', 'ED42'],
  ])('when the ERIC id is %p, then it becomes %p', (input, expected) => {
    expect(normaliseEric(input)).toBe(expected);
    expect(parseExternalIdentifier({ identifier: input, identifier_type: 'eric' }).ok).toBe(true);
  });

  it('when an ERIC id only contains ED/EJ digits at its end, then the unanchored search accepts it; otherwise it fails', () => {
    expect(parseExternalIdentifier({ identifier: 'prefix-ED12', identifier_type: 'eric' }).ok).toBe(true);
    expect(parseExternalIdentifier({ identifier: 'E|123', identifier_type: 'eric' }).ok).toBe(true);
    expect(parseExternalIdentifier({ identifier: 'EX123', identifier_type: 'eric' }).ok).toBe(false);
    expect(parseExternalIdentifier({ identifier: 'ED12x', identifier_type: 'eric' }).ok).toBe(false);
  });

  it.each([
    ['https://www.proquest.com/docview/1234567', '1234567'],
    ['http://search.proquest.com/docview/42', '42'],
  ])('when the ProQuest id is %p, then it becomes %p', (input, expected) => {
    expect(normaliseProQuest(input)).toBe(expected);
    expect(parseExternalIdentifier({ identifier: input, identifier_type: 'pro_quest' }).ok).toBe(true);
  });

  it('when a ProQuest id does not end with digits, then it fails', () => {
    expect(parseExternalIdentifier({ identifier: '123abc', identifier_type: 'pro_quest' }).ok).toBe(false);
  });

  it('when an other identifier lacks other_identifier_name, then it fails; with it, it passes unchanged', () => {
    const missing = parseExternalIdentifier({ identifier: ' X ', identifier_type: 'other' });
    expect(!missing.ok && missing.issues[0]).toMatchObject({ type: 'missing', loc: ['line', 'other_identifier_name'] });
    expect(parseExternalIdentifier({ identifier: ' X ', identifier_type: 'other', other_identifier_name: 'isbn' })).toEqual({
      ok: true,
      identifier: { identifier: ' X ', identifier_type: 'other', other_identifier_name: 'isbn' },
    });
  });
});

describe('the identifier_type discriminator', () => {
  it('when identifier_type is missing, then union_tag_not_found is reported', () => {
    const parsed = parseExternalIdentifier({ identifier: '10.1234/abc' });
    expect(!parsed.ok && parsed.issues[0]).toMatchObject({ type: 'union_tag_not_found', msg: "Unable to extract tag using discriminator 'identifier_type'" });
    expect(!parsed.ok && parsed.message).toBe("(root): Unable to extract tag using discriminator 'identifier_type'");
  });

  it('when identifier_type is upper case, then union_tag_invalid lists the lowercase tags', () => {
    const parsed = parseExternalIdentifier({ identifier: '10.1234/abc', identifier_type: 'DOI' });
    expect(!parsed.ok && parsed.issues[0]).toMatchObject({
      type: 'union_tag_invalid',
      msg: "Input tag 'DOI' found using 'identifier_type' does not match any of the expected tags: 'doi', 'pm_id', 'open_alex', 'eric', 'pro_quest', 'other'",
    });
  });

  it('when the identifier is not an object, then it fails', () => {
    expect(parseExternalIdentifier('10.1234/abc').ok).toBe(false);
  });
});

describe('pagination normalisation', () => {
  it('when pagination holds no-break spaces, padding and blanks, then values are cleaned and blanks become null', () => {
    expect(normalisePaginationInPlace({ volume: '\u00a012\u00a0', issue: '   ', first_page: '1 0', last_page: null })).toEqual({
      volume: '12',
      issue: null,
      first_page: '1 0',
      last_page: null,
    });
  });
});

describe('unknown keys and key order (§1.4, §6.3)', () => {
  it('when an identifier carries keys its type does not declare, then they are dropped', () => {
    const parsed = parseExternalIdentifier({ identifier_type: 'eric', identifier: 'ED12345', other_identifier_name: 'bogus', extra: true });
    expect(parsed).toEqual({ ok: true, identifier: { identifier: 'ED12345', identifier_type: 'eric' } });
  });

  it('when the keys come in another order, then they are emitted as identifier, identifier_type, other_identifier_name', () => {
    const other = parseExternalIdentifier({ other_identifier_name: 'isbn', extra: 1, identifier_type: 'other', identifier: '978-3-16' });
    expect(other.ok && JSON.stringify(other.identifier)).toBe('{"identifier":"978-3-16","identifier_type":"other","other_identifier_name":"isbn"}');
    const doi = parseExternalIdentifier({ identifier_type: 'doi', identifier: 'doi:10.1234/abc' });
    expect(doi.ok && JSON.stringify(doi.identifier)).toBe('{"identifier":"10.1234/abc","identifier_type":"doi"}');
  });

  it('when an identifier with unknown keys is invalid, then it still fails for its own reason', () => {
    const parsed = parseExternalIdentifier({ identifier_type: 'other', identifier: 'x', extra: true });
    expect(!parsed.ok && parsed.issues.map((issue) => issue.loc.join('.'))).toEqual(['line.other_identifier_name']);
  });
});
