import crypto from 'node:crypto';
import { startMongo } from '@destiny/devstack/mongo';
import { MongoClient, type Db } from 'mongodb';
import pino from 'pino';
import { createAmqpConnection, type MessageBus, type MessagingTopology } from '../../src/messaging';
import { pushToOutbox, startOutboxRelay, type OutboxEntry } from '../../src/outbox/outbox';
import { OUTBOX_RELAY_LEASES_COLLECTION } from '../../src/outbox/outbox-relay.lease';
import { createForegroundPriorityGate } from '../../src/scheduling/foreground-priority.gate';
import { createProcessedMessages } from '../../src/outbox/processed-messages';

const logger = pino({ level: 'silent' });

function entry(exchange: string, routingKey: string, payload: unknown): OutboxEntry {
  return { event_id: crypto.randomUUID(), exchange, routing_key: routingKey, payload, created_at: new Date() };
}

/** A document whose outbox holds `item`, as a write with its event stores it. */
function waitingWith(id: string, item: OutboxEntry, fields: Record<string, unknown> = {}) {
  return { _id: id as never, ...fields, ...pushToOutbox([item]).$max, _outbox: [item] };
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('outbox relay against the MongoDB stand-in and RabbitMQ', () => {
  let mongo: Awaited<ReturnType<typeof startMongo>>;
  let client: MongoClient;
  let db: Db;
  let bus: MessageBus;
  const suffix = crypto.randomBytes(4).toString('hex');
  const exchange = `outbox-test-${suffix}`;
  const queue = `outbox-test-${suffix}.events`;
  /** A relay over one collection of the test database. */
  const relayOver = (collection: string, options: Omit<Parameters<typeof startOutboxRelay>[0], 'db' | 'collections' | 'logger'>, database: Db = db) =>
    startOutboxRelay({ db: database, collections: [collection], logger, ...options });
  const topology: MessagingTopology = { exchanges: [{ name: exchange, type: 'topic' }], queues: [{ name: queue, bindings: [{ exchange, routingKey: 'thing.#' }] }] };

  beforeAll(async () => {
    mongo = await startMongo({ port: 0 });
    client = await MongoClient.connect(mongo.url);
    db = client.db('outbox_test');
    bus = await createAmqpConnection({ url: 'amqp://guest:guest@127.0.0.1:5672', logger, name: 'outbox-test' });
    await bus.declareTopology(topology);
  });

  afterAll(async () => {
    await bus.deleteTopology(topology);
    await bus.close();
    await client.close();
    await mongo.stop();
  });

  it('when a state change carries events in the same write, then the relay publishes them with confirms and clears them, and a crash before clearing republishes them without a second effect', async () => {
    const things = db.collection('things');
    const processed = createProcessedMessages(db, 'processed_messages');
    const effects: string[] = [];
    const consumer = await bus.consume<{ thing: string }>(queue, async (message, metadata) => {
      if (await processed.alreadyProcessed(metadata.messageId)) return { outcome: 'ack' };
      effects.push(message.thing);
      await processed.markProcessed(metadata.messageId);
      return { outcome: 'ack' };
    });

    const created = entry(exchange, 'thing.created', { thing: 'a' });
    await things.insertOne({ _id: 'a' as never, state: 'created', _outbox: [created] });
    const renamed = entry(exchange, 'thing.renamed', { thing: 'a-renamed' });
    await things.updateOne({ _id: 'a' as never }, { $set: { state: 'renamed' }, ...pushToOutbox([renamed]) });

    // First relay "crashes" after publishing but before it can clear the entries.
    let publishedByCrashingRelay = 0;
    const crashing = relayOver('things', {
      intervalMs: 10_000,
      publish: async (outboxEntry) => {
        await bus.publish(outboxEntry.exchange, outboxEntry.routing_key, outboxEntry.payload, { messageId: outboxEntry.event_id });
        publishedByCrashingRelay += 1;
        throw new Error('process died before marking the entry sent');
      },
    });
    await waitFor(() => publishedByCrashingRelay >= 1, 'the crashing relay to publish');
    await crashing.stop();
    expect((await things.findOne({ _id: 'a' as never }))!._outbox).toHaveLength(2);

    const relay = relayOver('things', {
      publish: (outboxEntry) => bus.publish(outboxEntry.exchange, outboxEntry.routing_key, outboxEntry.payload, { messageId: outboxEntry.event_id }),
    });
    await waitFor(async () => ((await things.findOne({ _id: 'a' as never }))!._outbox as unknown[]).length === 0, 'the outbox to drain');
    await waitFor(() => effects.length >= 2, 'both events to be consumed');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(effects).toEqual(['a', 'a-renamed']);
    expect(await relay.drain()).toBe(0);
    await relay.stop();
    await consumer.stop();
  });

  it('when a document gets events, then it is flagged outbox_pending until the relay empties its outbox, and events pushed before the flag existed are relayed too', async () => {
    const flags = db.collection('flags');
    const legacy = entry(exchange, 'thing.legacy', { thing: 'legacy' });
    await flags.insertOne({ _id: 'legacy' as never, _outbox: [legacy] });
    const fresh = entry(exchange, 'thing.fresh', { thing: 'fresh' });
    await flags.updateOne({ _id: 'fresh' as never }, { $set: { state: 'new' }, ...pushToOutbox([fresh]) }, { upsert: true });
    expect(await flags.findOne({ _id: 'fresh' as never })).toMatchObject({ state: 'new', outbox_pending: true });

    const published: string[] = [];
    const relay = relayOver('flags', { intervalMs: 10_000, publish: async (outboxEntry) => void published.push(outboxEntry.event_id) });
    await waitFor(async () => (await flags.countDocuments({ outbox_pending: true })) === 0, 'the first pass to clear the flags');
    expect(await relay.drain()).toBe(0);
    expect([...new Set(published)].sort()).toEqual([legacy.event_id, fresh.event_id].sort());
    expect(await flags.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 'fresh', state: 'new', _outbox: [], outbox_pending: false },
      { _id: 'legacy', _outbox: [], outbox_pending: false },
    ]);

    const later = entry(exchange, 'thing.later', { thing: 'later' });
    await flags.updateOne({ _id: 'fresh' as never }, pushToOutbox([later]));
    expect(await flags.countDocuments({ outbox_pending: true })).toBe(1);
    expect(await relay.drain()).toBe(1);
    expect(published).toContain(later.event_id);
    expect(await flags.countDocuments({ outbox_pending: true })).toBe(0);
    await relay.stop();
  });
  it('when an event is pushed while the relay publishes, then the new one stays flagged and goes out on the next pass, and every event is published once', async () => {
    const racing = db.collection('racing');
    const first = entry(exchange, 'thing.first', { thing: 'first' });
    const second = entry(exchange, 'thing.second', { thing: 'second' });
    const calm = entry(exchange, 'thing.calm', { thing: 'calm' });
    await racing.insertMany([waitingWith('busy', first), waitingWith('calm', calm)]);
    const published: string[] = [];
    const relay = relayOver('racing', {
      intervalMs: 10_000,
      publish: async (outboxEntry) => {
        published.push(outboxEntry.event_id);
        if (outboxEntry.event_id === first.event_id) await racing.updateOne({ _id: 'busy' as never }, pushToOutbox([second]));
      },
    });
    await waitFor(() => published.length >= 2, 'the first pass');
    await relay.drain();
    expect(published.sort()).toEqual([first.event_id, second.event_id, calm.event_id].sort());
    expect(await racing.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 'busy', _outbox: [], outbox_pending: false },
      { _id: 'calm', _outbox: [], outbox_pending: false },
    ]);
    await relay.stop();
  });

  it('when another relay pulls the entry being published and a new entry arrives meanwhile (two replicas), then the new entry is not cleared unpublished', async () => {
    const shared = db.collection('shared');
    const imported = entry(exchange, 'thing.imported', { thing: 'imported' });
    const decided = entry(exchange, 'thing.decided', { thing: 'decided' });
    await shared.insertOne(waitingWith('shared', imported));
    const published: string[] = [];
    const relay = relayOver('shared', {
      intervalMs: 100,
      publish: async (outboxEntry) => {
        published.push(outboxEntry.event_id);
        if (outboxEntry.event_id !== imported.event_id) return;
        // The other replica's relay published it too and pulled it; then the writer appended its next event:
        // the outbox is as long as this relay read it, but holds another entry.
        await shared.updateOne({ _id: 'shared' as never }, { $pull: { _outbox: { event_id: imported.event_id } } } as never);
        await shared.updateOne({ _id: 'shared' as never }, pushToOutbox([decided]));
      },
    });
    await waitFor(() => published.includes(decided.event_id), 'the entry that arrived meanwhile');
    await relay.drain();
    expect(published).toEqual([imported.event_id, decided.event_id]);
    expect(await shared.findOne({ _id: 'shared' as never })).toEqual({ _id: 'shared', _outbox: [], outbox_pending: false });
    await relay.stop();
  });

  it('when a page holds outboxes of different lengths and one of each length gets a new entry during publishing, then the others are emptied together and the grown ones keep only their new entry', async () => {
    const lengths = db.collection('lengths');
    const documents = [1, 1, 1, 2, 2, 3].map((length, index) => ({ _id: `doc-${index}`, length, entries: Array.from({ length }, (_, at) => entry(exchange, 'thing.page', { thing: `${index}.${at}` })) }));
    await lengths.insertMany(documents.map(({ _id, entries }) => ({ _id: _id as never, ...pushToOutbox(entries).$max, _outbox: entries })));
    const grown = new Map([
      ['doc-0', entry(exchange, 'thing.grown', { thing: 'grown.0' })],
      ['doc-3', entry(exchange, 'thing.grown', { thing: 'grown.3' })],
    ]);
    const lastOf = new Map(documents.map(({ _id, entries }) => [entries[entries.length - 1].event_id, _id]));
    const published: string[] = [];
    const relay = relayOver('lengths', {
      intervalMs: 10_000,
      publish: async (outboxEntry) => {
        published.push(outboxEntry.event_id);
        const grownEntry = grown.get(lastOf.get(outboxEntry.event_id) ?? '');
        if (grownEntry && !published.includes(grownEntry.event_id)) await lengths.updateOne({ _id: lastOf.get(outboxEntry.event_id) as never }, pushToOutbox([grownEntry]));
      },
    });
    const expected = JSON.stringify(documents.map(({ _id }) => [_id, grown.has(_id) ? [grown.get(_id)?.event_id] : [], grown.has(_id)]));
    const state = async () => JSON.stringify((await lengths.find({}, { sort: { _id: 1 } }).toArray()).map((document) => [document._id, (document._outbox as OutboxEntry[]).map((item) => item.event_id), document.outbox_pending]));
    // The pushes during publishing do not wake the relay: its next pass is 10 s away, so this is the first pass's outcome.
    await waitFor(async () => (await state()) === expected, 'the first pass to empty the unchanged outboxes and pull the published entries of the grown ones');
    expect(published).toHaveLength(10);
    await relay.drain();
    const all = [...documents.flatMap(({ entries }) => entries), ...grown.values()].map((item) => item.event_id);
    expect([...published].sort()).toEqual(all.sort());
    expect(await lengths.countDocuments({ outbox_pending: true })).toBe(0);
    await relay.stop();
  });

  it('when a publish fails partway through a page, then each outbox keeps exactly its unpublished entries, and the next pass publishes those once', async () => {
    const partial = db.collection('partial');
    const documents = [0, 1, 2, 3].map((index) => ({ _id: `doc-${index}`, entries: [0, 1, 2].map((at) => entry(exchange, 'thing.partial', { thing: `${index}.${at}` })) }));
    await partial.insertMany(documents.map(({ _id, entries }) => ({ _id: _id as never, ...pushToOutbox(entries).$max, _outbox: entries })));
    // The broker refuses the second entry of doc-1 and the first of doc-2, once each.
    const refused = new Set([documents[1].entries[1].event_id, documents[2].entries[0].event_id]);
    const published: string[] = [];
    const relay = relayOver('partial', {
      intervalMs: 10_000,
      publish: async (outboxEntry) => {
        if (refused.delete(outboxEntry.event_id)) throw new Error('broker refused');
        published.push(outboxEntry.event_id);
      },
    });
    const state = async () => JSON.stringify((await partial.find({}, { sort: { _id: 1 } }).toArray()).map((document) => [document._id, (document._outbox as OutboxEntry[]).map((item) => item.event_id)]));
    const unpublished = JSON.stringify(documents.map(({ _id, entries }) => [_id, _id === 'doc-1' ? entries.slice(1).map((item) => item.event_id) : _id === 'doc-2' ? entries.map((item) => item.event_id) : []]));
    await waitFor(async () => (await state()) === unpublished, 'the first pass to clear what it published');
    expect(published).toHaveLength(7);

    await relay.drain();

    expect([...published].sort()).toEqual(documents.flatMap(({ entries }) => entries.map((item) => item.event_id)).sort());
    expect(await partial.countDocuments({ outbox_pending: true })).toBe(0);
    await relay.stop();
  });

  it('when the broker keeps refusing one event while it takes the others, then after maxRefusals passes that event is set aside with its error and the entries behind it go out', async () => {
    const poisoned = db.collection('poisoned');
    const refusedEntry = entry(exchange, 'thing.poison', { big: 'x'.repeat(100) });
    const behind = entry(exchange, 'thing.poison', { after: true });
    await poisoned.insertOne({ _id: 'poison' as never, ...pushToOutbox([refusedEntry, behind]).$max, _outbox: [refusedEntry, behind] });
    const published: string[] = [];
    let attempts = 0;
    const relay = relayOver('poisoned', {
      intervalMs: 20,
      maxRefusals: 3,
      publish: async (outboxEntry) => {
        if (outboxEntry.event_id === refusedEntry.event_id) {
          attempts += 1;
          throw new Error('message size larger than configured max size');
        }
        published.push(outboxEntry.event_id);
      },
    });
    // Other traffic the broker takes between the refusals: one new document per pass.
    let other = 0;
    const traffic = setInterval(() => void poisoned.insertOne(waitingWith(`other-${other++}`, entry(exchange, 'thing.other', { other }))), 30);
    try {
      await waitFor(async () => (await poisoned.countDocuments({ _id: 'poison' as never, outbox_pending: false })) === 1, 'the refused event set aside');
    } finally {
      clearInterval(traffic);
    }
    try {
      await relay.drain();
      // A pass in which the broker took nothing else does not count.
      expect(attempts).toBeGreaterThanOrEqual(3);
      expect(published).toContain(behind.event_id);
      const [letter] = await db.collection('outbox_dead_letters').find({ _id: refusedEntry.event_id as never }).toArray();
      expect(letter).toMatchObject({ collection: 'poisoned', document_id: 'poison', routing_key: 'thing.poison', error: 'message size larger than configured max size', refusals: 3, payload_json: JSON.stringify(refusedEntry.payload) });
      expect(await poisoned.countDocuments({ outbox_pending: true })).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  it('when the broker refuses every event (it is down), then nothing is set aside however many passes fail, and all go out once it is back', async () => {
    const outage = db.collection('outage');
    const entries = [0, 1, 2].map((index) => entry(exchange, 'thing.outage', { index }));
    await outage.insertMany(entries.map((item, index) => waitingWith(`down-${index}`, item)));
    let down = true;
    let failures = 0;
    const published: string[] = [];
    const relay = relayOver('outage', {
      intervalMs: 10,
      maxRefusals: 2,
      publish: async (outboxEntry) => {
        if (down) {
          failures += 1;
          throw new Error('connection closed');
        }
        published.push(outboxEntry.event_id);
      },
    });
    try {
      await waitFor(() => failures >= 30, 'ten failed passes');
      down = false;
      await waitFor(() => published.length === 3, 'every event published');
      expect(await db.collection('outbox_dead_letters').countDocuments({ collection: 'outage' })).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  it('when entries can be completed from memory, then only outboxes are read, each told whether it is its document\'s last; where memory answers null, the whole document is read and expanded', async () => {
    const compact = db.collection('compact');
    const rememberedFirst = entry(exchange, 'thing.remembered', { short: 'remembered-first' });
    const remembered = entry(exchange, 'thing.remembered', { short: 'remembered' });
    const forgotten = entry(exchange, 'thing.forgotten', { short: 'forgotten' });
    await compact.insertMany([
      { _id: 'remembered' as never, content: 'stored', ...pushToOutbox([rememberedFirst, remembered]).$max, _outbox: [rememberedFirst, remembered] },
      waitingWith('forgotten', forgotten, { content: 'stored' }),
    ]);
    const published: unknown[] = [];
    const seenByExpand: unknown[] = [];
    const asked: Array<[string, boolean]> = [];
    const relay = relayOver('compact', {
      intervalMs: 10_000,
      publish: async (outboxEntry) => void published.push(outboxEntry.payload),
      expand: (outboxEntry, document) => {
        seenByExpand.push(document._id);
        return { ...outboxEntry, payload: { ...(outboxEntry.payload as object), content: document.content } };
      },
      expandFromMemory: (outboxEntry, id, last) => {
        asked.push([(outboxEntry.payload as { short: string }).short, last]);
        return id === 'remembered' ? { ...outboxEntry, payload: { ...(outboxEntry.payload as object), content: 'memory' } } : null;
      },
    });
    await waitFor(() => published.length >= 3, 'the first pass');
    await relay.drain();
    expect(seenByExpand).toEqual(['forgotten']);
    expect(published).toEqual(expect.arrayContaining([{ short: 'remembered-first', content: 'memory' }, { short: 'remembered', content: 'memory' }, { short: 'forgotten', content: 'stored' }]));
    expect(published).toHaveLength(3);
    expect(asked).toEqual(expect.arrayContaining([['remembered-first', false], ['remembered', true], ['forgotten', true]]));
    expect(asked).toHaveLength(3);
    expect(await compact.countDocuments({ outbox_pending: true })).toBe(0);
    await relay.stop();
  });

  it('when two replicas relay one collection under one lease, then every entry is published once, by the holder, and the other takes over as soon as the holder stops', async () => {
    const turns = db.collection('turns');
    const published = new Map<string, string[]>();
    const standby = { first: 0, second: 0 };
    const start = (name: 'first' | 'second') =>
      relayOver('turns', {
        intervalMs: 20,
        batchSize: 7,
        lease: { name: 'turns-service', ttlMs: 60_000 },
        onStandby: () => void (standby[name] += 1),
        publish: async (outboxEntry) => {
          published.set(outboxEntry.event_id, [...(published.get(outboxEntry.event_id) ?? []), name]);
          await new Promise((resolve) => setImmediate(resolve));
        },
      });
    const relays = { first: start('first'), second: start('second') };
    const written: string[] = [];
    const write = async (round: number) => {
      const entries = Array.from({ length: 10 }, (_unused, index) => entry(exchange, 'thing.turn', { thing: `turn-${round}-${index}` }));
      await turns.insertMany(entries.map((item, index) => waitingWith(`turns-${round}-${index}`, item)));
      written.push(...entries.map((item) => item.event_id));
      relays.first.notify();
      relays.second.notify();
    };
    try {
      for (let round = 0; round < 20; round += 1) await write(round);
      await waitFor(() => written.every((id) => published.has(id)), 'every entry to be published');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect([...published.values()].filter((by) => by.length > 1)).toEqual([]);
      const publishers = new Set([...published.values()].map(([by]) => by));
      expect(publishers.size).toBe(1);
      const [holder] = publishers as Set<'first' | 'second'>;
      const other = holder === 'first' ? 'second' : 'first';
      expect(standby[other]).toBeGreaterThan(0);
      expect(standby[holder]).toBe(0);

      await relays[holder].stop();
      const stoppedAt = Date.now();
      await write(20);
      await waitFor(() => written.every((id) => published.has(id)), 'the other relay to take over');
      expect(Date.now() - stoppedAt).toBeLessThan(5000);
      expect(written.slice(-10).map((id) => published.get(id))).toEqual(Array.from({ length: 10 }, () => [other]));
    } finally {
      await relays.first.stop();
      await relays.second.stop();
    }
  });

  it('when the relay holding the lease dies without releasing it, then another replica publishes its entries once the lease has expired', async () => {
    const orphaned = db.collection('orphaned');
    const crashingClient = await MongoClient.connect(mongo.url);
    const published: Array<{ id: string; by: string; at: number }> = [];
    const start = (name: string, database: Db) =>
      relayOver('orphaned', { intervalMs: 20, lease: { name: 'orphaned-service', ttlMs: 800 }, publish: async (outboxEntry) => void published.push({ id: outboxEntry.event_id, by: name, at: Date.now() }) }, database);
    const crashing = start('crashing', crashingClient.db('outbox_test'));
    await waitFor(async () => (await db.collection(OUTBOX_RELAY_LEASES_COLLECTION).countDocuments({ _id: 'orphaned-service' as never })) === 1, 'the first relay to take the lease');
    const survivor = start('survivor', db);
    try {
      // The holder's connection goes with its process: it can neither relay nor release the lease.
      await crashingClient.close(true);
      const diedAt = Date.now();
      const orphan = entry(exchange, 'thing.orphaned', { thing: 'orphan' });
      await orphaned.insertOne(waitingWith('orphan', orphan));
      survivor.notify();
      await waitFor(() => published.length >= 1, 'the survivor to take over', );
      expect(published).toEqual([{ id: orphan.event_id, by: 'survivor', at: expect.any(Number) }]);
      expect(published[0].at - diedAt).toBeGreaterThanOrEqual(300);
    } finally {
      await crashing.stop();
      await survivor.stop();
    }
  });

  it('when the relay runs its pages as background turns, then no page is published while foreground work is in flight, and every page goes out once it ends', async () => {
    const paged = db.collection('paged');
    const entries = Array.from({ length: 5 }, (_unused, index) => entry(exchange, 'thing.paged', { thing: `paged-${index}` }));
    await paged.insertMany(entries.map((item, index) => waitingWith(`paged-${index}`, item)));
    const gate = createForegroundPriorityGate({ maxWaitMs: 60_000, backgroundSlots: 1 });
    let releasePoll!: () => void;
    const poll = gate.inForeground(() => new Promise<void>((resolve) => (releasePoll = resolve)));
    const published: string[] = [];
    let turns = 0;
    const relay = relayOver('paged', {
      intervalMs: 10_000,
      batchSize: 2,
      publish: async (outboxEntry) => void published.push(outboxEntry.event_id),
      inBackgroundTurn: (step) => {
        turns += 1;
        return gate.inBackgroundTurn(step);
      },
    });
    try {
      await waitFor(() => turns >= 1, 'the relay to ask for its first turn');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(published).toEqual([]);
      expect(await paged.countDocuments({ outbox_pending: true })).toBe(5);
      releasePoll();
      await poll;
      await waitFor(async () => (await paged.countDocuments({ outbox_pending: true })) === 0, 'every page to be relayed');
      expect([...published].sort()).toEqual(entries.map((item) => item.event_id).sort());
      // Five documents in pages of two: three pages, each its own turn.
      expect(turns).toBe(3);
    } finally {
      await relay.stop();
    }
  });
});
