import { checkRobotAuthHeaders } from './robot-auth-headers.parser';
import { formatPythonFloat, ROBOT_AUTH_DETAILS, robotAuthHeaders, robotSignature, unknownRobotClientDetail, verifyRobotSignature } from './robot-signature';

// Contract §17.1 test vector.
const SECRET = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0';
const CLIENT = '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e5f';
const TIMESTAMP = '1767225600.5';
const BODY = '{"request_id":"01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e60","error":null}';
const EMPTY_SIGNATURE = 'c964b07f13a0360d0c0e5d5c5ed2946adf7c9522db103515e20e53492d4e7b5b';
const BODY_SIGNATURE = '7bc07d8bc16e67cea1dcd69e5a945fe9788bcf01d34f0b51108b956c2c69d3dc';

describe('robotSignature (§4.4, §17.1)', () => {
  it('when the body is empty, then the signature is the vector value', () => {
    expect(robotSignature({ secret: SECRET, clientId: CLIENT, timestamp: 1767225600.5, body: Buffer.alloc(0) })).toBe(EMPTY_SIGNATURE);
  });

  it('when the body is the result JSON, then the signature is the vector value', () => {
    expect(robotSignature({ secret: SECRET, clientId: CLIENT, timestamp: TIMESTAMP, body: Buffer.from(BODY) })).toBe(BODY_SIGNATURE);
  });

  it('when the client id is given in upper case, then the raw uuid bytes and so the signature are the same', () => {
    expect(robotSignature({ secret: SECRET, clientId: CLIENT.toUpperCase(), timestamp: 1767225600.5, body: '' })).toBe(EMPTY_SIGNATURE);
  });

  it('when headers are built, then they carry the signature, the client id and the Python float text', () => {
    expect(robotAuthHeaders({ secret: SECRET, clientId: CLIENT, timestamp: 1767225600.5, body: BODY })).toEqual({
      Authorization: `Signature ${BODY_SIGNATURE}`,
      'X-Client-Id': CLIENT,
      'X-Request-Timestamp': TIMESTAMP,
    });
  });

  it('when headers are built without a timestamp, then the current time is used', () => {
    const before = Date.now() / 1000;
    const headers = robotAuthHeaders({ secret: SECRET, clientId: CLIENT, body: '' });
    expect(Number(headers['X-Request-Timestamp'])).toBeGreaterThanOrEqual(before - 1);
    expect(headers['X-Request-Timestamp']).toContain('.');
  });
});

describe('formatPythonFloat', () => {
  it.each([
    [1767225600, '1767225600.0'],
    [1767225600.5, '1767225600.5'],
    [1767225600.1234567, '1767225600.1234567'],
    [0.1, '0.1'],
    [0.0001, '0.0001'],
    [0.00015, '0.00015'],
    [1.5e-5, '1.5e-05'],
    [1e-7, '1e-07'],
    [1e16, '1e+16'],
    [1.2345e20, '1.2345e+20'],
    [9999999999999998, '9999999999999998.0'],
    [-2.5, '-2.5'],
    [0, '0.0'],
    [-0, '-0.0'],
    [Infinity, 'inf'],
    [Number.NaN, 'nan'],
  ])('when formatting %p, then it prints %p like Python repr', (value, text) => {
    expect(formatPythonFloat(value)).toBe(text);
  });
});

