import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { ServiceError } from '../errors/service-error';
import { fromGrpcError } from './grpc-errors';

export const DEFAULT_DEADLINE_MS = 15_000;

type UnaryMethod<Request, Response> = (
  request: Request,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, response?: Response) => void,
) => grpc.ClientUnaryCall;

const GRPC_CLIENT_OPTIONS: grpc.ChannelOptions = {
  'grpc.max_receive_message_length': 64 * 1024 * 1024,
  'grpc.max_send_message_length': 64 * 1024 * 1024,
  // HTTP/2's default 64 KB receive window makes a reply of a few MB (a robot's reference-file lines)
  // wait for a window update from this process's event loop every 64 KB; a busy loop stretched a
  // 2 MB reply by ~35 ms. With 16 MB the server sends such a reply without waiting.
  'grpc-node.flow_control_window': 16 * 1024 * 1024,
  // gRPC's reconnect back-off grows to 120 s by default: a service back from a few minutes' outage
  // was then called again only up to two minutes later (imports waited that long to resume).
  'grpc.max_reconnect_backoff_ms': 5_000,
};

export function createGrpcClient<Client extends grpc.Client>(ClientClass: new (address: string, credentials: grpc.ChannelCredentials, options?: grpc.ChannelOptions) => Client, address: string): Client {
  return new ClientClass(address, grpc.credentials.createInsecure(), GRPC_CLIENT_OPTIONS);
}

/**
 * Calls one unary RPC with a deadline; a remote ServiceError comes back as the same ServiceError,
 * an unreachable service as 503.
 */
export function callUnary<Request, Response>(
  client: grpc.Client,
  method: UnaryMethod<Request, Response>,
  request: Request,
  options: { deadlineMs?: number; metadata?: grpc.Metadata } = {},
): Promise<Response> {
  const deadline = new Date(Date.now() + (options.deadlineMs ?? DEFAULT_DEADLINE_MS));
  return new Promise((resolve, reject) => {
    method.call(client, request, options.metadata ?? new grpc.Metadata(), { deadline }, (error, response) => {
      if (error) reject(fromGrpcError(error));
      else if (response === undefined) reject(new ServiceError(500, 'Internal Server Error'));
      else resolve(response);
    });
  });
}

interface HealthCheckResponse {
  status: 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';
}

type HealthClient = grpc.Client & {
  Check: UnaryMethod<{ service: string }, HealthCheckResponse>;
};

let HealthClientClass: (new (address: string, credentials: grpc.ChannelCredentials) => HealthClient) | undefined;

/** Asks a service's standard gRPC health endpoint whether it is serving. */
export async function checkGrpcHealth(address: string, deadlineMs = 2000): Promise<boolean> {
  if (!HealthClientClass) {
    const definition = protoLoader.loadSync(healthProtoPath, { keepCase: true, enums: String, defaults: true });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as { grpc: { health: { v1: { Health: typeof HealthClientClass } } } };
    HealthClientClass = loaded.grpc.health.v1.Health;
  }
  const client = new HealthClientClass!(address, grpc.credentials.createInsecure());
  try {
    const response = await callUnary(client, client.Check, { service: '' }, { deadlineMs });
    return response.status === 'SERVING';
  } catch {
    return false;
  } finally {
    client.close();
  }
}
