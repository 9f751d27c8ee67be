import type { IncomingHttpHeaders } from 'node:http';
import { AUTH_CLASS_ROLES, BEARER_AUTH_DETAILS, checkRobotAuthHeaders, type RouteDefinition } from '@destiny/contracts';
import type { Caller__Output as Caller } from '@destiny/contracts/generated/grpc/destiny/common/Caller';
import { ServiceError } from '@destiny/platform';
import type { BearerVerifier } from './bearer-token.verifier';

export type { Caller };

/** The raw robot-signature material robot-broker checks (§4.4 steps 7–8). */
export interface RobotSignatureInput {
  authorization: string;
  client_id: string;
  request_timestamp: string;
  body: Buffer;
}

export interface AuthenticatorDependencies {
  /** The configured provider's verifier (§4.2): checks the token and the roles the route needs, or throws its 401/403. */
  verifyBearer: BearerVerifier['verify'];
  /** Answers the robot as a Caller or throws the 401 ServiceError robot-broker raised. */
  verifyRobotSignature(input: RobotSignatureInput): Promise<Caller>;
  nowSeconds?: () => number;
}

/**
 * `Authorization: Bearer <token>` with the scheme word in any case and a non-empty token;
 * anything else counts as no bearer credentials (contract §4.2).
 */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^\s*(\S+)\s+(.*)$/s.exec(authorization);
  if (match === null || match[1].toLowerCase() !== 'bearer') return undefined;
  const token = match[2].trim();
  return token === '' ? undefined : token;
}

const ANONYMOUS: Caller = { subject: '', roles: [], entitlements: [], robot_id: '' };

/**
 * Authentication and permission for one route (contract §4): bearer routes need every role of their
 * auth class, which the provider's verifier checks (each provider words a missing role its own way);
 * hybrid routes take a bearer token when one is sent and the robot signature otherwise.
 */
export class RequestAuthenticator {
  constructor(private readonly dependencies: AuthenticatorDependencies) {}

  async authenticate(route: Pick<RouteDefinition, 'auth'>, headers: IncomingHttpHeaders, rawBody: Buffer): Promise<Caller> {
    if (route.auth === 'none') return ANONYMOUS;
    const token = bearerToken(headers.authorization);
    if (route.auth === 'H' && token === undefined) return this.authenticateRobot(headers, rawBody);
    if (token === undefined) throw new ServiceError(401, BEARER_AUTH_DETAILS.headerMissing);
    const principal = await this.dependencies.verifyBearer(token, AUTH_CLASS_ROLES[route.auth]);
    return { subject: principal.subject, roles: principal.roles, entitlements: principal.entitlements, robot_id: '' };
  }

  private async authenticateRobot(headers: IncomingHttpHeaders, rawBody: Buffer): Promise<Caller> {
    const checked = checkRobotAuthHeaders(headers, this.dependencies.nowSeconds?.());
    if (!checked.ok) throw new ServiceError(401, checked.detail);
    return this.dependencies.verifyRobotSignature({
      authorization: String(headers.authorization),
      client_id: checked.clientId,
      request_timestamp: checked.timestampHeader,
      body: rawBody,
    });
  }
}
