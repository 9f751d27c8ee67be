import { validate } from '../validation/validate';
import { EnhancementContent } from './enhancement-content.schema';

const check = (content: unknown) => validate(EnhancementContent, content, 'body');
const issueTypes = (content: unknown): string[] => {
  const result = check(content);
  return result.ok ? [] : result.errors.map((issue) => `${issue.loc.slice(1).join('.')}:${issue.type}`);
};

describe('bibliographic', () => {
  it('when every field is given, then it validates and pagination is normalised', () => {
    const result = check({
      enhancement_type: 'bibliographic',
      authorship: [{ display_name: 'Ada Lovelace', orcid: '0000-0001', position: 'first' }],
      cited_by_count: 3,
      created_date: '2024-01-02',
      updated_date: '2024-01-03',
      publication_date: '2024-01-01',
      publication_year: 2024,
      publisher: 'P',
      title: 'T',
      pagination: { volume: '\u00a012 ', issue: '', first_page: '1', last_page: '9' },
      publication_venue: { display_name: 'J', venue_type: 'journal', issn: ['1234-5678'], issn_l: '1234-5678', host_organization_name: 'H' },
    });
    expect(result.ok && result.value).toMatchObject({ pagination: { volume: '12', issue: null, first_page: '1', last_page: '9' } });
  });

  it('when only the type is given, then every optional field defaults to null', () => {
    const result = check({ enhancement_type: 'bibliographic' });
    expect(result.ok && result.value).toMatchObject({ title: null, authorship: null, pagination: null, publication_year: null });
  });

  it('when author position, venue type or dates are wrong, then each is reported', () => {
    expect(
      issueTypes({
        enhancement_type: 'bibliographic',
        authorship: [{ display_name: 'A', position: 'FIRST' }, { position: 'last' }],
        publication_date: '2024-13-01',
        publication_venue: { venue_type: 'magazine' },
        publication_year: 'c. 2024',
      }),
    ).toEqual([
      'authorship.0.position:enum',
      'authorship.1.display_name:missing',
      'publication_date:date_from_datetime_parsing',
      'publication_year:int_parsing',
      'publication_venue.venue_type:enum',
    ]);
  });
});

describe('abstract', () => {
  it.each([['uninverted'], ['closed_api'], ['other']])('when process is %s, then it validates', (process) => {
    expect(check({ enhancement_type: 'abstract', process, abstract: 'text' }).ok).toBe(true);
  });

  it('when process is upper case or the abstract is missing, then both are reported', () => {
    expect(issueTypes({ enhancement_type: 'abstract', process: 'OTHER' })).toEqual(['abstract:missing', 'process:enum']);
  });
});

describe('annotation', () => {
  it('when a boolean annotation omits score and data, then they default to null and {}', () => {
    const result = check({ enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 'inclusion:destiny', label: 'include', value: true }] });
    expect(result.ok && result.value).toEqual({
      enhancement_type: 'annotation',
      annotations: [{ annotation_type: 'boolean', scheme: 'inclusion:destiny', label: 'include', value: true, score: null, data: {} }],
    });
  });

  it('when a score annotation is given, then score is required and data defaults to {}', () => {
    const ok = check({ enhancement_type: 'annotation', annotations: [{ annotation_type: 'score', scheme: 's', label: 'l', score: 0.4 }] });
    expect(ok.ok && ok.value).toMatchObject({ annotations: [{ data: {} }] });
    expect(issueTypes({ enhancement_type: 'annotation', annotations: [{ annotation_type: 'score', scheme: 's', label: 'l' }] })).toEqual(['annotations.0.score:missing']);
  });

  it('when a boolean annotation has no value, then it is missing', () => {
    expect(issueTypes({ enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 's', label: 'l' }] })).toEqual(['annotations.0.value:missing']);
  });

  it('when the scheme contains "/", then the ^[^/]+$ pattern fails', () => {
    expect(issueTypes({ enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 'a/b', label: 'l', value: true }] })).toEqual([
      'annotations.0.scheme:string_pattern_mismatch',
    ]);
  });

  it('when annotations are empty or lack annotation_type, then min 1 and the discriminator are enforced', () => {
    expect(issueTypes({ enhancement_type: 'annotation', annotations: [] })).toEqual(['annotations:too_short']);
    expect(issueTypes({ enhancement_type: 'annotation', annotations: [{ scheme: 's', label: 'l', value: true }] })).toEqual(['annotations.0:union_tag_not_found']);
  });
});