describe('verifyRobotSignature', () => {
  it('when the header text is the Python form, then the vector signature verifies', () => {
    expect(verifyRobotSignature({ secret: SECRET, clientId: CLIENT, timestampHeader: TIMESTAMP, body: BODY, signature: BODY_SIGNATURE })).toBe(true);
  });

  it('when the header is "1767225600.50", then the Python re-formatting still verifies the signature', () => {
    expect(verifyRobotSignature({ secret: SECRET, clientId: CLIENT, timestampHeader: '1767225600.50', body: BODY, signature: BODY_SIGNATURE })).toBe(true);
  });

  it('when a non-Python robot signed the raw header text, then it verifies too (lenient decision)', () => {
    const signature = robotSignature({ secret: SECRET, clientId: CLIENT, timestamp: '1767225600', body: '' });
    expect(verifyRobotSignature({ secret: SECRET, clientId: CLIENT, timestampHeader: '1767225600', body: '', signature })).toBe(true);
  });

  it('when the body, secret, client or signature case differ, then it fails', () => {
    expect(verifyRobotSignature({ secret: SECRET, clientId: CLIENT, timestampHeader: TIMESTAMP, body: `${BODY} `, signature: BODY_SIGNATURE })).toBe(false);
    expect(verifyRobotSignature({ secret: `${SECRET}0`, clientId: CLIENT, timestampHeader: TIMESTAMP, body: BODY, signature: BODY_SIGNATURE })).toBe(false);
    expect(verifyRobotSignature({ secret: SECRET, clientId: '01970c2e-5b1a-7c3d-9e8f-0a1b2c3d4e60', timestampHeader: TIMESTAMP, body: BODY, signature: BODY_SIGNATURE })).toBe(false);
    expect(verifyRobotSignature({ secret: SECRET, clientId: CLIENT, timestampHeader: TIMESTAMP, body: BODY, signature: BODY_SIGNATURE.toUpperCase() })).toBe(false);
    expect(verifyRobotSignature({ secret: SECRET, clientId: CLIENT, timestampHeader: TIMESTAMP, body: BODY, signature: 'short' })).toBe(false);
  });
});

describe('checkRobotAuthHeaders (checks 1–6 in order)', () => {
  const NOW = 1767225600.5 + 10;
  const good = { authorization: `Signature ${EMPTY_SIGNATURE}`, 'x-client-id': CLIENT, 'x-request-timestamp': TIMESTAMP };

  it('when all headers are well-formed and fresh, then the parts are returned', () => {
    expect(checkRobotAuthHeaders(good, NOW)).toEqual({ ok: true, clientId: CLIENT, timestampHeader: TIMESTAMP, timestamp: 1767225600.5, signature: EMPTY_SIGNATURE });
  });

  it.each([
    ['Authorization is absent', { ...good, authorization: undefined }, ROBOT_AUTH_DETAILS.authorizationMissing],
    ['the scheme is lower case', { ...good, authorization: `signature ${EMPTY_SIGNATURE}` }, 'Authorization type not supported.'],
    ['the scheme is Bearer', { ...good, authorization: 'Bearer x' }, 'Authorization type not supported.'],
    ['X-Client-Id is absent', { ...good, 'x-client-id': undefined }, 'X-Client-Id header missing'],
    ['X-Client-Id is a v1 uuid', { ...good, 'x-client-id': '01970c2e-5b1a-1c3d-9e8f-0a1b2c3d4e5f' }, 'Invalid format for client id, expected UUIDv4 or UUIDv7.'],
    ['the timestamp is absent', { ...good, 'x-request-timestamp': undefined }, 'X-Request-Timestamp header missing'],
    ['the timestamp is not a number', { ...good, 'x-request-timestamp': 'yesterday' }, 'Invalid request timestamp.'],
    ['the timestamp is older than 300 s', { ...good, 'x-request-timestamp': String(NOW - 301) }, 'Token is expired.'],
  ])('when %s, then the detail is %p', (_case, headers, detail) => {
    expect(checkRobotAuthHeaders(headers, NOW)).toEqual({ ok: false, detail });
  });

  it.each(['0x6955b90a', '0o7', '0b1'])('when the timestamp is %p, which JavaScript reads as a number but Python does not, then the detail is "Invalid request timestamp."', (timestamp) => {
    expect(checkRobotAuthHeaders({ ...good, 'x-request-timestamp': timestamp }, NOW)).toEqual({ ok: false, detail: 'Invalid request timestamp.' });
  });

  it.each([' 1767225600.5 ', '+1767225600.5', '1.7672256005e9', '1767225600.', '1767225600'])('when the timestamp is the decimal %p, then it is read as a float', (timestamp) => {
    expect(checkRobotAuthHeaders({ ...good, 'x-request-timestamp': timestamp }, NOW)).toMatchObject({ ok: true, timestamp: Number(timestamp) });
  });

  it('when the timestamp lies in the future, then it is accepted', () => {
    expect(checkRobotAuthHeaders({ ...good, 'x-request-timestamp': String(NOW + 3600) }, NOW).ok).toBe(true);
  });

  it('when the robot is unknown, then the detail names the client', () => {
    expect(unknownRobotClientDetail(CLIENT)).toBe(`robot client ${CLIENT} does not exist.`);
  });
});
