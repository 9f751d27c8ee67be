import { Metadata, status as GrpcStatus, type ServiceError as GrpcServiceError } from '@grpc/grpc-js';
import { grpcCodeForHttpStatus, httpStatusForGrpcCode, ServiceError, type ErrorDetail } from '../errors/service-error';

/** Trailer carrying the exact HTTP status and contract `detail` of a ServiceError. */
export const ERROR_TRAILER = 'x-destiny-error';

export interface GrpcErrorPayload {
  code: GrpcStatus;
  details: string;
  metadata: Metadata;
}

export function toGrpcError(error: unknown): GrpcErrorPayload {
  const metadata = new Metadata();
  if (error instanceof ServiceError) {
    metadata.set(ERROR_TRAILER, JSON.stringify({ status: error.httpStatus, detail: error.detail }));
    return { code: grpcCodeForHttpStatus(error.httpStatus), details: error.message, metadata };
  }
  return { code: GrpcStatus.INTERNAL, details: 'Internal Server Error', metadata };
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
  const httpStatus = httpStatusForGrpcCode(error.code);
  return new ServiceError(httpStatus, httpStatus === 500 ? 'Internal Server Error' : error.details || 'Upstream service failed.');
}
