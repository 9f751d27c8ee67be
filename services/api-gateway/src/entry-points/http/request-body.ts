import { ServiceError } from '@destiny/platform';

/**
 * The JSON body parsed from the raw bytes exactly as received (the robot signature covers those
 * bytes, §4.4). No bytes means no body, whatever the content type says (§1.1).
 */
export function parseJsonBody(raw: Buffer | undefined): unknown {
  if (raw === undefined || raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const position = /position (\d+)/.exec((error as Error).message);
    throw ServiceError.unprocessable([
      { type: 'json_invalid', loc: ['body', position ? Number(position[1]) : 0], msg: 'JSON decode error', input: {}, ctx: { error: 'Invalid JSON' } },
    ]);
  }
  if (nestingDepth(body) > MAX_JSON_DEPTH) {
    throw ServiceError.unprocessable([{ type: 'json_invalid', loc: ['body', 0], msg: `JSON decode error: nested deeper than ${MAX_JSON_DEPTH} levels`, input: {}, ctx: { error: 'Too deeply nested' } }]);
  }
  return body;
}

/**
 * Deepest nesting a body may have. No contract body comes near it (an automation's query is the
 * deepest, ~10 levels); beyond it, echoing, forwarding or canonicalising the body would recurse
 * out of stack and answer 500.
 */
export const MAX_JSON_DEPTH = 100;

/** Depth of arrays and objects, walked without recursion (the body may be deeper than the stack). */
function nestingDepth(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Array.isArray(item) ? item : Object.values(item)) if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return deepest;
}
