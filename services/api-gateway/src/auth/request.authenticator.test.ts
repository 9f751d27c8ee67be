import { robotAuthHeaders } from '@destiny/contracts';
import { ServiceError } from '@destiny/platform';
import type { BearerPrincipal } from './bearer-token.verifier';
import { bearerToken, RequestAuthenticator, type RobotSignatureInput } from './request.authenticator';

const ROBOT_ID = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
const NOW = 1767225600;

/** A stand-in verifier (the real ones are tested beside their code) holding `principal.roles` and refusing others with 403. */
function authenticator(principal: Partial<BearerPrincipal> = {}) {
  const robotCalls: RobotSignatureInput[] = [];
  const tokens: string[] = [];
  const required: Array<readonly string[] | undefined> = [];
  const subject = new RequestAuthenticator({
    verifyBearer: async (token, roles) => {
      tokens.push(token);
      required.push(roles);
      if (token === 'expired') throw new ServiceError(401, 'Token is expired.');
      const granted = { subject: 'client', roles: [], entitlements: [], ...principal };
      if (!(roles ?? []).every((role) => granted.roles.includes(role))) throw new ServiceError(403, 'The token does not contain the required role.');
      return granted;
    },
    verifyRobotSignature: async (input) => {
      robotCalls.push(input);
      return { subject: input.client_id, roles: [], entitlements: ['full_text'], robot_id: input.client_id };
    },
    nowSeconds: () => NOW,
  });
  return { subject, robotCalls, tokens, required };
}

const outcome = (promise: Promise<unknown>) => promise.then((value) => ({ ok: value }), (error: ServiceError) => ({ status: error.httpStatus, detail: error.detail }));

describe('bearer credentials (§4.2)', () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['BEARER   abc  ', 'abc'],
    ['Bearer ', undefined],
    ['Bearer', undefined],
    ['Basic abc', undefined],
    ['Signature abc', undefined],
    [undefined, undefined],
  ])('when the header is %p, then the token is %p', (header, token) => {
    expect(bearerToken(header)).toBe(token);
  });
});

