// Consumes `search-request-service.search-scan` jobs (contract §11.4). A finished request is
// skipped, so a job delivered twice changes nothing; a scan stopped by a shutdown goes back to
// the queue and resumes from its stored progress.
import { QUEUES, SearchScanJob, validate } from '@destiny/contracts';
import type { Logger, MessageBus, MessageConsumer } from '@destiny/platform';
import type { ScanOutcome } from '../../usecases/scan-search-request.usecase';

/** Interruptions are not failures: a rolling restart must never dead-letter a scan. */
const MAX_INTERRUPTIONS = 1000;
const SCANS_IN_PARALLEL = 2;

export async function startSearchScanConsumer(options: { bus: MessageBus; logger: Logger; retryDelayMs: number; scan(requestId: string): Promise<ScanOutcome> }): Promise<MessageConsumer> {
  return options.bus.consume<unknown>(
    QUEUES.searchRequestServiceSearchScan,
    async (message) => {
      const parsed = validate(SearchScanJob, message, 'body');
      if (!parsed.ok) return { outcome: 'dead-letter', reason: `invalid SearchScanJob: ${JSON.stringify(parsed.errors)}` };
      const outcome = await options.scan(parsed.value.search_request_id);
      options.logger.info({ search_request_id: parsed.value.search_request_id, outcome }, 'search scan job handled');
      if (outcome === 'interrupted') return { outcome: 'retry', reason: 'service stopping; the scan resumes from its stored progress' };
      return { outcome: 'ack' };
    },
    { prefetch: SCANS_IN_PARALLEL, maxAttempts: MAX_INTERRUPTIONS, retryDelayMs: options.retryDelayMs },
  );
}