describe('location', () => {
  it.each([['publishedVersion'], ['acceptedVersion'], ['submittedVersion'], ['other']])('when version is the camelCase DriverVersion %s, then it validates', (version) => {
    expect(check({ enhancement_type: 'location', locations: [{ version, is_oa: true, landing_page_url: 'https://x.org/a', pdf_url: null }] }).ok).toBe(true);
  });

  it('when version is snake_case, a url is not http(s) or locations are empty, then each is reported', () => {
    expect(issueTypes({ enhancement_type: 'location', locations: [{ version: 'published_version', pdf_url: 'mailto:a@b.c' }] })).toEqual([
      'locations.0.version:enum',
      'locations.0.pdf_url:url_scheme',
    ]);
    expect(issueTypes({ enhancement_type: 'location', locations: [] })).toEqual(['locations:too_short']);
  });
});

describe('reference_association', () => {
  it('when associated ids mix external identifiers and repository uuids, then it validates and identifiers are normalised', () => {
    const result = check({
      enhancement_type: 'reference_association',
      association_type: 'cites',
      associated_reference_ids: [{ identifier: 'doi:10.1234/X', identifier_type: 'doi' }, '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f'],
    });
    expect(result.ok && result.value).toMatchObject({ associated_reference_ids: [{ identifier: '10.1234/X' }, '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f'] });
  });

  it('when the association type is unknown or no ids are given, then both are reported', () => {
    expect(issueTypes({ enhancement_type: 'reference_association', association_type: 'cited_by', associated_reference_ids: [] })).toEqual([
      'associated_reference_ids:too_short',
      'association_type:enum',
    ]);
  });
});

describe('linked_data', () => {
  it('when data has an http(s) @context, then it validates', () => {
    expect(check({ enhancement_type: 'linked_data', vocabulary_uri: 'https://vocab.evidence-repository.org/', data: { '@context': 'https://vocab.evidence-repository.org/context.jsonld' } }).ok).toBe(true);
  });

  it.each([[{}], [{ '@context': 'not a url' }], [{ '@context': { a: 1 } }]])('when data is %p, then the @context rule fails', (data) => {
    const result = check({ enhancement_type: 'linked_data', vocabulary_uri: 'https://v.org/', data });
    expect(!result.ok && result.errors).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'data'],
        msg: "Value error, data must contain an '@context' key whose value is an http(s) URL",
        input: data,
        ctx: { error: {} },
      },
    ]);
  });
});

describe('raw', () => {
  it('when data is truthy, then it validates and metadata defaults to {}', () => {
    const result = check({ enhancement_type: 'raw', source_export_date: '2026-01-31T12:00:00', description: 'd', data: [0] });
    expect(result.ok && result.value).toMatchObject({ metadata: {}, data: [0] });
  });

  it.each([[null], [false], [0], [''], [[]], [{}]])('when data is %p, then it is rejected as not populated', (data) => {
    const result = check({ enhancement_type: 'raw', source_export_date: '2026-01-31T12:00:00Z', description: 'd', data });
    expect(!result.ok && result.errors).toEqual([
      { type: 'value_error', loc: ['body', 'data'], msg: 'Value error, data must be populated on a raw enhancement', input: data, ctx: { error: {} } },
    ]);
  });

  it('when data or the export date are absent, then they are missing', () => {
    expect(issueTypes({ enhancement_type: 'raw', description: 'd' })).toEqual(['source_export_date:missing', 'data:missing']);
  });
});

describe('full_text', () => {
  it('when only file_url is given, then mime_type defaults to application/pdf', () => {
    const result = check({ enhancement_type: 'full_text', file_url: 'https://x.org/a.pdf' });
    expect(result.ok && result.value).toMatchObject({ mime_type: 'application/pdf', byte_size: null, version: null });
  });

  it('when file_url is missing or retrieved_at is not a datetime, then both are reported', () => {
    expect(issueTypes({ enhancement_type: 'full_text', retrieved_at: 'yesterday' })).toEqual(['file_url:missing', 'retrieved_at:datetime_from_date_parsing']);
  });
});

