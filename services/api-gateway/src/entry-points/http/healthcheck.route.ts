import { checkGrpcHealth } from '@destiny/platform';
import { Router } from 'express';
import type { UpstreamName } from '../../upstreams/upstream-services';
import { parseBooleanQuery, validationErrorBody } from './query-parsing';

// The contract's flags name the reference implementation's dependencies; here each maps to the
// services whose readiness covers that dependency.
const servicesByFlag: Record<'database' | 'elasticsearch' | 'azure_blob_storage', UpstreamName[]> = {
  database: ['import-service', 'dedup-service', 'robot-broker', 'search-request-service', 'percolator'],
  elasticsearch: ['search-request-service', 'percolator'],
  azure_blob_storage: ['import-service', 'robot-broker'],
};

/** `GET /v1/system/healthcheck/` (contract 3.3) and `GET /v1/system/ping/`. */
export function healthcheckRouter(addresses: Record<UpstreamName, string>): Router {
  const router = Router({ strict: true, caseSensitive: true });
  router.get('/system/ping/', (_request, response) => {
    response.json({ status: 'ok' });
  });
  router.get('/system/healthcheck/', async (request, response) => {
    const wanted = new Set<UpstreamName>();
    const issues = [];
    for (const flag of Object.keys(servicesByFlag) as Array<keyof typeof servicesByFlag>) {
      const parsed = parseBooleanQuery(request.query[flag], flag, true);
      if (parsed.issue) issues.push(parsed.issue);
      else if (parsed.value) servicesByFlag[flag].forEach((name) => wanted.add(name));
    }
    if (issues.length > 0) {
      response.status(422).json(validationErrorBody(issues));
      return;
    }
    const order = Object.keys(addresses) as UpstreamName[];
    const checked = order.filter((name) => wanted.has(name));
    const results = await Promise.all(checked.map((name) => checkGrpcHealth(addresses[name])));
    const failing = checked.find((_name, index) => !results[index]);
    if (failing) {
      response.status(500).json({ detail: `${failing} is unavailable.` });
      return;
    }
    response.json({ status: 'ok' });
  });
  return router;
}
