// AWS Signature Version 4 verification for S3 requests, both forms: the Authorization header and
// presigned query parameters (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html).
import crypto from 'node:crypto';
import { type S3Error, s3Errors } from './s3-error';

export const SIGNING_ALGORITHM = 'AWS4-HMAC-SHA256';
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD';
export const STREAMING_PAYLOAD = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD';
const EMPTY_SHA256 = crypto.createHash('sha256').update('').digest('hex');
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
const MAX_PRESIGN_EXPIRY_SECONDS = 7 * 24 * 60 * 60;

/** The parts of an HTTP request that take part in the signature. */
export interface SignedRequest {
  method: string;
  /** Path as sent on the wire (percent-encoded), without the query. */
  rawPath: string;
  /** Query string as sent on the wire, without the leading '?'. */
  rawQuery: string;
  /** Header values by lower-case name; repeated headers as arrays. */
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export interface SignatureConfig {
  region: string;
  /** Secret keys by access key. */
  secrets: ReadonlyMap<string, string>;
  now?: () => Date;
}

/** What the verifier learned: how the payload is protected, and what streaming chunk signatures chain from. */
export interface VerifiedSignature {
  accessKey: string;
  presigned: boolean;
  /** A hex SHA-256 the body must hash to, UNSIGNED-PAYLOAD or STREAMING-AWS4-HMAC-SHA256-PAYLOAD. */
  payloadHash: string;
  signature: string;
  signingKey: Buffer;
  amzDate: string;
  scope: string;
}

/** RFC 3986 encoding as SigV4 wants it: everything but unreserved characters is %XX (upper-case). */
export function awsUriEncode(value: string, keepSlash = false): string {
  const encoded = encodeURIComponent(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

function decodeComponent(value: string, plusIsSpace: boolean): string {
  try {
    return decodeURIComponent(plusIsSpace ? value.replace(/\+/g, ' ') : value);
  } catch {
    throw s3Errors.invalidArgument('The request contains an invalid percent-encoding.');
  }
}

/** Query parameters in wire order, decoded; a parameter without '=' has the value ''. */
export function parseQuery(rawQuery: string): Array<[string, string]> {
  if (rawQuery === '') return [];
  return rawQuery
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals === -1 ? part : part.slice(0, equals);
      const value = equals === -1 ? '' : part.slice(equals + 1);
      return [decodeComponent(name, true), decodeComponent(value, true)];
    });
}

/** Decodes the wire path and re-encodes it canonically, so clients that escape different characters still agree. */
export function canonicalUri(rawPath: string): string {
  return rawPath
    .split('/')
    .map((segment) => awsUriEncode(decodeComponent(segment, false)))
    .join('/');
}

export function canonicalQuery(parameters: Array<[string, string]>): string {
  return parameters
    .map(([name, value]) => [awsUriEncode(name), awsUriEncode(value)] as const)
    .sort(([nameA, valueA], [nameB, valueB]) => (nameA < nameB ? -1 : nameA > nameB ? 1 : valueA < valueB ? -1 : valueA > valueB ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function headerValue(headers: SignedRequest['headers'], name: string): string | undefined {
  const value = headers[name];
  if (value === undefined) return undefined;
  const values = Array.isArray(value) ? value : [value];
  return values.map((one) => one.trim().replace(/\s+/g, ' ')).join(',');
}

export function canonicalRequest(request: SignedRequest, parameters: Array<[string, string]>, signedHeaders: string[], payloadHash: string): string {
  const headerLines = signedHeaders.map((name) => `${name}:${headerValue(request.headers, name) ?? ''}\n`).join('');
  return [request.method.toUpperCase(), canonicalUri(request.rawPath), canonicalQuery(parameters), headerLines, signedHeaders.join(';'), payloadHash].join('\n');
}

export function signingKey(secretKey: string, date: string, region: string, service = 's3'): Buffer {
  const dateKey = crypto.createHmac('sha256', `AWS4${secretKey}`).update(date).digest();
  const regionKey = crypto.createHmac('sha256', dateKey).update(region).digest();
  const serviceKey = crypto.createHmac('sha256', regionKey).update(service).digest();
  return crypto.createHmac('sha256', serviceKey).update('aws4_request').digest();
}

export function stringToSign(amzDate: string, scope: string, canonical: string): string {
  return [SIGNING_ALGORITHM, amzDate, scope, crypto.createHash('sha256').update(canonical).digest('hex')].join('\n');
}

export function hmacHex(key: Buffer, data: string): string {
  return crypto.createHmac('sha256', key).update(data).digest('hex');
}

/** Constant-time comparison of two hex signatures. */
export function signaturesEqual(expected: string, provided: string): boolean {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(provided, 'utf8');
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The signature of one chunk of a STREAMING-AWS4-HMAC-SHA256-PAYLOAD body, chained from the previous one. */
export function chunkSignature(key: Buffer, amzDate: string, scope: string, previousSignature: string, chunk: Buffer): string {
  return chunkSignatureOfHash(key, amzDate, scope, previousSignature, crypto.createHash('sha256').update(chunk).digest('hex'));
}

/** chunkSignature from the chunk's hex SHA-256, for chunks hashed as they stream. */
export function chunkSignatureOfHash(key: Buffer, amzDate: string, scope: string, previousSignature: string, chunkHash: string): string {
  return hmacHex(key, ['AWS4-HMAC-SHA256-PAYLOAD', amzDate, scope, previousSignature, EMPTY_SHA256, chunkHash].join('\n'));
}

const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;

function parseAmzDate(value: string): Date | undefined {
  const match = AMZ_DATE.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second] = match;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)));
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function formatAmzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/** SigV4 allows the HTTP Date header in place of x-amz-date; the string to sign then uses it in ISO 8601 form. */
function dateHeaderAsAmzDate(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : formatAmzDate(date);
}

interface Credential {
  accessKey: string;
  date: string;
  region: string;
  scope: string;
}

function parseCredential(value: string, malformed: (message: string, details?: Record<string, string>) => S3Error, config: SignatureConfig): Credential {
  // The access key itself may contain '/', so the scope is the last four parts.
  const parts = value.split('/');
  if (parts.length < 5) throw malformed(`Error parsing the X-Amz-Credential parameter; the Credential is mal-formed; expecting "<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request".`);
  const [date, region, service, terminator] = parts.slice(-4);
  const accessKey = parts.slice(0, -4).join('/');
  if (!/^\d{8}$/.test(date)) throw malformed(`Error parsing the X-Amz-Credential parameter; incorrect date format "${date}". This date in the credential must be in the format "yyyyMMdd".`);
  if (service !== 's3') throw malformed(`Error parsing the X-Amz-Credential parameter; incorrect service "${service}". This endpoint belongs to "s3".`);
  if (terminator !== 'aws4_request') throw malformed(`Error parsing the X-Amz-Credential parameter; incorrect terminal "${terminator}". This endpoint uses "aws4_request".`);
  if (region !== config.region) {
    throw malformed(`Error parsing the X-Amz-Credential parameter; the region '${region}' is wrong; expecting '${config.region}'`, { Region: config.region });
  }
  return { accessKey, date, region, scope: `${date}/${region}/s3/aws4_request` };
}

function parseSignedHeaders(value: string, malformed: (message: string) => S3Error): string[] {
  const names = value.split(';');
  if (names.some((name) => name === '' || name !== name.toLowerCase())) throw malformed('The SignedHeaders list is malformed.');
  if (!names.includes('host')) throw malformed("The SignedHeaders list must include 'host'.");
  return names;
}

/** Every x-amz-* header the client sent must be covered by the signature, or it could have been added in transit. */
function requireAmzHeadersSigned(request: SignedRequest, signedHeaders: string[]): void {
  const unsigned = Object.keys(request.headers).filter((name) => name.startsWith('x-amz-') && !signedHeaders.includes(name));
  if (unsigned.length > 0) {
    throw s3Errors.accessDenied('There were headers present in the request which were not signed', { HeadersNotSigned: unsigned.join(', ') });
  }
}

function findSecret(config: SignatureConfig, accessKey: string): string {
  const secret = config.secrets.get(accessKey);
  if (secret === undefined) throw s3Errors.invalidAccessKeyId(accessKey);
  return secret;
}

function verifyHeaderSignature(request: SignedRequest, authorization: string, parameters: Array<[string, string]>, config: SignatureConfig): VerifiedSignature {
  const malformed = (message: string, details?: Record<string, string>) => s3Errors.authorizationHeaderMalformed(message, details);
  if (!authorization.startsWith(`${SIGNING_ALGORITHM} `)) {
    throw s3Errors.invalidRequest('The authorization mechanism you have provided is not supported. Please use AWS4-HMAC-SHA256.');
  }
  const fields = new Map<string, string>();
  for (const field of authorization.slice(SIGNING_ALGORITHM.length + 1).split(',')) {
    const trimmed = field.trim();
    const equals = trimmed.indexOf('=');
    if (equals > 0) fields.set(trimmed.slice(0, equals), trimmed.slice(equals + 1));
  }
  const credentialField = fields.get('Credential');
  const signedHeadersField = fields.get('SignedHeaders');
  const signature = fields.get('Signature');
  if (credentialField === undefined || signedHeadersField === undefined || signature === undefined) {
    throw malformed('The authorization header is malformed; the authorization header requires three components: Credential, SignedHeaders, and Signature.');
  }
  const credential = parseCredential(credentialField, (message, details) => malformed(message.replace('X-Amz-Credential parameter', 'Credential'), details), config);
  const secret = findSecret(config, credential.accessKey);
  const signedHeaders = parseSignedHeaders(signedHeadersField, malformed);

  const amzDate = headerValue(request.headers, 'x-amz-date') ?? dateHeaderAsAmzDate(headerValue(request.headers, 'date'));
  const requestDate = amzDate === undefined ? undefined : parseAmzDate(amzDate);
  if (amzDate === undefined || requestDate === undefined) throw s3Errors.accessDenied('AWS authentication requires a valid Date or x-amz-date header');
  if (amzDate.slice(0, 8) !== credential.date) {
    throw malformed(`The authorization header is malformed; Invalid credential date "${credential.date}". This date is not the same as X-Amz-Date: "${amzDate.slice(0, 8)}".`);
  }
  const now = (config.now ?? (() => new Date()))();
  if (Math.abs(now.getTime() - requestDate.getTime()) > MAX_CLOCK_SKEW_MS) throw s3Errors.requestTimeTooSkewed(amzDate, formatAmzDate(now));

  const payloadHash = headerValue(request.headers, 'x-amz-content-sha256');
  if (payloadHash === undefined) throw s3Errors.invalidRequest('Missing required header for this request: x-amz-content-sha256');
  if (payloadHash !== UNSIGNED_PAYLOAD && payloadHash !== STREAMING_PAYLOAD && !/^[0-9a-f]{64}$/.test(payloadHash)) {
    throw s3Errors.invalidArgument('x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-AWS4-HMAC-SHA256-PAYLOAD, or a valid sha256 value.', 'x-amz-content-sha256', payloadHash);
  }
  requireAmzHeadersSigned(request, signedHeaders);

  const canonical = canonicalRequest(request, parameters, signedHeaders, payloadHash);
  const toSign = stringToSign(amzDate, credential.scope, canonical);
  const key = signingKey(secret, credential.date, credential.region);
  const expected = hmacHex(key, toSign);
  if (!signaturesEqual(expected, signature)) {
    throw s3Errors.signatureDoesNotMatch({ AWSAccessKeyId: credential.accessKey, StringToSign: toSign, SignatureProvided: signature, CanonicalRequest: canonical });
  }
  return { accessKey: credential.accessKey, presigned: false, payloadHash, signature, signingKey: key, amzDate, scope: credential.scope };
}

const PRESIGN_PARAMETERS = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Signature', 'X-Amz-Date', 'X-Amz-SignedHeaders', 'X-Amz-Expires'] as const;

function verifyPresignedSignature(request: SignedRequest, parameters: Array<[string, string]>, config: SignatureConfig): VerifiedSignature {
  const malformed = (message: string, details?: Record<string, string>) => s3Errors.authorizationQueryParametersError(message, details);
  const values = new Map(parameters);
  if (PRESIGN_PARAMETERS.some((name) => !values.has(name))) {
    throw malformed('Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.');
  }
  const get = (name: (typeof PRESIGN_PARAMETERS)[number]) => values.get(name) ?? '';
  if (get('X-Amz-Algorithm') !== SIGNING_ALGORITHM) throw malformed('X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"');
  const credential = parseCredential(get('X-Amz-Credential'), malformed, config);
  const secret = findSecret(config, credential.accessKey);
  const amzDate = get('X-Amz-Date');
  const requestDate = parseAmzDate(amzDate);
  if (requestDate === undefined) throw malformed('X-Amz-Date must be in the ISO8601 Long Format "yyyyMMdd\'T\'HHmmss\'Z\'"');
  if (amzDate.slice(0, 8) !== credential.date) {
    throw malformed(`Invalid credential date "${credential.date}". This date is not the same as X-Amz-Date: "${amzDate.slice(0, 8)}".`);
  }
  const expiresText = get('X-Amz-Expires');
  const expires = /^\d+$/.test(expiresText) ? Number(expiresText) : Number.NaN;
  if (!Number.isInteger(expires) || expires < 1 || expires > MAX_PRESIGN_EXPIRY_SECONDS) {
    throw malformed('X-Amz-Expires must be a number of seconds from 1 to 604800 (seven days).');
  }
  const signedHeaders = parseSignedHeaders(get('X-Amz-SignedHeaders'), malformed);
  requireAmzHeadersSigned(request, signedHeaders);
  const signature = get('X-Amz-Signature');

  const signedParameters = parameters.filter(([name]) => name !== 'X-Amz-Signature');
  const canonical = canonicalRequest(request, signedParameters, signedHeaders, UNSIGNED_PAYLOAD);
  const toSign = stringToSign(amzDate, credential.scope, canonical);
  const key = signingKey(secret, credential.date, credential.region);
  const expected = hmacHex(key, toSign);
  if (!signaturesEqual(expected, signature)) {
    throw s3Errors.signatureDoesNotMatch({ AWSAccessKeyId: credential.accessKey, StringToSign: toSign, SignatureProvided: signature, CanonicalRequest: canonical });
  }

  const now = (config.now ?? (() => new Date()))();
  if (requestDate.getTime() - now.getTime() > MAX_CLOCK_SKEW_MS) throw s3Errors.accessDenied('Request is not valid yet');
  const expiresAt = new Date(requestDate.getTime() + expires * 1000);
  if (now.getTime() > expiresAt.getTime()) {
    throw s3Errors.accessDenied('Request has expired', { 'X-Amz-Expires': expiresText, Expires: expiresAt.toISOString(), ServerTime: now.toISOString() });
  }
  return { accessKey: credential.accessKey, presigned: true, payloadHash: UNSIGNED_PAYLOAD, signature, signingKey: key, amzDate, scope: credential.scope };
}

/**
 * Checks a request's SigV4 signature, whichever form it takes; throws the S3Error S3 would answer with.
 * Requests with neither form are anonymous, which this server does not allow.
 */
export function verifySignature(request: SignedRequest, config: SignatureConfig): VerifiedSignature {
  const parameters = parseQuery(request.rawQuery);
  const authorization = headerValue(request.headers, 'authorization');
  const presigned = parameters.some(([name]) => name === 'X-Amz-Algorithm' || name === 'X-Amz-Signature' || name === 'X-Amz-Credential');
  if (authorization !== undefined && presigned) throw s3Errors.invalidArgument('Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified');
  if (authorization !== undefined) return verifyHeaderSignature(request, authorization, parameters, config);
  if (presigned) return verifyPresignedSignature(request, parameters, config);
  throw s3Errors.accessDenied();
}
