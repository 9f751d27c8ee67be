// Embedded Elasticsearch-compatible search server for development and tests.
import { type AddressInfo } from 'node:net';
import { type RunningStandIn, type StandInOptions } from '../stand-in';
import { SearchEngine } from './search.engine';
import { createSearchServer } from './search.server';

export { SearchEngine } from './search.engine';

export async function startSearch(options: StandInOptions): Promise<RunningStandIn> {
  const engine = new SearchEngine(options.dataDir);
  const server = createSearchServer(engine);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let stopped = false;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      engine.close();
    },
  };
}
