import { uuidv7, type DeduplicatedReference, type ReferenceSearchResult } from '@destiny/contracts';
import { waitFor } from '@destiny/devstack/testing';
import { Client } from '@elastic/elasticsearch';
import { MongoClient } from 'mongodb';
import { bibliographic, changed, startSearchHarness, view, type SearchHarness } from './search-fixtures';

// A rebuild streams views from dedup-service while events keep arriving; neither may be lost.
describe('search-request-service index rebuild', () => {
  let harness: SearchHarness;

  const ids = async (q: string) => (await harness.call<ReferenceSearchResult>('SearchReferences', { q })).references.map((reference) => reference.id);

  beforeAll(async () => {
    harness = await startSearchHarness('search-rebuild');
  });

  afterAll(async () => {
    await harness?.stop();
  });

  it('when events arrive during a rebuild, then the rebuilt index holds them and not the older streamed views', async () => {
    const changedDuring = uuidv7();
    const removedDuring = uuidv7();
    const untouched = uuidv7();
    const addedDuring = uuidv7();
    const versioned = uuidv7();
    const before = [
      view(changedDuring, [bibliographic(changedDuring, { title: 'Alpha heathland survey' })]),
      view(removedDuring, [bibliographic(removedDuring, { title: 'Heathland duplicate record' })]),
      view(untouched, [bibliographic(untouched, { title: 'Heathland grazing trial' })]),
    ];
    await harness.index(before.map((reference) => changed(reference, 1)));
    // What dedup-service streams was read before the events below: older views, without versions.
    for (const reference of before) harness.dedupViews.set(reference.id, reference);
    // A streamed view with a version is ordered like an event: version 5 beats the event's 4.
    await harness.index([changed(view(versioned, [bibliographic(versioned, { title: 'Heathland fire old' })]), 4)]);
    harness.dedupViews.set(versioned, { ...view(versioned, [bibliographic(versioned, { title: 'Heathland fire newest' })]), version: 5 });

    let reached!: () => void;
    let release!: () => void;
    const streaming = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    harness.streamStarted = async () => {
      reached();
      await gate;
    };
    const rebuilding = harness.rebuild();
    await streaming;
    await harness.index([
      changed(view(changedDuring, [bibliographic(changedDuring, { title: 'Beta heathland survey' })]), 2, 'enhanced'),
      changed(view(removedDuring, [], { duplicate_determination: 'duplicate', canonical_reference_id: untouched }), 2, 'duplicate_decision_changed'),
      changed(view(addedDuring, [bibliographic(addedDuring, { title: 'Gamma heathland census' })]), 1),
    ]);
    // Searches keep answering from the old index while the new one fills.
    expect(await ids('beta')).toEqual([changedDuring]);
    release();
    const report = await rebuilding;
    harness.streamStarted = undefined;

    const es = new Client({ node: harness.searchUrl });
    expect(Object.keys(await es.indices.getAlias({ name: 'reference' }))).toEqual([report.index_name]);
    await es.close();
    expect(await ids('beta')).toEqual([changedDuring]);
    expect(await ids('alpha')).toEqual([]);
    expect(await ids('gamma')).toEqual([addedDuring]);
    expect(await ids('duplicate')).toEqual([]);
    expect(await ids('grazing')).toEqual([untouched]);
    expect(await ids('fire')).toEqual([versioned]);
    expect(await ids('newest')).toEqual([versioned]);
  });

  it('when a rebuild is already running, then a second one is refused with 409', async () => {
    const current = (await harness.call<ReferenceSearchResult>('SearchReferences', { q: '*:*' })).references;
    harness.dedupViews.clear();
    for (const reference of current) harness.dedupViews.set(reference.id, { visibility: 'public', id: reference.id, identifiers: reference.identifiers ?? [], enhancements: reference.enhancements ?? [], duplicate_decision: null });
    let reached!: () => void;
    let release!: () => void;
    const streaming = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    harness.streamStarted = async () => {
      reached();
      await gate;
    };
    const first = harness.rebuild();
    await streaming;
    await expect(harness.rebuild()).rejects.toMatchObject({ httpStatus: 409 });
    release();
    await first;
    harness.streamStarted = undefined;
    expect(new Set(await ids('heathland'))).toEqual(new Set(current.map((reference) => reference.id)));
  });

  it('when a rebuild died and left its marker behind, then the next rebuild takes over and deletes the orphaned index', async () => {
    const es = new Client({ node: harness.searchUrl });
    await es.indices.create({ index: 'reference-v1' });
    const mongo = new MongoClient(harness.mongoUrl);
    const stale = new Date(Date.now() - 60 * 60_000);
    await mongo.db('destiny_search_request').collection<{ _id: string; index: string; started_at: Date; heartbeat_at: Date }>('index_rebuilds').insertOne({ _id: 'reference', index: 'reference-v1', started_at: stale, heartbeat_at: stale });
    const report = await harness.rebuild();
    expect(await es.indices.exists({ index: 'reference-v1' })).toBe(false);
    expect(Object.keys(await es.indices.getAlias({ name: 'reference' }))).toEqual([report.index_name]);
    expect(await mongo.db('destiny_search_request').collection('index_rebuilds').countDocuments()).toBe(0);
    await mongo.close();
    await es.close();
  });

  it('when a rebuild is interleaved with newer and replayed older live events, then every reference ends with its newest version', async () => {
    const overtaken = uuidv7();
    const replayed = uuidv7();
    const removed = uuidv7();
    const titled = (id: string, title: string, decision?: DeduplicatedReference['duplicate_decision']) => view(id, decision?.duplicate_determination === 'duplicate' ? [] : [bibliographic(id, { title })], decision);
    await harness.index([changed(titled(overtaken, 'Sorrel meadow first'), 1), changed(titled(replayed, 'Sorrel meadow newest'), 5), changed(titled(removed, 'Sorrel meadow removed'), 1)]);
    // dedup-service's stream, read before the events below: versions 1, 5 and 1.
    harness.dedupViews.clear();
    harness.dedupViews.set(overtaken, { ...titled(overtaken, 'Sorrel meadow first'), version: 1 });
    harness.dedupViews.set(replayed, { ...titled(replayed, 'Sorrel meadow newest'), version: 5 });
    harness.dedupViews.set(removed, { ...titled(removed, 'Sorrel meadow removed'), version: 1 });

    let reached!: () => void;
    let release!: () => void;
    const streaming = new Promise<void>((resolve) => (reached = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    harness.streamStarted = async () => {
      reached();
      await gate;
    };
    const rebuilding = harness.rebuild();
    await streaming;
    const mongo = new MongoClient(harness.mongoUrl);
    const marker = await mongo.db('destiny_search_request').collection<{ _id: string; index: string }>('index_rebuilds').findOne({ _id: 'reference' });
    await mongo.close();
    const es = new Client({ node: harness.searchUrl });
    // Newer events reach the new index before the stream's older views; a replayed older event
    // (redelivered after its successor) reaches it before the stream's newer view.
    await harness.index([changed(titled(overtaken, 'Sorrel meadow second'), 2, 'enhanced'), changed(titled(removed, '', { duplicate_determination: 'duplicate', canonical_reference_id: overtaken }), 2, 'duplicate_decision_changed')]);
    await harness.publish([changed(titled(replayed, 'Sorrel meadow stale'), 4, 'enhanced')]);
    await waitFor(async () => (await es.get({ index: marker!.index, id: replayed }, { ignore: [404] }))._version === 4, 'the replayed event in the new index');
    release();
    await rebuilding;
    harness.streamStarted = undefined;
    await es.close();

    expect(new Set(await ids('sorrel'))).toEqual(new Set([overtaken, replayed]));
    expect(await ids('second')).toEqual([overtaken]);
    expect(await ids('first')).toEqual([]);
    expect(await ids('newest')).toEqual([replayed]);
    expect(await ids('stale')).toEqual([]);
    expect(await ids('removed')).toEqual([]);
  });

  it('when Elasticsearch is unreachable, then search answers 503 instead of failing opaquely', async () => {
    await harness.stopSearch();
    await expect(harness.call('SearchReferences', { q: 'heathland' })).rejects.toMatchObject({ httpStatus: 503, detail: 'The search index is unavailable.' });
  });
});
