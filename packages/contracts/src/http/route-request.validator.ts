import { validate } from '../validation/validate';
import { missingBodyIssue, type ValidationIssue } from '../validation/validation-issue';
import { type RouteDefinition } from './routes';

export interface RouteRequestParts {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  /** The parsed JSON body; `undefined` when the request had no body. */
  body?: unknown;
}

export interface ValidatedRouteRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

/**
 * Validates the path, query and body of a request against its route, collecting the issues in
 * FastAPI's order (path, query, body) so one 422 lists them all. A route without a body schema
 * ignores any body (bodiless POST/PATCH with a JSON content type are fine, §1.1).
 */
export function validateRouteRequest(
  route: Pick<RouteDefinition, 'params' | 'query' | 'body'>,
  parts: RouteRequestParts,
): { ok: true; value: ValidatedRouteRequest } | { ok: false; errors: ValidationIssue[] } {
  const errors: ValidationIssue[] = [];
  const value: ValidatedRouteRequest = { params: parts.params ?? {}, query: parts.query ?? {}, body: undefined };
  if (route.params !== undefined) {
    const result = validate(route.params, parts.params ?? {}, 'path');
    if (result.ok) value.params = result.value;
    else errors.push(...result.errors);
  }
  if (route.query !== undefined) {
    const result = validate(route.query, parts.query ?? {}, 'query');
    if (result.ok) value.query = result.value;
    else errors.push(...result.errors);
  }
  if (route.body !== undefined) {
    if (parts.body === undefined) {
      errors.push(missingBodyIssue());
    } else {
      const result = validate(route.body, parts.body, 'body');
      if (result.ok) value.body = result.value;
      else errors.push(...result.errors);
    }
  }
  return errors.length === 0 ? { ok: true, value } : { ok: false, errors };
}
