// Runs one stand-in (MongoDB or search) on its own thread of the launcher's process, so the
// embedded default uses a second core for storage work while the services run on the main one.
import { parentPort, workerData } from 'node:worker_threads';
import { startMongo } from '../mongo';
import { startSearch } from '../search';
import type { RunningStandIn, StandInOptions } from '../stand-in';
import type { StandInKind, StandInWorkerReply, StandInWorkerRequest } from './stand-in.thread';

const { kind, options } = workerData as { kind: StandInKind; options: StandInOptions };
const starters: Record<StandInKind, (options: StandInOptions) => Promise<RunningStandIn>> = { mongo: startMongo, search: startSearch };
const port = parentPort;
if (!port) throw new Error('stand-in.worker must run as a worker thread');

const reply = (message: StandInWorkerReply) => port.postMessage(message);

starters[kind](options).then(
  (running) => {
    reply({ type: 'started', url: running.url, port: running.port });
    port.on('message', (request: StandInWorkerRequest) => {
      if (request.type !== 'stop') return;
      running.stop().then(
        () => reply({ type: 'stopped' }),
        (error: unknown) => reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
      );
    });
  },
  (error: unknown) => reply({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
