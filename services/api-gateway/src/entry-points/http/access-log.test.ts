import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { createLogger } from '@destiny/platform';
import express from 'express';
import { accessLog } from './access-log';

const TRACE_ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe('access log', () => {
  const lines: Array<Record<string, unknown>> = [];
  let url: string;
  let close: () => Promise<void>;
  const contextManager = new AsyncLocalStorageContextManager();

  beforeAll(async () => {
    context.setGlobalContextManager(contextManager.enable());
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>));
        done();
      },
    });
    const logger = createLogger({ service: 'access-log-test', level: 'info', destination });
    const app = express();
    // What the HTTP instrumentation does for every request: the handlers run inside its span.
    app.use((_request, _response, next) => context.with(trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: '0102030405060708', traceFlags: TraceFlags.SAMPLED }), next));
    app.use(accessLog(logger));
    app.get('/v1/references/:id/', (_request, response) => void setTimeout(() => response.json({ ok: true }), 5));
    app.get('/v1/system/healthcheck/', (_request, response) => void response.json({ status: 'ok' }));
    app.get('/v1/broken/', (_request, response) => void response.status(503).json({ detail: 'down' }));
    app.get('/v1/slow/', () => undefined);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
  });

  afterAll(async () => {
    await close();
    context.disable();
  });

  const waitForLines = async (count: number) => {
    for (let attempt = 0; attempt < 100 && lines.length < count; attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    return lines;
  };

  it('when a request is answered, then one line names method, path without the query, status, bytes and duration, in the request\'s trace', async () => {
    lines.length = 0;
    const response = await fetch(`${url}/v1/references/abc/?token=secret`);
    const body = await response.text();
    const [line] = await waitForLines(1);
    expect(line).toMatchObject({ level: 'info', msg: 'request answered', method: 'GET', path: '/v1/references/abc/', status: 200, bytes: Buffer.byteLength(body), trace_id: TRACE_ID });
    expect(line.duration_ms).toBeGreaterThanOrEqual(4);
    expect(JSON.stringify(line)).not.toContain('secret');
  });

  it('when a probe calls the healthcheck, then its line is debug and not written at info; a 5xx is a warning', async () => {
    lines.length = 0;
    await (await fetch(`${url}/v1/system/healthcheck/`)).text();
    await (await fetch(`${url}/v1/broken/`)).text();
    const written = await waitForLines(1);
    expect(written).toEqual([expect.objectContaining({ level: 'warn', path: '/v1/broken/', status: 503 })]);
  });

  it('when the client goes away before the answer, then the line says so', async () => {
    lines.length = 0;
    const controller = new AbortController();
    const request = fetch(`${url}/v1/slow/`, { signal: controller.signal }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await request;
    const [line] = await waitForLines(1);
    expect(line).toMatchObject({ msg: 'request abandoned by the client before its answer', path: '/v1/slow/', trace_id: TRACE_ID });
  });
});
