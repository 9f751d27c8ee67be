import type { ConfigValues } from '@destiny/platform';
import type { apiGatewayConfig } from '../config';

export type UpstreamName = 'import-service' | 'dedup-service' | 'robot-broker' | 'search-request-service' | 'percolator';

/** gRPC addresses of the services behind the gateway, in the order health problems are reported. */
export function upstreamAddresses(config: ConfigValues<typeof apiGatewayConfig>): Record<UpstreamName, string> {
  return {
    'import-service': config.IMPORT_SERVICE_GRPC_URL,
    'dedup-service': config.DEDUP_SERVICE_GRPC_URL,
    'robot-broker': config.ROBOT_BROKER_GRPC_URL,
    'search-request-service': config.SEARCH_REQUEST_SERVICE_GRPC_URL,
    percolator: config.PERCOLATOR_GRPC_URL,
  };
}
