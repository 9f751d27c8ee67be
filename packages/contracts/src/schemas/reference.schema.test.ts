import { validate } from '../validation/validate';
import { enhancementFileInputRobotVersion, parseRobotResultLine, RobotResultValidationEntry } from './enhancement.schema';
import { Reference, ReferenceFileInput, ReferenceFileInputEnvelope, ReferenceSearchQuery, ReferenceSearchResult } from './reference.schema';

const REF = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
const ENH = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e60';

const IMPORT_LINE =
  '{"visibility":"public","identifiers":[{"identifier":"https://doi.org/10.1234/ABC.5","identifier_type":"doi"},{"identifier":12345678,"identifier_type":"pm_id"}],"enhancements":[{"source":"importer-x","visibility":"public","processor_version":"2.1","content":{"enhancement_type":"bibliographic","title":"A title","publication_year":2024,"authorship":[{"display_name":"Ada Lovelace","position":"first"}]}}]}';

describe('ReferenceFileInput (import-file line, §8.5)', () => {
  it('when the §17.3 line is validated, then the DOI is cleaned, the PubMed id is a number and the robot version is 2.1', () => {
    const result = validate(ReferenceFileInput, JSON.parse(IMPORT_LINE), 'line');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.identifiers).toEqual([
      { identifier: '10.1234/ABC.5', identifier_type: 'doi' },
      { identifier: 12345678, identifier_type: 'pm_id' },
    ]);
    expect(enhancementFileInputRobotVersion(result.value.enhancements?.[0] ?? {})).toBe('2.1');
  });

  it('when both robot_version and processor_version are given, then robot_version wins', () => {
    expect(enhancementFileInputRobotVersion({ processor_version: '1', robot_version: '2' })).toBe('2');
    expect(enhancementFileInputRobotVersion({})).toBeNull();
  });

  it('when visibility and enhancements are omitted, then they default to public and []', () => {
    const result = validate(ReferenceFileInput, { identifiers: [{ identifier: 'W1', identifier_type: 'open_alex' }] }, 'line');
    expect(result.ok && result.value).toEqual({ visibility: 'public', identifiers: [{ identifier: 'W1', identifier_type: 'open_alex' }], enhancements: [] });
  });

  it('when an id is given, then it is accepted', () => {
    expect(validate(ReferenceFileInput, { id: REF, identifiers: [{ identifier: 'W1', identifier_type: 'open_alex' }] }, 'line').ok).toBe(true);
  });

  it('when the line has an unknown top-level key, no identifiers or a bad visibility, then each fails the line', () => {
    const result = validate(ReferenceFileInput, { identifiers: [], visibility: 'Public', extra: 1 }, 'line');
    expect(!result.ok && result.errors.map((issue) => `${issue.loc.join('.')}:${issue.type}`)).toEqual([
      'line.extra:extra_forbidden',
      'line.visibility:enum',
      'line.identifiers:too_short',
    ]);
    const missing = validate(ReferenceFileInput, {}, 'line');
    expect(!missing.ok && missing.errors[0]).toMatchObject({ type: 'missing', loc: ['line', 'identifiers'] });
  });

  it('when identifiers and enhancements carry unknown keys (derived_from among them, §6.5), then they are dropped while the line itself stays valid', () => {
    const line = {
      identifiers: [{ identifier_type: 'eric', identifier: 'ED12345', other_identifier_name: 'bogus', extra: true }],
      enhancements: [{ source: 's', visibility: 'public', extra: 1, derived_from: [ENH], content: { enhancement_type: 'abstract', process: 'other', abstract: 'a', extra_key: 1 } }],
    };
    const result = validate(ReferenceFileInput, line, 'line');
    expect(result.ok && JSON.stringify(result.value.identifiers)).toBe('[{"identifier":"ED12345","identifier_type":"eric"}]');
    expect(result.ok && result.value.enhancements).toEqual([
      { source: 's', visibility: 'public', processor_version: null, robot_version: null, content: { enhancement_type: 'abstract', process: 'other', abstract: 'a' } },
    ]);
  });

  it('when the envelope is used, then identifiers and enhancements stay unparsed for per-item reporting', () => {
    const result = validate(ReferenceFileInputEnvelope, { identifiers: [{ bogus: true }] }, 'line');
    expect(result.ok && result.value).toEqual({ visibility: 'public', identifiers: [{ bogus: true }], enhancements: [] });
    const extra = validate(ReferenceFileInputEnvelope, { identifiers: [{}], nope: 1 }, 'line');
    expect(!extra.ok && extra.errors[0].type).toBe('extra_forbidden');
  });

  it('when a line is a reference as the API returns it (id and duplicate_decision included), then it is valid as an import line', () => {
    const readBack = { visibility: 'public', id: ENH, identifiers: [{ identifier_type: 'doi', identifier: '10.1000/x' }], enhancements: [], duplicate_decision: { duplicate_determination: 'canonical', canonical_reference_id: null } };
    for (const schema of [ReferenceFileInput, ReferenceFileInputEnvelope]) {
      expect(validate(schema, readBack, 'line').ok).toBe(true);
      expect(validate(schema, { ...readBack, duplicate_decision: null }, 'line').ok).toBe(true);
      const malformed = validate(schema, { ...readBack, duplicate_decision: { duplicate_determination: 'pending' } }, 'line');
      expect(!malformed.ok && malformed.errors[0].loc.slice(0, 2)).toEqual(['line', 'duplicate_decision']);
    }
  });

  it("when a line's own id is null or a UUID of a version the API would refuse, then the line is still valid (the id is ignored); text that is no UUID is not", () => {
    const line = { identifiers: [{ identifier_type: 'doi', identifier: '10.1000/x' }] };
    for (const id of [null, 'c232ab00-9414-11ec-b3c8-9f6bdeced846', '00000000-0000-0000-0000-000000000000', ENH]) {
      expect({ id, ok: validate(ReferenceFileInput, { ...line, id }, 'line').ok }).toEqual({ id, ok: true });
    }
    const refused = validate(ReferenceFileInputEnvelope, { ...line, id: 'abc' }, 'line');
    expect(!refused.ok && refused.errors[0]).toMatchObject({ type: 'uuid_parsing', loc: ['line', 'id'] });
  });

  it('when an import enhancement misses source or visibility, then they are reported', () => {
    const result = validate(ReferenceFileInput, { identifiers: [{ identifier: 'W1', identifier_type: 'open_alex' }], enhancements: [{ content: { enhancement_type: 'abstract', process: 'other', abstract: 'a' } }] }, 'line');
    expect(!result.ok && result.errors.map((issue) => issue.loc.join('.'))).toEqual(['line.enhancements.0.source', 'line.enhancements.0.visibility']);
  });
});

