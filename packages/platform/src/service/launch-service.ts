import { createLogger } from '../logging/logger';
import { runService, type RunningService } from '../lifecycle/service-runner';
import { startTelemetryFromEnvironment } from '../telemetry/telemetry';

/**
 * A service process's entry: telemetry starts first, and only then is the service's composition
 * root loaded (by `load`), so express, grpc, amqplib and mongodb are instrumented when required.
 */
export function launchService(options: { name: string; start: () => Promise<RunningService> }): void {
  const telemetry = startTelemetryFromEnvironment(options.name);
  const logger = createLogger({ service: options.name, level: process.env.LOG_LEVEL ?? 'info' });
  const shutdownTimeoutMs = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 10_000) || 10_000;
  void runService({ name: options.name, logger, shutdownTimeoutMs, start: options.start, onExit: () => telemetry.shutdown() });
}
