import type { Logger } from 'pino';

export interface RunningService {
  stop(): Promise<void>;
}

/**
 * Runs a service as the process's main job: SIGTERM or SIGINT stops it gracefully (stop taking
 * work, finish in-flight work within the timeout, close connections), then the process exits.
 */
export async function runService(options: { name: string; logger: Logger; shutdownTimeoutMs: number; start: () => Promise<RunningService>; onExit?: () => Promise<void> }): Promise<void> {
  const { logger } = options;
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled promise rejection'));
  let service: RunningService;
  try {
    service = await options.start();
  } catch (error) {
    logger.fatal({ err: error }, `${options.name} failed to start`);
    await options.onExit?.();
    process.exit(1);
  }
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, `${options.name} stopping`);
    const timer = setTimeout(() => {
      logger.error(`${options.name} did not stop within ${options.shutdownTimeoutMs} ms; exiting`);
      process.exit(1);
    }, options.shutdownTimeoutMs + 2000);
    timer.unref();
    try {
      await service.stop();
      logger.info(`${options.name} stopped`);
      await options.onExit?.();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, `${options.name} failed to stop cleanly`);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