describe('Reference (API body and robot reference-file line)', () => {
  const reference = {
    visibility: 'restricted',
    id: REF,
    identifiers: [{ identifier: '10.1234/x', identifier_type: 'doi' }],
    enhancements: [
      {
        id: ENH,
        reference_id: REF,
        source: 'openalex',
        visibility: 'public',
        robot_version: '1.2.0',
        derived_from: [ENH],
        created_at: '2026-01-31T12:00:00Z',
        content: { enhancement_type: 'abstract', process: 'other', abstract: 'text' },
      },
    ],
  };

  it('when a full reference is validated, then it passes unchanged', () => {
    const result = validate(Reference, structuredClone(reference), 'body');
    expect(result.ok && result.value).toEqual(reference);
  });

  it('when only the id is given, then visibility defaults to public and lists to null', () => {
    const result = validate(Reference, { id: REF }, 'body');
    expect(result.ok && result.value).toEqual({ id: REF, visibility: 'public', identifiers: null, enhancements: null });
  });

  it('when the id is a v1 uuid or an enhancement lacks its reference_id, then both are reported', () => {
    const bad = structuredClone(reference) as Record<string, unknown> & { enhancements: Record<string, unknown>[] };
    bad.id = '01970c2e-5b1a-1c3d-9e8f-0a1b2c3d4e5f';
    delete bad.enhancements[0].reference_id;
    const result = validate(Reference, bad, 'body');
    expect(!result.ok && result.errors.map((issue) => `${issue.loc.join('.')}:${issue.type}`)).toEqual([
      'body.id:uuid_version',
      'body.enhancements.0.reference_id:missing',
    ]);
  });

  it('when the reference carries its active duplicate decision, then duplicate_decision is an object or null', () => {
    const decided = { ...structuredClone(reference), duplicate_decision: { duplicate_determination: 'duplicate', canonical_reference_id: ENH } };
    expect(validate(Reference, structuredClone(decided), 'body')).toEqual({ ok: true, value: decided });
    expect(validate(Reference, { id: REF, duplicate_decision: null }, 'body').ok).toBe(true);
    const bad = validate(Reference, { id: REF, duplicate_decision: 'canonical' }, 'body');
    expect(!bad.ok && bad.errors[0].loc).toEqual(['body', 'duplicate_decision']);
    expect(validate(Reference, { id: REF, duplicate_decision: { duplicate_determination: 'pending', canonical_reference_id: null } }, 'body').ok).toBe(false);
  });

  it('when a top-level enhancement_type mirror is present on an enhancement, then it is ignored (D16)', () => {
    const mirrored = structuredClone(reference);
    (mirrored.enhancements[0] as Record<string, unknown>).enhancement_type = 'abstract';
    expect(validate(Reference, mirrored, 'body').ok).toBe(true);
  });
});

