export type DecodeResult = { ok: true; value: unknown } | { ok: false; reason: string };

export const JSON_CONTENT_TYPE = 'application/json';

export function encodeMessage(message: unknown): Buffer {
  const json = JSON.stringify(message);
  // JSON.stringify gives undefined for undefined, functions and symbols: nothing to send.
  if (json === undefined) throw new TypeError('A message must be JSON-serialisable');
  return Buffer.from(json, 'utf8');
}

export function decodeMessage(content: Buffer): DecodeResult {
  try {
    return { ok: true, value: JSON.parse(content.toString('utf8')) as unknown };
  } catch (err) {
    return { ok: false, reason: `invalid JSON: ${(err as Error).message}` };
  }
}
