// The embedded MongoDB stand-in: a wire-protocol server the official driver talks to, holding
// data in memory with an fsynced journal and snapshots when given a data folder.
import pino from 'pino';
import type { RunningStandIn, StandInOptions } from '../stand-in';
import { CommandHandler } from './command.handler';
import { type ScanStatistics } from './collection.store';
import { startWireServer } from './mongo-wire.server';
import { StorageEngine } from './storage.engine';
import { TtlMonitor } from './ttl.monitor';

export interface RunningMongo extends RunningStandIn {
  /** Query work counters of a collection (documents examined, last plan), for tests. */
  scanStatistics(database: string, collection: string): ScanStatistics | undefined;
  /** Writes a snapshot now and drops the journal it replaces. */
  compact(): Promise<void>;
  /** Runs the TTL monitor now (it also runs every 60 s); resolves with the number of documents removed. */
  expireDocuments(now?: Date): Promise<number>;
}

export async function startMongo(options: StandInOptions): Promise<RunningMongo> {
  const logger = pino({ name: 'devstack-mongo' });
  const host = options.host ?? '127.0.0.1';
  const engine = await StorageEngine.open(options.dataDir, (error) => logger.error({ err: error }, 'background snapshot failed; the journal still holds every write'));
  const handler = new CommandHandler(engine);
  const ttl = new TtlMonitor(engine);
  const server = await startWireServer(handler, host, options.port, (error) => logger.warn({ err: error }, 'closing connection after a protocol error'));
  let stopped = false;
  return {
    url: `mongodb://${host}:${server.port}/?directConnection=true`,
    port: server.port,
    scanStatistics: (database, collection) => engine.collection(database, collection)?.statistics,
    compact: () => engine.compact(),
    expireDocuments: (now) => ttl.sweep(now),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await server.close();
      ttl.close();
      handler.close();
      await engine.close();
    },
  };
}
