import { expressPath, ROUTES, validateRouteRequest, type RouteDefinition } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import { once } from 'node:events';
import express, { type Request, type RequestHandler, type Response, Router } from 'express';
import type { RequestAuthenticator } from '../../auth/request.authenticator';
import type { RouteHandler, RouteResult } from '../../upstreams/route-dispatch';
import { SELF_SERVED_ROUTES } from '../../upstreams/route-dispatch';
import { methodNotAllowedHandler } from './error-handling';
import { parseJsonBody } from './request-body';

export interface ApiRouterDependencies {
  authenticator: Pick<RequestAuthenticator, 'authenticate'>;
  handlers: Record<string, RouteHandler>;
  maxBodyBytes: number;
}

async function send(response: Response, result: RouteResult): Promise<void> {
  response.status(result.status);
  if ('empty' in result) response.end();
  else if ('text' in result) response.type('text/plain').send(result.text);
  else if ('jsonArray' in result) await sendJsonArray(response, result.jsonArray, result.around);
  else response.json(result.json);
}

/** Resolves once the response can take more, false when the client went away instead. */
async function drained(response: Response): Promise<boolean> {
  if (response.destroyed) return false;
  const settled = new AbortController();
  try {
    await Promise.race([once(response, 'drain', { signal: settled.signal }), once(response, 'close', { signal: settled.signal })]);
  } finally {
    settled.abort();
  }
  return !response.destroyed;
}

/**
 * Writes the elements as one JSON array (inside `around`'s text, when given), waiting for the client
 * to drain what was written.
 */
async function sendJsonArray(response: Response, elements: AsyncIterable<string>, around: { before: string; after: string } = { before: '', after: '' }): Promise<void> {
  response.type('application/json');
  let separator = `${around.before}[`;
  let first = true;
  try {
    for await (const element of elements) {
      if (!response.write(separator + element) && !(await drained(response))) return;
      separator = ',';
      first = false;
    }
    response.end(`${first ? separator : ''}]${around.after}`);
  } catch (error) {
    // The status line is out: a failure now can only cut the response short, which the client sees.
    response.destroy(error as Error);
  }
}

/**
 * One route of the contract: raw body kept for the robot signature, then authentication and
 * permission (before any validation, §4.3), then JSON parsing and validation of path, query and
 * body (422), then the upstream call.
 */
function routeHandler(route: RouteDefinition, handler: RouteHandler, dependencies: ApiRouterDependencies): RequestHandler {
  return async (request: Request, response: Response) => {
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const caller = await dependencies.authenticator.authenticate(route, request.headers, raw);
    // A route that takes no body ignores whatever was sent, as the reference implementation does.
    const body = route.body ? parseJsonBody(raw) : undefined;
    const validated = validateRouteRequest(route, { params: { ...request.params }, query: { ...(request.query as Record<string, unknown>) }, body });
    if (!validated.ok) throw ServiceError.unprocessable(validated.errors);
    await send(response, await handler({ ...validated.value, caller, status: route.successStatus }));
  };
}

/** Express paths relative to the `/v1` mount. */
const mountedPath = (route: RouteDefinition): string => expressPath(route).replace(/^\/v1/, '');

/** Every route of ROUTES (in its literal-first order), then 405 for known paths with other methods. */
export function apiRouter(dependencies: ApiRouterDependencies): Router {
  const router = Router({ strict: true, caseSensitive: true });
  const readRaw = express.raw({ type: () => true, limit: dependencies.maxBodyBytes });
  const served = ROUTES.filter((route) => !SELF_SERVED_ROUTES.has(route.operationId));
  for (const route of served) {
    const handler = dependencies.handlers[route.operationId];
    if (handler === undefined) throw new Error(`no handler for route ${route.operationId}`);
    router[route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch'](mountedPath(route), readRaw, routeHandler(route, handler, dependencies));
  }
  for (const path of new Set(ROUTES.map(mountedPath))) router.all(path, methodNotAllowedHandler);
  return router;
}

const routePatterns = [...new Set(ROUTES.map((route) => route.path))].map((path) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`));

/**
 * FastAPI's redirect_slashes (§1.1): a known path requested without its trailing slash is
 * redirected with 307 (method and body kept) to the slashed form.
 */
export const trailingSlashRedirect: RequestHandler = (request, response, next) => {
  const path = request.path;
  if (path.endsWith('/') || !routePatterns.some((pattern) => pattern.test(`${path}/`))) return next();
  const query = request.originalUrl.slice(request.originalUrl.indexOf('?') === -1 ? request.originalUrl.length : request.originalUrl.indexOf('?'));
  response.redirect(307, `${request.baseUrl}${path}/${query}`);
};
