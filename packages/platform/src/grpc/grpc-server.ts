import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { ServiceError } from '../errors/service-error';
import { isTransientMongoError } from '../mongo/transient-mongo-error';
import { sendableGrpcError } from './grpc-errors';

/** The answer to a call that met the database unreachable, restarting or failing over: worth a retry. */
export const DATABASE_UNAVAILABLE = 'The database is unavailable; try again shortly.';

/** An async unary handler: returns the response or throws a ServiceError. */
export type UnaryHandler<Request, Response> = (request: Request, metadata: grpc.Metadata) => Promise<Response>;

/** A server-streaming handler: writes messages and resolves when done. */
export type StreamHandler<Request, Message> = (request: Request, write: (message: Message) => Promise<void>, metadata: grpc.Metadata) => Promise<void>;

export type HandlerMap = Record<string, UnaryHandler<never, unknown> | { stream: StreamHandler<never, unknown> }>;

export interface GrpcServer {
  addService(definition: grpc.ServiceDefinition, handlers: HandlerMap): void;
  /** Binds and starts; resolves with the bound port. */
  start(): Promise<number>;
  setServing(serving: boolean): void;
  /** Stops taking calls, lets in-flight calls finish within `graceMs`, then forces. */
  stop(graceMs?: number): Promise<void>;
}

export function createGrpcServer(options: { host: string; port: number; logger: Logger }): GrpcServer {
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 64 * 1024 * 1024, 'grpc.max_send_message_length': 64 * 1024 * 1024 });
  // The empty service name reports the whole server, as grpc health probes expect.
  const health = new HealthImplementation({ '': 'NOT_SERVING' });
  health.addToServer(server);
  const serviceNames: string[] = [];

  /** The error as the caller should see it: a transient database failure is a 503, not a 500. */
  const report = (method: string, error: unknown): unknown => {
    if (error instanceof ServiceError) return error;
    if (isTransientMongoError(error)) {
      options.logger.warn({ err: error, method }, 'gRPC handler met the database unavailable');
      return new ServiceError(503, DATABASE_UNAVAILABLE);
    }
    options.logger.error({ err: error, method }, 'gRPC handler failed');
    return error;
  };

  return {
    addService(definition, handlers) {
      const implementation: grpc.UntypedServiceImplementation = {};
      for (const [method, handler] of Object.entries(handlers)) {
        if (!(method in definition)) throw new Error(`gRPC method ${method} is not in the service definition`);
        if (typeof handler === 'function') {
          implementation[method] = ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
            handler(call.request as never, call.metadata).then(
              (response) => callback(null, response),
              (error: unknown) => callback(sendableGrpcError(report(method, error))),
            );
          }) as grpc.UntypedHandleCall;
        } else {
          implementation[method] = ((call: grpc.ServerWritableStream<unknown, unknown>) => {
            const write = (message: unknown) =>
              new Promise<void>((resolve) => {
                if (call.write(message)) resolve();
                else call.once('drain', () => resolve());
              });
            handler.stream(call.request as never, write, call.metadata).then(
              () => call.end(),
              (error: unknown) => {
                const payload = sendableGrpcError(report(method, error));
                call.destroy(Object.assign(new Error(payload.details), payload));
              },
            );
          }) as grpc.UntypedHandleCall;
        }
      }
      server.addService(definition, implementation);
      const first = Object.values(definition)[0];
      if (first) serviceNames.push(first.path.split('/')[1]);
    },
    start() {
      return new Promise((resolve, reject) => {
        server.bindAsync(`${options.host}:${options.port}`, grpc.ServerCredentials.createInsecure(), (error, port) => {
          if (error) reject(new Error(`gRPC could not listen on ${options.host}:${options.port}: ${error.message}`));
          else resolve(port);
        });
      });
    },
    setServing(serving) {
      const status = serving ? 'SERVING' : 'NOT_SERVING';
      health.setStatus('', status);
      for (const name of serviceNames) health.setStatus(name, status);
    },
    stop(graceMs = 5000) {
      this.setServing(false);
      return new Promise((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
    },
  };
}
