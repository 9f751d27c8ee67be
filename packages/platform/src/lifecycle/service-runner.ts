import type { Logger } from 'pino';

export interface RunningService {
  stop(): Promise<void>;
}

/** What a started service tells the process that spawned it, over the IPC channel when there is one. */
export interface ServiceStartedMessage {
  event: 'service-started';
  name: string;
  grpcPort?: number;
  healthPort?: number;
  port?: number;
}

/** The ports a running service listens on, whichever kind of service it is. */
function startedMessage(name: string, service: RunningService): ServiceStartedMessage {
  const { grpcPort, healthPort, port } = service as RunningService & Partial<Omit<ServiceStartedMessage, 'event' | 'name'>>;
  return { event: 'service-started', name, grpcPort, healthPort, port };
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
  // A launcher that spawned this process with an IPC channel learns the ports chosen (port 0) here.
  process.send?.(startedMessage(options.name, service));
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
