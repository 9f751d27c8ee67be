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
