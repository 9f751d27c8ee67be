import { Metadata, status as GrpcStatus, type ServiceError as GrpcServiceError } from '@grpc/grpc-js';
import { grpcCodeForHttpStatus, httpStatusForGrpcCode, ServiceError, type ErrorDetail } from '../errors/service-error';

/** Trailer carrying the exact HTTP status and contract `detail` of a ServiceError. */
export const ERROR_TRAILER = 'x-destiny-error';

export interface GrpcErrorPayload {
  code: GrpcStatus;
  details: string;
  metadata: Metadata;
}

/**
 * Largest trailer sent: HTTP/2 refuses header blocks much beyond 64 KB, and a refused trailer
 * leaves the call without an answer until its deadline.
 */
export const MAX_ERROR_TRAILER_LENGTH = 32 * 1024;
/** The grpc-message is only a human-readable fallback; the trailer carries the detail. */
const MAX_STATUS_MESSAGE_LENGTH = 1024;
/** An echoed `input` longer than this (as JSON) is shortened when the detail is too large to send. */
const MAX_ECHOED_INPUT_LENGTH = 512;

/** JSON in printable ASCII, as metadata values must be; `\u` escapes keep it the same JSON. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Replaces lone surrogates (which grpc-js cannot percent-encode into a grpc-message) with U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

function shortened(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}… (truncated)`;
}

/** A detail that fits the trailer: long echoed inputs shortened, then issues or text cut. */
function boundedTrailer(status: number, detail: ErrorDetail): string {
  const full = asciiJson({ status, detail });
  if (full.length <= MAX_ERROR_TRAILER_LENGTH) return full;
  if (typeof detail === 'string') return asciiJson({ status, detail: shortened(detail, Math.floor(MAX_ERROR_TRAILER_LENGTH / 8)) });
  const issues = detail.map((issue) => {
    if (issue.input === undefined) return issue;
    const input = asciiJson(issue.input);
    return input.length <= MAX_ECHOED_INPUT_LENGTH ? issue : { ...issue, input: typeof issue.input === 'string' ? shortened(issue.input, MAX_ECHOED_INPUT_LENGTH / 8) : shortened(input, MAX_ECHOED_INPUT_LENGTH) };
  });
  for (let count = issues.length; count > 0; count = Math.floor(count / 2)) {
    const trailer = asciiJson({ status, detail: issues.slice(0, count) });
    if (trailer.length <= MAX_ERROR_TRAILER_LENGTH) return trailer;
  }
  return asciiJson({ status, detail: issues.slice(0, 1).map(({ input: _input, ...issue }) => ({ ...issue, msg: shortened(issue.msg, 1024) })) });
}

export function toGrpcError(error: unknown): GrpcErrorPayload {
  const metadata = new Metadata();
  if (error instanceof ServiceError) {
    metadata.set(ERROR_TRAILER, boundedTrailer(error.httpStatus, error.detail));
    return { code: grpcCodeForHttpStatus(error.httpStatus), details: wellFormed(shortened(error.message, MAX_STATUS_MESSAGE_LENGTH)), metadata };
  }
  return { code: GrpcStatus.INTERNAL, details: 'Internal Server Error', metadata };
}

/** toGrpcError, or a plain 500 should the error itself not be sendable: a call never goes unanswered. */
export function sendableGrpcError(error: unknown): GrpcErrorPayload {
  try {
    return toGrpcError(error);
  } catch {
    return { code: GrpcStatus.INTERNAL, details: 'Internal Server Error', metadata: new Metadata() };
  }
}

/** Turns a failed call back into the ServiceError the remote raised, or a status-mapped one. */
export function fromGrpcError(error: GrpcServiceError): ServiceError {
  const trailer = error.metadata?.get(ERROR_TRAILER)?.[0];
  if (typeof trailer === 'string') {
    try {
      const parsed = JSON.parse(trailer) as { status: number; detail: ErrorDetail };
      return new ServiceError(parsed.status, parsed.detail);
    } catch {
      // fall through to the status mapping
    }
  }
  // Without the trailer the status came from gRPC itself, not from the remote's code: its text
  // names internals (addresses, limits), and RESOURCE_EXHAUSTED is a message over the size limit,
  // a server-side failure rather than the caller's 429.
  const httpStatus = error.code === GrpcStatus.RESOURCE_EXHAUSTED ? 500 : httpStatusForGrpcCode(error.code);
  return new ServiceError(httpStatus, httpStatus === 500 ? 'Internal Server Error' : 'Upstream service failed.');
}