describe('robot result-file lines (§12.4)', () => {
  it('when a line is an enhancement, then it is classified as one with defaults applied', () => {
    const parsed = parseRobotResultLine({
      reference_id: REF,
      source: 'abstract-bot',
      visibility: 'public',
      robot_version: '1.0.0',
      content: { enhancement_type: 'abstract', process: 'other', abstract: '…' },
    });
    expect(parsed).toMatchObject({ kind: 'enhancement', enhancement: { reference_id: REF, id: null, derived_from: null, created_at: null } });
  });

  it('when an enhancement line carries keys the contract does not declare, then the enhancement keeps none of them', () => {
    const parsed = parseRobotResultLine({
      reference_id: REF,
      source: 'abstract-bot',
      visibility: 'public',
      confidence: 0.9,
      content: { enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 's', label: 'l', value: true, note: 'x', data: { kept: { nested: 1 } } }], extra_key: 1 },
    });
    expect(parsed).toEqual({
      kind: 'enhancement',
      enhancement: {
        reference_id: REF,
        source: 'abstract-bot',
        visibility: 'public',
        id: null,
        robot_version: null,
        derived_from: null,
        created_at: null,
        content: { enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 's', label: 'l', value: true, score: null, data: { kept: { nested: 1 } } }] },
      },
    });
  });

  it('when a line holds what JSON cannot carry through (deep nesting, an infinite number, a NUL in a key), then it is invalid, saying which', () => {
    const enhancement = (data: string) => JSON.parse(`{"reference_id":"${REF}","source":"s","visibility":"public","content":{"enhancement_type":"raw","source_export_date":"2024-01-01T00:00:00Z","description":"d","data":${data}}}`) as unknown;
    expect(parseRobotResultLine(enhancement(`${'['.repeat(10_000)}${']'.repeat(10_000)}`))).toEqual({ kind: 'invalid', reason: 'JSON is nested deeper than 100 levels' });
    expect(parseRobotResultLine(enhancement('{"x":-1e999}'))).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/^A number is out of range/) });
    expect(parseRobotResultLine(enhancement('{"k\\u0000":1}'))).toEqual({ kind: 'invalid', reason: 'The object key "k\\u0000" contains a NUL character' });
  });

  it('when an enhancement line spells numbers, booleans and dates as the reference implementation reads them leniently, then it is an enhancement with their JSON types', () => {
    const parsed = parseRobotResultLine({
      reference_id: REF,
      source: 's',
      visibility: 'public',
      content: { enhancement_type: 'bibliographic', publication_year: '2020', publication_date: 1577923200 },
    });
    expect(parsed).toMatchObject({ kind: 'enhancement', enhancement: { content: { publication_year: 2020, publication_date: '2020-01-02' } } });
    const annotation = parseRobotResultLine({ reference_id: REF, source: 's', visibility: 'public', content: { enhancement_type: 'annotation', annotations: [{ annotation_type: 'score', scheme: 's', label: 'l', score: '0.5' }] } });
    expect(annotation).toMatchObject({ kind: 'enhancement', enhancement: { content: { annotations: [{ score: 0.5 }] } } });
  });

  it('when a line is a LinkedRobotError, then it is classified as an error', () => {
    expect(parseRobotResultLine({ reference_id: REF, message: 'No abstract available from any source.' })).toEqual({
      kind: 'error',
      error: { reference_id: REF, message: 'No abstract available from any source.' },
    });
  });

  it('when a line is neither, then it is invalid with the reasons of the closest shape', () => {
    expect(parseRobotResultLine({ reference_id: REF, source: 's', visibility: 'public', content: { enhancement_type: 'abstract' } })).toEqual({
      kind: 'invalid',
      reason: 'content.process: Field required; content.abstract: Field required',
    });
    expect(parseRobotResultLine({ reference_id: 'x' })).toEqual({
      kind: 'invalid',
      reason: 'message: Field required; reference_id: Input should be a valid UUID, unable to parse string as a UUID',
    });
    expect(parseRobotResultLine(42).kind).toBe('invalid');
  });

  it('when validation-file entries are checked, then reference_id and error are each optional', () => {
    for (const entry of [{ reference_id: REF }, { reference_id: REF, error: 'e' }, { error: 'Entry 3 could not be parsed: x.' }]) {
      expect(validate(RobotResultValidationEntry, entry, 'line').ok).toBe(true);
    }
  });
});

