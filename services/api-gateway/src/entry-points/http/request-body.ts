import { isUtf8 } from 'node:buffer';
import { jsonStructureProblem } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';

/**
 * The JSON body parsed from the raw bytes exactly as received (the robot signature covers those
 * bytes, §4.4). No bytes means no body, whatever the content type says (§1.1).
 */
export function parseJsonBody(raw: Buffer | undefined): unknown {
  if (raw === undefined || raw.length === 0) return undefined;
  // Decoding would silently turn invalid bytes into U+FFFD; FastAPI answers such a body this way.
  if (!isUtf8(raw)) throw ServiceError.badRequest('There was an error parsing the body');
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
  const problem = jsonStructureProblem(body);
  if (problem !== undefined) {
    throw ServiceError.unprocessable([{ type: 'json_invalid', loc: ['body', 0], msg: `JSON decode error: ${problem}`, input: {}, ctx: { error: problem } }]);
  }
  return body;
}
