import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReadinessCheck {
  name: string;
  check(): Promise<boolean>;
}

export interface HealthServer {
  port: number;
  /** Readiness goes false first on shutdown, so load balancers stop sending work. */
  setAccepting(accepting: boolean): void;
  stop(): Promise<void>;
}

async function runChecks(checks: readonly ReadinessCheck[]): Promise<Record<string, boolean>> {
  const results = await Promise.all(checks.map(async (entry) => [entry.name, await entry.check().catch(() => false)] as const));
  return Object.fromEntries(results);
}

/** `/livez` (the process runs) and `/readyz` (every dependency answers) for orchestrators. */
export function startHealthServer(options: { port: number; host?: string; checks: readonly ReadinessCheck[] }): Promise<HealthServer> {
  let accepting = true;
  const server = http.createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.url === '/livez') return reply(200, { status: 'ok' });
    if (request.url === '/readyz') {
      void runChecks(options.checks).then((checks) => {
        const ready = accepting && Object.values(checks).every(Boolean);
        reply(ready ? 200 : 503, { status: ready ? 'ok' : 'unavailable', accepting, checks });
      });
      return;
    }
    reply(404, { detail: 'Not Found' });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        setAccepting: (value) => {
          accepting = value;
        },
        stop: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
