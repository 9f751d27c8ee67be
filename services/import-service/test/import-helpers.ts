import http from 'node:http';
import { type AddressInfo } from 'node:net';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { callUnary, createGrpcClient } from '@destiny/platform';

export type ImportClient = InstanceType<ReturnType<typeof loadDestinyProtos>['destiny']['import_service']['ImportService']>;

export function importClient(port: number): ImportClient {
  return createGrpcClient(loadDestinyProtos().destiny.import_service.ImportService, `127.0.0.1:${port}`);
}

export async function call<T>(client: ImportClient, method: string, request: unknown): Promise<T> {
  const fn = (client as unknown as Record<string, never>)[method];
  return callUnary(client, fn, request as never) as Promise<T>;
}

export type Route = (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void;

/** A local HTTP server for batch files and callbacks; routes can be added while it runs. */
export async function startFileServer() {
  const routes = new Map<string, Route>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const route = routes.get(request.url ?? '');
      if (!route) {
        response.statusCode = 404;
        response.end();
        return;
      }
      route(request, response, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    routes,
    serve(path: string, content: string) {
      routes.set(path, (_request, response) => {
        response.setHeader('content-type', 'application/x-ndjson');
        response.end(content);
      });
      return `${base}${path}`;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A route that streams `lines` 25 at a time every 40 ms, so an import can be interrupted mid-file; counts requests. */
export function slowFileRoute(lines: readonly string[]): { route: Route; requests: () => number } {
  let requests = 0;
  const route: Route = (_request, response) => {
    requests += 1;
    let next = 0;
    const timer = setInterval(() => {
      if (response.destroyed) return clearInterval(timer);
      response.write(lines.slice(next, next + 25).join(''));
      next += 25;
      if (next >= lines.length) {
        clearInterval(timer);
        response.end();
      }
    }, 40);
  };
  return { route, requests: () => requests };
}

export { waitFor } from '@destiny/devstack/testing';

export { freePort } from '@destiny/devstack/testing';
