import type { Worker } from 'node:worker_threads';

/** The next message a launcher thread sends, or its failure or exit before it said anything. */
export function nextReply<Reply>(worker: Worker, what: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const cleanUp = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (message: Reply) => {
      cleanUp();
      resolve(message);
    };
    const onError = (error: Error) => {
      cleanUp();
      reject(error);
    };
    const onExit = (code: number) => {
      cleanUp();
      reject(new Error(`${what} thread exited with code ${code}`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

/**
 * Asks a launcher thread to stop (`{ type: 'stop' }`), waits for its answer and ends the thread;
 * resolves to the reason it gave for failing, or null.
 */
export async function stopThread(worker: Worker, what: string): Promise<string | null> {
  const replied = nextReply<{ type: string; message?: string }>(worker, what);
  worker.postMessage({ type: 'stop' });
  const outcome = await replied.catch((error: unknown) => ({ type: 'failed', message: error instanceof Error ? error.message : String(error) }));
  await worker.terminate();
  return outcome.type === 'failed' ? (outcome.message ?? 'failed') : null;
}
