import { QUEUES, RobotResultImportJob, validate } from '@destiny/contracts';
import type { Logger, MessageBus, MessageConsumer } from '@destiny/platform';
import type { ImportRobotResults } from '../../usecases/import-robot-results.usecase';

/** Attempts (2 s apart) before an import that keeps failing fails its batch (§12.6 "import crash"). */
const MAX_IMPORT_ATTEMPTS = 30;

export function startRobotResultImportConsumer(bus: MessageBus, importer: ImportRobotResults, logger: Logger, retryDelayMs: number): Promise<MessageConsumer> {
  const running = new Set<string>();
  return bus.consume(
    QUEUES.robotBrokerRobotResultImport,
    async (message, metadata) => {
      const parsed = validate(RobotResultImportJob, message, 'body');
      if (!parsed.ok) return { outcome: 'dead-letter', reason: 'not a RobotResultImportJob' };
      const batchId = parsed.value.robot_enhancement_batch_id;
      if (running.has(batchId)) return { outcome: 'retry', reason: 'import already in progress here' };
      running.add(batchId);
      try {
        await importer.run(batchId);
        return { outcome: 'ack' };
      } catch (error) {
        logger.error({ err: error, robot_enhancement_batch_id: batchId, attempt: metadata.attempt }, 'robot result import failed');
        if (metadata.attempt >= MAX_IMPORT_ATTEMPTS) {
          await importer.fail(batchId);
          return { outcome: 'ack' };
        }
        return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
      } finally {
        running.delete(batchId);
      }
    },
    { prefetch: 4, retryDelayMs, maxAttempts: MAX_IMPORT_ATTEMPTS + 1 },
  );
}
