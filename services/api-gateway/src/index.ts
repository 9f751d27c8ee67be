// Composition root of api-gateway: the only public HTTP surface, calling the services over gRPC.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createFullTextLinks, createLogger, fullTextBlobStorage, loadConfig, startHealthServer } from '@destiny/platform';
import { apiGatewayConfig } from './config';
import { createBearerVerifier } from './auth/auth-provider';
import { RequestAuthenticator, type Caller } from './auth/request.authenticator';
import { createApp } from './entry-points/http/app';
import { createUpstreams } from './upstreams/upstream-clients';
import { FULL_TEXT_URL_SECONDS, routeHandlers } from './upstreams/route-dispatch';
import { upstreamAddresses } from './upstreams/upstream-services';

export const SERVICE_NAME = 'api-gateway';

export interface RunningApiGateway {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/**
 * Requests Node's HTTP parser rejects before express sees them (headers or URL over 16 KB, a
 * malformed request line) get the contract's JSON error body instead of Node's empty one.
 */
function answerUnparsableRequest(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request line or headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request was not received in time.']
        : [400, 'The request is not valid HTTP.'];
  const body = JSON.stringify({ detail });
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export async function startApiGateway(env: NodeJS.ProcessEnv = process.env): Promise<RunningApiGateway> {
  const config = loadConfig(apiGatewayConfig, env);
  // Before anything is opened: a provider missing its variables stops the start here.
  const bearer = createBearerVerifier(config);
  const logger = createLogger({ service: SERVICE_NAME, level: config.LOG_LEVEL });
  const addresses = upstreamAddresses(config);
  const upstreams = createUpstreams(addresses);
  const authenticator = new RequestAuthenticator({
    verifyBearer: (token, required) => bearer.verify(token, required),
    verifyRobotSignature: (input) => upstreams['robot-broker'].call<Caller>('VerifyRobotSignature', input),
  });
  const app = createApp({ logger, upstreams: addresses, authenticator, handlers: routeHandlers(upstreams, createFullTextLinks(fullTextBlobStorage(config), FULL_TEXT_URL_SECONDS)), maxBodyBytes: config.MAX_BODY_BYTES });
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerUnparsableRequest);
  const closeUpstreams = () => Object.values(upstreams).forEach((upstream) => upstream.close());
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(error.code === 'EADDRINUSE' ? new Error(`port ${config.PORT} on ${config.HOST} is already in use (set PORT to another port)`) : error),
      );
      server.listen(config.PORT, config.HOST, () => resolve());
    });
  } catch (error) {
    closeUpstreams();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  // /livez and /readyz for orchestrators, like every service; the gateway holds no connections.
  const health = await startHealthServer({ port: config.HEALTH_PORT, checks: [] });
  logger.info({ port, health_port: health.port }, `${SERVICE_NAME} listening`);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    // Stops accepting, lets in-flight requests finish, then closes idle keep-alive sockets.
    stop: async () => {
      health.setAccepting(false);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), config.SHUTDOWN_TIMEOUT_MS).unref();
      });
      await health.stop();
      closeUpstreams();
    },
  };
}
