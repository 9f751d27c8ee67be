// POST /v1/enhancement-requests/search/ (not a dry run, contract §11.1-11.2): store the request
// and queue its background scan.
import { canonicalUuid, QUEUES, SearchEnhancementRequestIn, uuidv7, validate, type SearchEnhancementRequestRead, type SearchScanJob } from '@destiny/contracts';
import { ServiceError, type Logger, type MessageBus, type RobotBrokerPort } from '@destiny/platform';
import type { SearchEnhancementRequestRepository } from '../data-access/search-enhancement-request.repository';
import { toSearchEnhancementRequestRead, type SearchEnhancementRequest } from '../domain/search-enhancement-request';

export interface CreateSearchRequestDeps {
  requests: SearchEnhancementRequestRepository;
  robots: RobotBrokerPort;
  bus: MessageBus;
  logger: Logger;
}

/** §11.1: the robot is checked before anything else, dry runs included. */
export async function requireRobot(robots: RobotBrokerPort, robotId: string): Promise<string> {
  const id = canonicalUuid(robotId);
  if (id === null || !(await robots.robotExists(id))) throw ServiceError.unprocessable(`Robot with id ${robotId} does not exist.`);
  return id;
}

export async function createSearchEnhancementRequest(deps: CreateSearchRequestDeps, input: unknown): Promise<SearchEnhancementRequestRead> {
  const parsed = validate(SearchEnhancementRequestIn, input, 'body');
  if (!parsed.ok) throw ServiceError.unprocessable(parsed.errors);
  const robotId = await requireRobot(deps.robots, parsed.value.robot_id);
  // The same answer a dry run gives (countReferences), rather than a scan bound to fail.
  if (!parsed.value.search_query) throw ServiceError.badRequest('Elasticsearch query failed: the search query must not be empty');
  const now = new Date();
  const request: SearchEnhancementRequest = {
    id: uuidv7(),
    robot_id: robotId,
    source: parsed.value.source ?? null,
    search_query: parsed.value.search_query,
    search_status: 'pending',
    n_matched: null,
    error: null,
    progress: { pages_done: 0, search_after: null },
    created_at: now,
    updated_at: now,
  };
  await deps.requests.insert(request);
  const job: SearchScanJob = { job_id: uuidv7(), search_request_id: request.id };
  try {
    await deps.bus.sendToQueue(QUEUES.searchRequestServiceSearchScan, job, { messageId: job.job_id });
  } catch (error) {
    deps.logger.error({ err: error, search_request_id: request.id }, 'search scan job could not be queued');
    await deps.requests.finish(request.id, 'failed', 'Could not enqueue search enhancement request.', new Date());
    throw new ServiceError(503, 'Could not enqueue search enhancement request; please retry.');
  }
  return toSearchEnhancementRequestRead(request, {});
}