describe('request authentication and permissions (§4)', () => {
  it('when a bearer route has no usable bearer credentials, then 401 "Authorization HTTPBearer header missing."', async () => {
    const { subject } = authenticator();
    for (const authorization of [undefined, 'Basic abc', 'Bearer ']) {
      expect(await outcome(subject.authenticate({ auth: 'R' }, { authorization }, Buffer.alloc(0)))).toEqual({ status: 401, detail: 'Authorization HTTPBearer header missing.' });
    }
  });

  it('when the token lacks the route role, then 403; with it, the caller carries roles and entitlements', async () => {
    const { subject } = authenticator({ roles: ['reference.reader'], entitlements: ['full_text'] });
    expect(await outcome(subject.authenticate({ auth: 'I' }, { authorization: 'Bearer t' }, Buffer.alloc(0)))).toEqual({ status: 403, detail: 'The token does not contain the required role.' });
    expect(await outcome(subject.authenticate({ auth: 'R' }, { authorization: 'bearer t' }, Buffer.alloc(0)))).toEqual({
      ok: { subject: 'client', roles: ['reference.reader'], entitlements: ['full_text'], robot_id: '' },
    });
  });

  it('when a bearer route is called, then the verifier is asked for exactly the roles of its auth class, in order', async () => {
    const { subject, required } = authenticator({ roles: ['reference.reader', 'reference.deduplicator', 'import.writer'] });
    for (const auth of ['R', 'D', 'I'] as const) await subject.authenticate({ auth }, { authorization: 'Bearer t' }, Buffer.alloc(0));
    expect(required).toEqual([['reference.reader'], ['reference.reader', 'reference.deduplicator'], ['import.writer']]);
  });

  it('when a deduplicator route is called, then both reference.reader and reference.deduplicator are needed', async () => {
    expect(await outcome(authenticator({ roles: ['reference.deduplicator'] }).subject.authenticate({ auth: 'D' }, { authorization: 'Bearer t' }, Buffer.alloc(0)))).toMatchObject({ status: 403 });
    expect(await outcome(authenticator({ roles: ['reference.reader'] }).subject.authenticate({ auth: 'D' }, { authorization: 'Bearer t' }, Buffer.alloc(0)))).toMatchObject({ status: 403 });
    expect(await outcome(authenticator({ roles: ['reference.reader', 'reference.deduplicator'] }).subject.authenticate({ auth: 'D' }, { authorization: 'Bearer t' }, Buffer.alloc(0)))).toMatchObject({ ok: { subject: 'client' } });
  });

  it('when the token verification fails, then its 401 passes through', async () => {
    expect(await outcome(authenticator().subject.authenticate({ auth: 'W' }, { authorization: 'Bearer expired' }, Buffer.alloc(0)))).toEqual({ status: 401, detail: 'Token is expired.' });
  });

  it('when a route needs no auth, then nothing is checked', async () => {
    const { subject, tokens } = authenticator();
    expect(await outcome(subject.authenticate({ auth: 'none' }, { authorization: 'Bearer x' }, Buffer.alloc(0)))).toMatchObject({ ok: { subject: '' } });
    expect(tokens).toEqual([]);
  });

  it('when a hybrid route gets a bearer token, then only the bearer path runs and needs enhancement_request.writer', async () => {
    const { subject, robotCalls } = authenticator({ roles: ['reference.reader'] });
    expect(await outcome(subject.authenticate({ auth: 'H' }, { authorization: 'Bearer t', 'x-client-id': ROBOT_ID }, Buffer.alloc(0)))).toEqual({ status: 403, detail: 'The token does not contain the required role.' });
    expect(robotCalls).toEqual([]);
  });

  it('when a hybrid route gets a robot signature, then the raw body and headers go to the robot check', async () => {
    const { subject, robotCalls } = authenticator();
    const body = Buffer.from('{"request_id": "x",  "error": null}');
    const headers = robotAuthHeaders({ clientId: ROBOT_ID, secret: 's3cret', body, timestamp: NOW - 10 });
    const lowered = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    expect(await outcome(subject.authenticate({ auth: 'H' }, lowered, body))).toEqual({ ok: { subject: ROBOT_ID, roles: [], entitlements: ['full_text'], robot_id: ROBOT_ID } });
    expect(robotCalls).toEqual([{ authorization: lowered.authorization, client_id: ROBOT_ID, request_timestamp: lowered['x-request-timestamp'], body }]);
  });

  it.each([
    [{}, 'Authorization header missing.'],
    [{ authorization: 'signature abc' }, 'Authorization type not supported.'],
    [{ authorization: 'Signature abc' }, 'X-Client-Id header missing'],
    [{ authorization: 'Signature abc', 'x-client-id': '6ba7b810-9dad-11d1-80b4-00c04fd430c8' }, 'Invalid format for client id, expected UUIDv4 or UUIDv7.'],
    [{ authorization: 'Signature abc', 'x-client-id': ROBOT_ID }, 'X-Request-Timestamp header missing'],
    [{ authorization: 'Signature abc', 'x-client-id': ROBOT_ID, 'x-request-timestamp': String(NOW - 301) }, 'Token is expired.'],
    [{ authorization: 'Signature abc', 'x-client-id': ROBOT_ID, 'x-request-timestamp': 'soon' }, 'Invalid request timestamp.'],
  ])('when a hybrid route gets robot headers %p, then 401 %p without asking robot-broker', async (headers, detail) => {
    const { subject, robotCalls } = authenticator();
    expect(await outcome(subject.authenticate({ auth: 'H' }, headers, Buffer.alloc(0)))).toEqual({ status: 401, detail });
    expect(robotCalls).toEqual([]);
  });
});