describe('search', () => {
  it('when only q is given, then page defaults to 1; when page is out of 1..500, then it is rejected', () => {
    const result = validate(ReferenceSearchQuery, { q: 'title:climate' }, 'query');
    expect(result.ok && result.value).toEqual({ q: 'title:climate', page: 1 });
    const bad = validate(ReferenceSearchQuery, { q: '', page: '501', annotation: 'a/b' }, 'query');
    expect(!bad.ok && bad.errors.map((issue) => `${issue.loc.join('.')}:${issue.type}`)).toEqual(['query.q:string_too_short', 'query.page:less_than_equal']);
  });

  it('when repeatable filters are given once, then they become lists', () => {
    const result = validate(ReferenceSearchQuery, { q: 'x', annotation: 'inclusion:destiny@0.5', concept: ['a,b', 'c'], start_year: '2000' }, 'query');
    expect(result.ok && result.value).toMatchObject({ annotation: ['inclusion:destiny@0.5'], concept: ['a,b', 'c'], start_year: 2000 });
  });

  it('when a search hit carries its active determination, then it is the bare duplicate_determination (the index form)', () => {
    const page = { total: { count: 1, is_lower_bound: false }, page: { count: 1, number: 1 } };
    expect(validate(ReferenceSearchResult, { ...page, references: [{ id: REF, duplicate_determination: 'canonical' }] }, 'body').ok).toBe(true);
    expect(validate(ReferenceSearchResult, { ...page, references: [{ id: REF, duplicate_determination: 'pending' }] }, 'body').ok).toBe(false);
  });

  it('when a search result is checked, then total carries count and is_lower_bound', () => {
    expect(validate(ReferenceSearchResult, { total: { count: 1, is_lower_bound: false }, page: { count: 1, number: 1 }, references: [{ id: REF }] }, 'body').ok).toBe(true);
    expect(validate(ReferenceSearchResult, { total: { count: 1 }, page: { count: 1, number: 1 }, references: [] }, 'body').ok).toBe(false);
  });
});
