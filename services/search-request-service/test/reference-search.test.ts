import { uuidv7, type ReferenceIdsSearchResult, type ReferenceSearchResult } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import { Client } from '@elastic/elasticsearch';
import { abstractOf, bibliographic, changed, enhancement, startSearchHarness, view, type SearchHarness } from './search-fixtures';

// Events published to the real exchange are indexed by the service; searches go through its gRPC.
describe('search-request-service reference search', () => {
  let harness: SearchHarness;
  const climate = uuidv7();
  const ocean = uuidv7();
  const forest = uuidv7();
  const canonical = uuidv7();
  const duplicate = uuidv7();

  const search = (parameters: Record<string, unknown>) => harness.call<ReferenceSearchResult>('SearchReferences', parameters);
  const ids = async (parameters: Record<string, unknown>) => (await search(parameters)).references.map((reference) => reference.id);
  const failure = async (parameters: Record<string, unknown>) => {
    const error = await search(parameters).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  };

  beforeAll(async () => {
    harness = await startSearchHarness('search-ref');
    await harness.index([
      changed(
        view(climate, [
          bibliographic(climate, {
            title: 'Climate change adaptation in coastal cities',
            publication_year: 2005,
            authorship: [
              { display_name: 'Zed Last', orcid: null, position: 'last' },
              { display_name: 'Mia Middle', orcid: null, position: 'middle' },
              { display_name: 'Ann First', orcid: null, position: 'first' },
              { display_name: 'Bob Middle', orcid: null, position: 'middle' },
            ],
          }),
          abstractOf(climate, 'Sea level rise threatens infrastructure.'),
          enhancement(climate, {
            enhancement_type: 'annotation',
            annotations: [
              { annotation_type: 'boolean', scheme: 'inclusion:destiny', label: 'include', value: true, score: 0.9, data: {} },
              { annotation_type: 'boolean', scheme: 'topic', label: 'climate', value: true, score: null, data: {} },
              { annotation_type: 'boolean', scheme: 'topic', label: 'health', value: false, score: null, data: {} },
            ],
          }),
          enhancement(climate, {
            enhancement_type: 'linked_data',
            vocabulary_uri: 'https://vocab.evidence-repository.org/',
            data: {
              '@context': 'https://vocab.evidence-repository.org/context.jsonld',
              topic: { '@id': 'https://vocab.evidence-repository.org/C001', label: 'Adaptation policy' },
              country: { '@id': 'https://vocab.evidence-repository.org/country/KE' },
              region: { '@id': 'https://vocab.evidence-repository.org/region/SSF' },
            },
          }),
        ]),
        1,
      ),
      changed(view(ocean, [bibliographic(ocean, { title: 'Ocean acidification and flood risk', publication_date: '2015-06-01' }), abstractOf(ocean, 'Climate models of the ocean.')]), 1),
      changed(view(forest, [bibliographic(forest, { title: 'Forest fires and climate', publication_year: 1999 })]), 1),
    ]);
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('when a title word is searched, then every reference with it in title or abstract is found, best first', async () => {
    const result = await search({ q: 'climate' });
    expect(result.total).toEqual({ count: 3, is_lower_bound: false });
    expect(result.page).toEqual({ count: 3, number: 1 });
    expect(new Set(result.references.map((reference) => reference.id))).toEqual(new Set([climate, ocean, forest]));
    expect(await ids({ q: 'acidification' })).toEqual([ocean]);
    expect(await ids({ q: 'nothingmatches' })).toEqual([]);
  });

  it('when a hit is returned, then it carries the deduplicated view with identifiers and enhancements', async () => {
    const [reference] = (await search({ q: 'acidification' })).references;
    expect(reference).toMatchObject({ id: ocean, visibility: 'public', identifiers: [{ identifier: `10.1234/${ocean}`, identifier_type: 'doi' }], duplicate_determination: 'canonical' });
    expect(reference.enhancements?.map((item) => item.content.enhancement_type)).toEqual(['bibliographic', 'abstract']);
  });

  it('when a phrase is searched, then only the words in that order match', async () => {
    expect(await ids({ q: '"change adaptation"' })).toEqual([climate]);
    expect(await ids({ q: '"adaptation change"' })).toEqual([]);
  });

  it('when fields are named, then authors, abstract, annotations and linked data are searchable', async () => {
    expect(await ids({ q: 'authors:Middle' })).toEqual([climate]);
    expect(await ids({ q: 'abstract:infrastructure' })).toEqual([climate]);
    expect(await ids({ q: 'title:infrastructure' })).toEqual([]);
    expect(await ids({ q: 'annotations:"topic/climate"' })).toEqual([climate]);
    expect(await ids({ q: 'annotations:"topic/health"' })).toEqual([]);
    expect(await ids({ q: 'evaluated_schemes:topic' })).toEqual([climate]);
    expect(await ids({ q: 'linked_data_labels:policy' })).toEqual([climate]);
    expect(await ids({ q: 'linked_data_concepts:"https://vocab.evidence-repository.org/C001"' })).toEqual([climate]);
  });

  it('when ranges are given, then publication_year (from the date when no year) and the year filters apply', async () => {
    expect(new Set(await ids({ q: 'publication_year:[2000 TO 2020]' }))).toEqual(new Set([climate, ocean]));
    expect(await ids({ q: 'climate', start_year: 2010 })).toEqual([ocean]);
    expect(await ids({ q: 'climate', end_year: 2000 })).toEqual([forest]);
    expect(await ids({ q: 'climate', start_year: 2000, end_year: 2010 })).toEqual([climate]);
  });

  it('when a term is negated, then references with it are left out', async () => {
    expect(new Set(await ids({ q: 'climate -flood' }))).toEqual(new Set([climate, forest]));
    expect(new Set(await ids({ q: 'climate AND NOT title:forest' }))).toEqual(new Set([climate, ocean]));
  });

  it('when annotation, concept, country and region filters are given, then they restrict the hits', async () => {
    expect(await ids({ q: 'climate', annotation: ['topic/climate'] })).toEqual([climate]);
    expect(await ids({ q: 'climate', annotation: ['topic'] })).toEqual([climate]);
    expect(await ids({ q: 'climate', annotation: ['topic/health'] })).toEqual([]);
    expect(await ids({ q: 'climate', annotation: ['inclusion:destiny@0.8'] })).toEqual([climate]);
    expect(await ids({ q: 'climate', annotation: ['inclusion:destiny@0.95'] })).toEqual([]);
    expect(await ids({ q: 'climate', concept: ['https://vocab.evidence-repository.org/C001,https://x.org/other'] })).toEqual([climate]);
    expect(await ids({ q: 'climate', country: ['ke'] })).toEqual([climate]);
    expect(await ids({ q: 'climate', country_wb_region: [' ssf '] })).toEqual([climate]);
    expect(await ids({ q: 'climate', country_wb_region: ['NAC'] })).toEqual([]);
  });

  it('when sorted by a field, then that order applies with id descending as the last tie-breaker', async () => {
    expect(await ids({ q: 'climate', sort: ['publication_year'] })).toEqual([forest, climate, ocean]);
    expect(await ids({ q: 'climate', sort: ['-publication_year'] })).toEqual([ocean, climate, forest]);
    expect(await ids({ q: 'climate', sort: ['visibility'] })).toEqual([climate, ocean, forest].sort().reverse());
  });

  it('when a parameter breaks a §7.3 rule, then the answer is 400 (or 422 for the schema) with a detail', async () => {
    const malformed = await failure({ q: 'title:(unclosed' });
    expect(malformed.httpStatus).toBe(400);
    expect(malformed.detail).toMatch(/^Elasticsearch query failed: /);
    for (const parameters of [
      { q: 'x', start_year: 2010, end_year: 2000 },
      { q: 'x', annotation: ['/label'] },
      { q: 'x', annotation: ['inclusion:destiny@1.5'] },
      { q: 'x', annotation: ['inclusion:destiny@abc'] },
      { q: 'x', concept: ['a,,b'] },
      { q: 'x', country: ['USA'] },
      { q: 'x', country_wb_region: ['XYZ'] },
      { q: 'x', sort: ['title'] },
      { q: 'x', sort: ['-abstract'] },
      { q: 'x', sort: ['no_such_field'] },
    ]) {
      const error = await failure(parameters);
      expect([parameters, error.httpStatus]).toEqual([parameters, 400]);
    }
    expect((await failure({ q: 'x', page: 501 })).httpStatus).toBe(422);
    expect((await failure({ q: '' })).httpStatus).toBe(422);
  });

  it('when a reference becomes a duplicate, then it is never a hit itself and is found through its canonical', async () => {
    const own = bibliographic(canonical, { title: 'Glacier retreat survey' });
    const duplicateTitle = bibliographic(duplicate, { title: 'Glacier melting measurements' });
    const duplicateAbstract = abstractOf(duplicate, 'Permafrost thaw observations.');
    await harness.index([changed(view(canonical, [own]), 1), changed(view(duplicate, [duplicateTitle, duplicateAbstract], null), 1)]);
    expect(new Set(await ids({ q: 'glacier' }))).toEqual(new Set([canonical, duplicate]));

    await harness.index([
      changed(view(duplicate, [duplicateTitle, duplicateAbstract], { duplicate_determination: 'duplicate', canonical_reference_id: canonical }), 2, 'duplicate_decision_changed'),
      changed(view(canonical, [own, duplicateTitle, duplicateAbstract]), 2, 'duplicate_decision_changed'),
    ]);
    expect(await ids({ q: 'glacier' })).toEqual([canonical]);
    expect(await ids({ q: 'measurements' })).toEqual([]);
    const [hit] = (await search({ q: 'permafrost' })).references;
    expect(hit.id).toBe(canonical);
    expect(hit.enhancements?.map((item) => item.reference_id)).toEqual([canonical, duplicate, duplicate]);

    await harness.index([changed(view(duplicate, [duplicateTitle], null), 1)]);
    expect(await ids({ q: 'measurements' })).toEqual([]);
  });

  it('when an enhancement is added, then its content becomes searchable', async () => {
    const id = uuidv7();
    const title = bibliographic(id, { title: 'Wetland restoration outcomes' });
    await harness.index([changed(view(id, [title]), 1)]);
    expect(await ids({ q: 'mangroves' })).toEqual([]);
    await harness.index([changed(view(id, [title, abstractOf(id, 'Mangroves store carbon.')]), 2, 'enhanced')]);
    expect(await ids({ q: 'mangroves' })).toEqual([id]);
  });

  it('when an event is replayed or arrives after a newer one, then the index keeps the newest state', async () => {
    const id = uuidv7();
    const newest = changed(view(id, [bibliographic(id, { title: 'Tundra ecology third edition' })]), 3, 'enhanced');
    await harness.index([newest]);
    await harness.index([changed(view(id, [bibliographic(id, { title: 'Tundra ecology second edition' })]), 2, 'enhanced'), newest]);
    await harness.index([changed(view(id, [bibliographic(id, { title: 'Tundra ecology first edition' })]), 1)]);
    expect(await ids({ q: 'tundra' })).toEqual([id]);
    expect(await ids({ q: 'second OR first' })).toEqual([]);
    expect(await ids({ q: 'third' })).toEqual([id]);
  });

  it('when events are indexed, then references.indexed reports each reference with the version now searchable', async () => {
    const id = uuidv7();
    await harness.index([changed(view(id, [bibliographic(id, { title: 'Savanna grazing' })]), 4, 'enhanced')]);
    const announcement = harness.indexedEvents.find((event) => event.items.some((item) => item.reference_id === id));
    expect(announcement?.items).toContainEqual({ reference_id: id, version: 4 });
    expect(announcement?.event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await ids({ q: 'savanna' })).toEqual([id]);
  });

  it('when ids or a count are asked, then they match the search', async () => {
    const result = await harness.call<ReferenceIdsSearchResult>('SearchReferenceIds', { q: 'climate' });
    expect(result.total).toEqual({ count: 3, is_lower_bound: false });
    expect(new Set(result.reference_ids)).toEqual(new Set([climate, ocean, forest]));
    expect(await harness.count('climate OR glacier')).toEqual({ count: 4, is_lower_bound: false });
    await expect(harness.count('title:(')).rejects.toMatchObject({ httpStatus: 400 });
  });

  it('when the index is rebuilt from dedup-service, then the alias moves to a new index with the same results', async () => {
    const queries = [{ q: 'climate' }, { q: 'glacier' }, { q: 'tundra' }, { q: 'climate', sort: ['-publication_year'] }, { q: 'climate', annotation: ['topic'] }];
    const before = await Promise.all(queries.map((query) => search(query)));
    const es = new Client({ node: harness.searchUrl });
    const oldIndices = Object.keys(await es.indices.getAlias({ name: 'reference' }));
    // The stand-in streams what dedup-service would: the current view of every canonical-like reference.
    const hits = await harness.call<ReferenceIdsSearchResult>('SearchReferenceIds', { q: '*:*' });
    for (const id of hits.reference_ids) {
      const [reference] = (await search({ q: `id:"${id}"` })).references;
      harness.dedupViews.set(id, {
        visibility: reference.visibility ?? 'public',
        id,
        identifiers: reference.identifiers ?? [],
        enhancements: reference.enhancements ?? [],
        duplicate_decision: reference.duplicate_determination ? { duplicate_determination: reference.duplicate_determination, canonical_reference_id: null } : null,
      });
    }
    // A malformed view is skipped (and logged) rather than failing the whole rebuild.
    harness.dedupViews.set('malformed', { id: 'not-a-uuid', visibility: 'public', identifiers: 'x' } as never);
    const report = await harness.rebuild();
    expect(Number(report.indexed)).toBe(hits.reference_ids.length);
    const newIndices = Object.keys(await es.indices.getAlias({ name: 'reference' }));
    expect(newIndices).toEqual([report.index_name]);
    expect(await es.indices.exists({ index: oldIndices[0] })).toBe(false);
    expect(await Promise.all(queries.map((query) => search(query)))).toEqual(before);
    await es.close();
  });
});
