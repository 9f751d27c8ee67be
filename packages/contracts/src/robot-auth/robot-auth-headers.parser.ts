import { canonicalUuid } from '../validation/uuid';
import { ROBOT_AUTH_DETAILS, SIGNATURE_FRESHNESS_SECONDS, SIGNATURE_SCHEME } from './robot-signature';

export type RobotAuthHeaderCheck =
  | { ok: true; clientId: string; timestampHeader: string; timestamp: number; signature: string }
  | { ok: false; detail: string };

/** Header lookup by lower-case name (Node's `IncomingHttpHeaders`). */
export type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A finite float as Python's `float()` reads it (§4.4), less its `inf`/`nan` and digit underscores.
 * `Number()` alone would also take `0x…`, `0o…` and `0b…`, which Python refuses.
 */
const DECIMAL_FLOAT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * Checks 1–6 of §4.4 (everything before the robot lookup), in order, with their exact 401 details.
 * Steps 7 (robot exists) and 8 (signature) need the robot's secret: see `verifyRobotSignature`.
 */
export function checkRobotAuthHeaders(headers: HeaderBag, nowSeconds: number = Date.now() / 1000): RobotAuthHeaderCheck {
  const authorization = header(headers, 'authorization');
  if (authorization === undefined) return { ok: false, detail: ROBOT_AUTH_DETAILS.authorizationMissing };
  const space = authorization.indexOf(' ');
  const scheme = space === -1 ? authorization : authorization.slice(0, space);
  if (scheme !== SIGNATURE_SCHEME) return { ok: false, detail: ROBOT_AUTH_DETAILS.unsupportedScheme };
  const signature = space === -1 ? '' : authorization.slice(space + 1).trim();
  const clientIdHeader = header(headers, 'x-client-id');
  if (clientIdHeader === undefined) return { ok: false, detail: ROBOT_AUTH_DETAILS.clientIdMissing };
  const clientId = canonicalUuid(clientIdHeader);
  if (clientId === null) return { ok: false, detail: ROBOT_AUTH_DETAILS.clientIdInvalid };
  const timestampHeader = header(headers, 'x-request-timestamp');
  if (timestampHeader === undefined) return { ok: false, detail: ROBOT_AUTH_DETAILS.timestampMissing };
  const timestamp = DECIMAL_FLOAT.test(timestampHeader) ? Number(timestampHeader) : NaN;
  if (!Number.isFinite(timestamp)) return { ok: false, detail: ROBOT_AUTH_DETAILS.timestampInvalid };
  if (nowSeconds - timestamp > SIGNATURE_FRESHNESS_SECONDS) return { ok: false, detail: ROBOT_AUTH_DETAILS.expired };
  return { ok: true, clientId, timestampHeader, timestamp, signature };
}