describe('the enhancement_type discriminator', () => {
  it('when enhancement_type is missing, then union_tag_not_found is reported', () => {
    expect(issueTypes({ process: 'other', abstract: 'x' })).toEqual([':union_tag_not_found']);
  });

  it('when enhancement_type has the wrong case, then union_tag_invalid names all eight types', () => {
    const result = check({ enhancement_type: 'Abstract' });
    expect(!result.ok && result.errors[0].ctx).toEqual({
      discriminator: "'enhancement_type'",
      tag: 'Abstract',
      expected_tags: "'bibliographic', 'abstract', 'annotation', 'location', 'reference_association', 'linked_data', 'raw', 'full_text'",
    });
  });
});

describe('unknown keys (§1.4)', () => {
  it('when content and its nested objects carry keys the contract does not declare, then they are dropped', () => {
    const bibliographic = check({
      enhancement_type: 'bibliographic',
      extra_key: 1,
      authorship: [{ display_name: 'A', position: 'first', affiliation: 'x' }],
      pagination: { volume: '1', chapter: '2' },
      publication_venue: { display_name: 'J', impact: 9 },
    });
    expect(bibliographic.ok && bibliographic.value).toMatchObject({
      authorship: [{ display_name: 'A', orcid: null, position: 'first' }],
      pagination: { volume: '1', issue: null, first_page: null, last_page: null },
      publication_venue: { display_name: 'J', venue_type: null, issn: null, issn_l: null, host_organization_name: null },
    });
    expect(JSON.stringify(bibliographic.ok && bibliographic.value)).not.toMatch(/extra_key|affiliation|chapter|impact/);

    const abstract = check({ enhancement_type: 'abstract', process: 'other', abstract: 'a', extra_key: 1 });
    expect(abstract.ok && abstract.value).toEqual({ enhancement_type: 'abstract', process: 'other', abstract: 'a' });

    const annotation = check({ enhancement_type: 'annotation', annotations: [{ annotation_type: 'score', scheme: 's', label: 'l', score: 0.5, weight: 2 }], extra: 1 });
    expect(annotation.ok && annotation.value).toEqual({ enhancement_type: 'annotation', annotations: [{ annotation_type: 'score', scheme: 's', label: 'l', score: 0.5, data: {} }] });

    const location = check({ enhancement_type: 'location', locations: [{ is_oa: true, host: 'x' }] });
    expect(location.ok && Object.keys(location.value.enhancement_type === 'location' ? location.value.locations[0] : {}).sort()).toEqual(
      ['extra', 'is_oa', 'landing_page_url', 'license', 'pdf_url', 'version'],
    );

    const association = check({ enhancement_type: 'reference_association', association_type: 'cites', associated_reference_ids: [{ identifier_type: 'doi', identifier: '10.1234/a', note: 'n' }] });
    expect(association.ok && JSON.stringify(association.value)).toBe(
      '{"enhancement_type":"reference_association","association_type":"cites","associated_reference_ids":[{"identifier":"10.1234/a","identifier_type":"doi"}]}',
    );
  });

  it('when a variant holds free-form JSON (raw data and metadata, linked_data data, annotation data, location extra), then it is kept whole', () => {
    const nested = { anything: { deep: [1, { key: 'v' }] }, other: true };
    const raw = check({ enhancement_type: 'raw', source_export_date: '2026-01-31T12:00:00', description: 'd', metadata: nested, data: nested });
    expect(raw.ok && raw.value).toMatchObject({ metadata: nested, data: nested });
    const linked = check({ enhancement_type: 'linked_data', vocabulary_uri: 'https://vocab.example/v', data: { '@context': 'https://vocab.example/ctx', ...nested } });
    expect(linked.ok && linked.value).toMatchObject({ data: { '@context': 'https://vocab.example/ctx', ...nested } });
    const annotation = check({ enhancement_type: 'annotation', annotations: [{ annotation_type: 'boolean', scheme: 's', label: 'l', value: true, data: nested }] });
    expect(annotation.ok && annotation.value).toMatchObject({ annotations: [{ data: nested }] });
    const location = check({ enhancement_type: 'location', locations: [{ extra: nested }] });
    expect(location.ok && location.value).toMatchObject({ locations: [{ extra: nested }] });
  });
});
