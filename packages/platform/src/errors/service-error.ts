import { status as GrpcStatus } from '@grpc/grpc-js';

/** A FastAPI-style validation issue (contract 1.5). */
export interface ValidationIssueBody {
  type: string;
  loc: Array<string | number>;
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export type ErrorDetail = string | ValidationIssueBody[];

/**
 * An expected failure with the HTTP status and `detail` the contract prescribes. Services throw
 * it (or return it) from use cases; gRPC carries it to the gateway, which answers it verbatim.
 */
export class ServiceError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly detail: ErrorDetail,
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
    this.name = 'ServiceError';
  }

  static notFound(model: string, id: string): ServiceError {
    return new ServiceError(404, `${model} with id ${id} does not exist.`);
  }

  static unprocessable(detail: ErrorDetail): ServiceError {
    return new ServiceError(422, detail);
  }

  static conflict(detail: string): ServiceError {
    return new ServiceError(409, detail);
  }

  static badRequest(detail: string): ServiceError {
    return new ServiceError(400, detail);
  }
}

/** The one table between HTTP statuses and gRPC codes (the gateway reads it back). */
const httpToGrpc: Record<number, GrpcStatus> = {
  400: GrpcStatus.INVALID_ARGUMENT,
  401: GrpcStatus.UNAUTHENTICATED,
  403: GrpcStatus.PERMISSION_DENIED,
  404: GrpcStatus.NOT_FOUND,
  409: GrpcStatus.ALREADY_EXISTS,
  422: GrpcStatus.FAILED_PRECONDITION,
  429: GrpcStatus.RESOURCE_EXHAUSTED,
  501: GrpcStatus.UNIMPLEMENTED,
  502: GrpcStatus.UNAVAILABLE,
  503: GrpcStatus.UNAVAILABLE,
  504: GrpcStatus.DEADLINE_EXCEEDED,
};

const grpcToHttp: Partial<Record<GrpcStatus, number>> = {
  [GrpcStatus.INVALID_ARGUMENT]: 400,
  [GrpcStatus.UNAUTHENTICATED]: 401,
  [GrpcStatus.PERMISSION_DENIED]: 403,
  [GrpcStatus.NOT_FOUND]: 404,
  [GrpcStatus.ALREADY_EXISTS]: 409,
  [GrpcStatus.FAILED_PRECONDITION]: 422,
  [GrpcStatus.RESOURCE_EXHAUSTED]: 429,
  // A method the remote does not serve (an older version during a rolling upgrade), as the gateway answers it.
  [GrpcStatus.UNIMPLEMENTED]: 501,
  [GrpcStatus.UNAVAILABLE]: 503,
  [GrpcStatus.DEADLINE_EXCEEDED]: 504,
};

export function grpcCodeForHttpStatus(httpStatus: number): GrpcStatus {
  return httpToGrpc[httpStatus] ?? GrpcStatus.UNKNOWN;
}

export function httpStatusForGrpcCode(code: GrpcStatus): number {
  return grpcToHttp[code] ?? 500;
}
