// GET /v1/enhancement-requests/search/{id}/ (contract §11.3): the stored scan state plus the
// pending-enhancement counts robot-broker holds, with request_status derived per §10.3.
import { canonicalUuid, type SearchEnhancementRequestRead } from '@destiny/contracts';
import { ServiceError, type RobotBrokerPort } from '@destiny/platform';
import type { SearchEnhancementRequestRepository } from '../data-access/search-enhancement-request.repository';
import { toSearchEnhancementRequestRead } from '../domain/search-enhancement-request';

export async function getSearchEnhancementRequest(deps: { requests: SearchEnhancementRequestRepository; robots: RobotBrokerPort }, rawId: string): Promise<SearchEnhancementRequestRead> {
  const id = canonicalUuid(rawId);
  const request = id === null ? null : await deps.requests.get(id);
  if (!request) throw ServiceError.notFound('SearchEnhancementRequest', rawId);
  return toSearchEnhancementRequestRead(request, await deps.robots.statusCounts(request.id));
}
