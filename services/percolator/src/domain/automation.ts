// Automation rules (§13.1): the stored query has no top-level `query` wrapper, and the pair
// (robot_id, query) is unique, compared on the query's canonical JSON (key order does not matter).
import { ServiceError } from '@destiny/platform';

export interface AutomationRecord {
  id: string;
  robot_id: string;
  query: Record<string, unknown>;
}

/** Canonical JSON: object keys sorted at every level, so equal queries have equal keys. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The reference impl's repr of the refused record inside its error detail. */
export function describeAutomation(automation: AutomationRecord): string {
  return `id=${automation.id} robot_id=${automation.robot_id} query=${JSON.stringify(automation.query)}`;
}

/** §13.1/§5 detail of a query Elasticsearch (or the rule below) refuses. */
export function malformedQuery(automation: AutomationRecord, errorType: string, reason: string): ServiceError {
  return ServiceError.badRequest(`Malformed Elasticsearch document: ${describeAutomation(automation)}. Error: BadRequestError(400, '${errorType}', '${reason}').`);
}

/** A top-level `query` key would be read as a query type named `query`, which does not exist. */
export function assertNoQueryWrapper(automation: AutomationRecord): void {
  if (Object.prototype.hasOwnProperty.call(automation.query, 'query')) {
    throw malformedQuery(automation, 'document_parsing_exception', '[1:2] failed to parse: unknown query [query]');
  }
}

export function duplicateAutomation(automation: Pick<AutomationRecord, 'robot_id' | 'query'>): ServiceError {
  return ServiceError.conflict(`Unable to perform operation on RobotAutomation. Violation: Key (robot_id, query)=(${automation.robot_id}, ${JSON.stringify(automation.query)}) already exists.`);
}
