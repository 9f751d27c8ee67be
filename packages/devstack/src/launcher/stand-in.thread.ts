import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { nextReply, stopThread } from './worker.reply';
import type { RunningStandIn, StandInOptions } from '../stand-in';

export type StandInKind = 'mongo' | 'search';
export type StandInWorkerRequest = { type: 'stop' };
export type StandInWorkerReply = { type: 'started'; url: string; port: number } | { type: 'stopped' } | { type: 'failed'; message: string };


/**
 * Starts a stand-in on a worker thread (the launcher runs from the build, beside
 * `stand-in.worker.js`). It answers over TCP exactly as it does on the main thread.
 */
export async function startStandInThread(kind: StandInKind, options: StandInOptions): Promise<RunningStandIn> {
  const worker = new Worker(path.join(__dirname, 'stand-in.worker.js'), { workerData: { kind, options } });
  const started = await nextReply<StandInWorkerReply>(worker, kind);
  if (started.type !== 'started') {
    await worker.terminate();
    throw new Error(started.type === 'failed' ? started.message : `${kind} stand-in did not start`);
  }
  let stopping: Promise<void> | undefined;
  return {
    url: started.url,
    port: started.port,
    stop() {
      stopping ??= (async () => {
        const failure = await stopThread(worker, kind);
        if (failure) throw new Error(failure);
      })();
      return stopping;
    },
  };
}
