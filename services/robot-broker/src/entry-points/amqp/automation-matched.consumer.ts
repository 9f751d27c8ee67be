import { AutomationMatchedEvent, QUEUES, validate } from '@destiny/contracts';
import type { Logger, MessageBus, MessageConsumer } from '@destiny/platform';
import type { NewPendingEnhancement } from '../../data-access/pending-enhancement.repository';

/**
 * `automation.matched` (§13.4): one pending enhancement for the automation's robot, keyed by the
 * event id so a redelivered event adds nothing.
 */
export function startAutomationMatchedConsumer(bus: MessageBus, createPendingRows: (rows: readonly NewPendingEnhancement[]) => Promise<number>, logger: Logger): Promise<MessageConsumer> {
  return bus.consume(
    QUEUES.robotBrokerAutomationMatched,
    async (message) => {
      const parsed = validate(AutomationMatchedEvent, message, 'body');
      if (!parsed.ok) return { outcome: 'dead-letter', reason: 'not an AutomationMatchedEvent' };
      const event = parsed.value;
      try {
        await createPendingRows([{ reference_id: event.reference_id, robot_id: event.robot_id, enhancement_request_id: null, source: event.source, dedup_key: `automation:${event.event_id}` }]);
        return { outcome: 'ack' };
      } catch (error) {
        logger.warn({ err: error }, 'automation.matched handling failed; retrying');
        return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
      }
    },
    { prefetch: 20, retryDelayMs: 1000, maxAttempts: 100 },
  );
}
