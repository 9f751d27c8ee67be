export type DecodeResult = { ok: true; value: unknown } | { ok: false; reason: string };

export const JSON_CONTENT_TYPE = 'application/json';

/**
 * A message whose JSON bytes were already written, by a bridge that forwards what another thread
 * encoded: published as given, so it is not decoded and encoded again on the way.
 */
export class EncodedMessage {
  constructor(readonly content: Buffer) {}
}

export function encodeMessage(message: unknown): Buffer {
  if (message instanceof EncodedMessage) return message.content;
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
