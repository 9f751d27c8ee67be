import { createHmac, timingSafeEqual } from 'node:crypto';
import { uuidToBytes } from '../validation/uuid';
import { formatPythonFloat } from './python-float';

export { formatPythonFloat } from './python-float';

// The robot HMAC scheme of contract §4.4:
//   message   = body || ':' || client_uuid_16_raw_bytes || ':' || ascii(ts_string)
//   signature = lowercase_hex(HMAC_SHA256(utf8(client_secret), message))

export const SIGNATURE_SCHEME = 'Signature';
export const CLIENT_ID_HEADER = 'X-Client-Id';
export const REQUEST_TIMESTAMP_HEADER = 'X-Request-Timestamp';
/** `now − timestamp` may not exceed this (future timestamps are accepted). */
export const SIGNATURE_FRESHNESS_SECONDS = 300;

/** The exact 401 details of §4.4, in check order. */
export const ROBOT_AUTH_DETAILS = {
  authorizationMissing: 'Authorization header missing.',
  unsupportedScheme: 'Authorization type not supported.',
  clientIdMissing: 'X-Client-Id header missing',
  clientIdInvalid: 'Invalid format for client id, expected UUIDv4 or UUIDv7.',
  timestampMissing: 'X-Request-Timestamp header missing',
  timestampInvalid: 'Invalid request timestamp.',
  expired: 'Token is expired.',
  signatureInvalid: 'Signature is invalid.',
} as const;

/** `robot client <uuid> does not exist.` */
export function unknownRobotClientDetail(clientId: string): string {
  return `robot client ${clientId} does not exist.`;
}

export interface RobotSignatureInput {
  secret: string;
  clientId: string;
  /** A number is formatted as Python prints a float; a string is signed verbatim (raw header text). */
  timestamp: number | string;
  body: Buffer | Uint8Array | string;
}

export function robotSignature({ secret, clientId, timestamp, body }: RobotSignatureInput): string {
  const tsText = typeof timestamp === 'number' ? formatPythonFloat(timestamp) : timestamp;
  const colon = Buffer.from(':', 'ascii');
  const message = Buffer.concat([
    typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body),
    colon,
    uuidToBytes(clientId),
    colon,
    Buffer.from(tsText, 'ascii'),
  ]);
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(message).digest('hex');
}

export interface RobotAuthHeaders {
  Authorization: string;
  'X-Client-Id': string;
  'X-Request-Timestamp': string;
}

/** The three headers a robot (or the service calling a robot) sends; timestamp defaults to now. */
export function robotAuthHeaders(input: Omit<RobotSignatureInput, 'timestamp'> & { timestamp?: number }): RobotAuthHeaders {
  const timestamp = input.timestamp ?? Date.now() / 1000;
  const tsText = formatPythonFloat(timestamp);
  return {
    Authorization: `${SIGNATURE_SCHEME} ${robotSignature({ ...input, timestamp: tsText })}`,
    'X-Client-Id': input.clientId,
    'X-Request-Timestamp': tsText,
  };
}

function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

export interface RobotSignatureCheck {
  secret: string;
  clientId: string;
  /** The `X-Request-Timestamp` header text. */
  timestampHeader: string;
  body: Buffer | Uint8Array | string;
  /** The hex after `Signature `. */
  signature: string;
}

/**
 * Constant-time check of a presented signature against the Python float re-formatting of the
 * timestamp and, leniently (§4.4 decision), against the raw header text.
 */
export function verifyRobotSignature({ secret, clientId, timestampHeader, body, signature }: RobotSignatureCheck): boolean {
  const parsed = Number(timestampHeader);
  const candidates = new Set<string>([timestampHeader]);
  if (timestampHeader.trim() !== '' && Number.isFinite(parsed)) candidates.add(formatPythonFloat(parsed));
  let ok = false;
  for (const text of candidates) {
    // Evaluate every candidate so timing does not reveal which form matched.
    if (sameHex(robotSignature({ secret, clientId, timestamp: text, body }), signature)) ok = true;
  }
  return ok;
}
