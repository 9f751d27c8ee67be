import { AutomationMatchedEvent, QUEUES, validate } from '@destiny/contracts';
import type { Logger, MessageBus, MessageConsumer } from '@destiny/platform';
import type { PendingEnhancementRepository } from '../../data-access/pending-enhancement.repository';

/**
 * `automation.matched` (§13.4): one pending enhancement for the automation's robot, keyed by the
 * event id so a redelivered event adds nothing.
 */
export function startAutomationMatchedConsumer(bus: MessageBus, pending: PendingEnhancementRepository, logger: Logger, workArrived: (robotIds: Iterable<string>) => void): Promise<MessageConsumer> {
  return bus.consume(
    QUEUES.robotBrokerAutomationMatched,
    async (message) => {
      const parsed = validate(AutomationMatchedEvent, message, 'body');
      if (!parsed.ok) return { outcome: 'dead-letter', reason: 'not an AutomationMatchedEvent' };
      const event = parsed.value;
      try {
        const created = await pending.createMany([{ reference_id: event.reference_id, robot_id: event.robot_id, enhancement_request_id: null, source: event.source, dedup_key: `automation:${event.event_id}` }]);
        if (created > 0) workArrived([event.robot_id]);
        return { outcome: 'ack' };
      } catch (error) {
        logger.warn({ err: error }, 'automation.matched handling failed; retrying');
        return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
      }
    },
    { prefetch: 20, retryDelayMs: 1000, maxAttempts: 100 },
  );
}
