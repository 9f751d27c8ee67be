import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SearchEngine } from './search.engine';

describe('operation log recovery', () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'search-engine-'));
  });

  afterEach(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('when the process dies without a clean stop, then every flushed write is replayed', () => {
    const crashed = new SearchEngine(dataDir);
    crashed.createIndex('logged', { mappings: { properties: { title: { type: 'text' } } }, aliases: { current: {} } });
    crashed.indexDocument('current', 'a', { title: 'kept' }, new URLSearchParams());
    crashed.indexDocument('current', 'b', { title: 'removed' }, new URLSearchParams());
    crashed.deleteDocument('current', 'b', new URLSearchParams());
    crashed.flush();
    // A torn final line, as a crash in the middle of a write leaves it.
    fs.appendFileSync(path.join(dataDir, 'operations.ndjson'), '{"op":"index","name":"logged","id":"c","sou');

    const recovered = new SearchEngine(dataDir);
    try {
      expect(recovered.documentCount('current')).toBe(1);
      const got = recovered.getDocument('current', 'a', new URLSearchParams());
      expect(got.body).toMatchObject({ _index: 'logged', found: true, _source: { title: 'kept' }, _version: 1 });
      expect(recovered.getDocument('current', 'b', new URLSearchParams()).status).toBe(404);
    } finally {
      recovered.close();
    }
  });

  test('when a snapshot was taken, then the state is restored from it and the log after it', () => {
    const first = new SearchEngine(dataDir);
    first.createIndex('snap', {});
    first.indexDocument('snap', '1', { n: 1 }, new URLSearchParams());
    first.flush();
    first.close();
    const second = new SearchEngine(dataDir);
    second.indexDocument('snap', '2', { n: 2 }, new URLSearchParams());
    second.flush();
    const third = new SearchEngine(dataDir);
    try {
      expect(third.documentCount('snap')).toBe(2);
    } finally {
      third.close();
      second.close();
    }
  });
});
