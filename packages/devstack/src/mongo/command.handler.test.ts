import { CommandHandler } from './command.handler';
import { StorageEngine } from './storage.engine';

const CONNECTION = { id: 1 };
const DOCUMENTS = 20_000;

/** Runs `work` against a fresh in-memory server whose `test.rows` holds 20,000 documents in state `new`. */
async function withRows(work: (handler: CommandHandler, engine: StorageEngine) => Promise<void>): Promise<void> {
  const engine = await StorageEngine.open(undefined);
  const handler = new CommandHandler(engine);
  try {
    await handler.execute('test', { insert: 'rows', documents: Array.from({ length: DOCUMENTS }, (_unused, index) => ({ _id: index, state: 'new' })) }, CONNECTION);
    await work(handler, engine);
  } finally {
    handler.close();
    await engine.close();
  }
}

const updateEveryRow = { update: 'rows', ordered: false, updates: Array.from({ length: DOCUMENTS }, (_unused, index) => ({ q: { _id: index }, u: { $set: { state: 'done' } } })) };

async function isDone(handler: CommandHandler, id: number): Promise<boolean> {
  const reply = (await handler.execute('test', { count: 'rows', query: { _id: id, state: 'done' } }, CONNECTION)) as { n: number };
  return reply.n === 1;
}

describe('long bulk writes', () => {
  test('when a bulk update of 20,000 statements runs, then other commands are answered between its statements and every statement is applied once it completes', async () => {
    await withRows(async (handler) => {
      const updating = handler.execute('test', updateEveryRow, CONNECTION);
      // A command arriving while the update runs is answered before it completes: the last row is not updated yet.
      await new Promise((resolve) => setImmediate(resolve));
      expect(await isDone(handler, DOCUMENTS - 1)).toBe(false);
      expect(await updating).toMatchObject({ ok: 1, n: DOCUMENTS, nModified: DOCUMENTS });
      expect(await isDone(handler, DOCUMENTS - 1)).toBe(true);
      expect(await handler.execute('test', { count: 'rows', query: { state: 'done' } }, CONNECTION)).toMatchObject({ n: DOCUMENTS });
    });
  });

  test('when the collection is dropped while a bulk update yields, then the update stops with an error naming the drop and nothing is recreated', async () => {
    await withRows(async (handler, engine) => {
      const updating = handler.execute('test', updateEveryRow, CONNECTION);
      await new Promise((resolve) => setImmediate(resolve));
      expect(await handler.execute('test', { drop: 'rows' }, CONNECTION)).toMatchObject({ ok: 1 });
      const reply = (await updating) as { ok: number; n: number; writeErrors: Array<{ code: number; errmsg: string }> };
      expect(reply.ok).toBe(1);
      expect(reply.n).toBeLessThan(DOCUMENTS);
      expect(reply.writeErrors).toEqual([expect.objectContaining({ code: 175, errmsg: expect.stringContaining('dropped') })]);
      expect(engine.collection('test', 'rows')).toBeUndefined();
    });
  });

  test('when a multi-document update yields and another client takes one of its matched documents meanwhile, then that document is checked again and keeps what the other client wrote', async () => {
    await withRows(async (handler) => {
      const claiming = handler.execute('test', { update: 'rows', updates: [{ q: { state: 'new' }, u: { $set: { state: 'claimed-by-first' } }, multi: true }] }, CONNECTION);
      await new Promise((resolve) => setImmediate(resolve));
      expect(await handler.execute('test', { update: 'rows', updates: [{ q: { _id: DOCUMENTS - 1, state: 'new' }, u: { $set: { state: 'claimed-by-second' } } }] }, CONNECTION)).toMatchObject({ n: 1, nModified: 1 });
      expect(await claiming).toMatchObject({ ok: 1, n: DOCUMENTS - 1, nModified: DOCUMENTS - 1 });
      expect(await handler.execute('test', { count: 'rows', query: { state: 'claimed-by-first' } }, CONNECTION)).toMatchObject({ n: DOCUMENTS - 1 });
      expect(await handler.execute('test', { count: 'rows', query: { _id: DOCUMENTS - 1, state: 'claimed-by-second' } }, CONNECTION)).toMatchObject({ n: 1 });
    });
  });

  test('when the collection is dropped while a multi-document update yields, then the update stops with the drop error', async () => {
    await withRows(async (handler, engine) => {
      const updating = handler.execute('test', { update: 'rows', ordered: false, updates: [{ q: {}, u: { $set: { state: 'done' } }, multi: true }, { q: { _id: 'fresh' }, u: { $set: { state: 'again' } }, upsert: true }] }, CONNECTION);
      await new Promise((resolve) => setImmediate(resolve));
      expect(await handler.execute('test', { drop: 'rows' }, CONNECTION)).toMatchObject({ ok: 1 });
      const reply = (await updating) as { ok: number; n: number; upserted?: unknown[]; writeErrors: Array<{ index: number; code: number }> };
      expect(reply.n).toBeLessThan(DOCUMENTS);
      expect(reply.writeErrors).toEqual([expect.objectContaining({ index: 0, code: 175 })]);
      expect(reply.upserted).toBeUndefined();
      // The upsert after the drop did not run, so nothing recreated the collection.
      expect(engine.collection('test', 'rows')).toBeUndefined();
    });
  });
});
