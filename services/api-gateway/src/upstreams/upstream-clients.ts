import * as grpc from '@grpc/grpc-js';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { createGrpcClient, ERROR_TRAILER, fromGrpcError, ServiceError } from '@destiny/platform';
import type { UpstreamName } from './upstream-services';

/** What the gateway answers while an upstream method is not implemented yet. */
export const NOT_IMPLEMENTED_DETAIL = 'Not implemented.';

export const UPSTREAM_DEADLINE_MS = 30_000;

type UnaryCallback = (error: grpc.ServiceError | null, response?: unknown) => void;
type UnaryFunction = (request: unknown, metadata: grpc.Metadata, options: grpc.CallOptions, callback: UnaryCallback) => grpc.ClientUnaryCall;

/** One upstream service: calls any of its unary methods by name. */
export interface Upstream {
  readonly name: UpstreamName;
  call<Response>(method: string, request: object): Promise<Response>;
  close(): void;
}

export type Upstreams = Record<UpstreamName, Upstream>;

/**
 * A remote ServiceError comes back verbatim; a method the service does not serve (not in the
 * proto, or not registered yet) is 501; an unreachable service is 503.
 */
export function upstreamError(name: UpstreamName, error: grpc.ServiceError): ServiceError {
  if (error.metadata?.get(ERROR_TRAILER)?.length) return fromGrpcError(error);
  switch (error.code) {
    case grpc.status.UNIMPLEMENTED:
      return new ServiceError(501, NOT_IMPLEMENTED_DETAIL);
    case grpc.status.UNAVAILABLE:
      return new ServiceError(503, `${name} is unavailable.`);
    case grpc.status.DEADLINE_EXCEEDED:
      return new ServiceError(504, `${name} did not answer in time.`);
    default:
      return fromGrpcError(error);
  }
}

function upstream(name: UpstreamName, client: grpc.Client): Upstream {
  return {
    name,
    call<Response>(method: string, request: object): Promise<Response> {
      const fn = (client as unknown as Record<string, unknown>)[method];
      if (typeof fn !== 'function') return Promise.reject(new ServiceError(501, NOT_IMPLEMENTED_DETAIL));
      const deadline = new Date(Date.now() + UPSTREAM_DEADLINE_MS);
      return new Promise<Response>((resolve, reject) => {
        (fn as UnaryFunction).call(client, request, new grpc.Metadata(), { deadline }, (error, response) => {
          if (error) reject(upstreamError(name, error));
          else resolve(response as Response);
        });
      });
    },
    close: () => client.close(),
  };
}

/** gRPC clients of the five services behind the gateway. */
export function createUpstreams(addresses: Record<UpstreamName, string>): Upstreams {
  const protos = loadDestinyProtos().destiny;
  return {
    'import-service': upstream('import-service', createGrpcClient(protos.import_service.ImportService, addresses['import-service'])),
    'dedup-service': upstream('dedup-service', createGrpcClient(protos.dedup_service.DedupService, addresses['dedup-service'])),
    'robot-broker': upstream('robot-broker', createGrpcClient(protos.robot_broker.RobotBroker, addresses['robot-broker'])),
    'search-request-service': upstream('search-request-service', createGrpcClient(protos.search_request_service.SearchRequestService, addresses['search-request-service'])),
    percolator: upstream('percolator', createGrpcClient(protos.percolator.Percolator, addresses.percolator)),
  };
}
