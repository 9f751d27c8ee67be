import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

interface FixtureResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runFixture(name: string, env: Record<string, string>): Promise<FixtureResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(__dirname, 'fixtures', name)], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('telemetry', () => {
  it('when a request crosses HTTP, gRPC and RabbitMQ, then every hop is in one trace and the spans reach the collector', async () => {
    const received: string[] = [];
    const collector = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push(Buffer.concat(chunks).toString());
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    try {
      const result = await runFixture('trace-chain.fixture.js', {
        COLLECTOR_URL: `http://127.0.0.1:${(collector.address() as AddressInfo).port}`,
        AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const seen = JSON.parse(result.stdout.trim()) as { http: string; grpc: string; amqp: string };
      expect(seen.http).toMatch(/^[0-9a-f]{32}$/);
      expect(seen.grpc).toBe(seen.http);
      expect(seen.amqp).toBe(seen.http);
      expect(received.join('\n')).toContain(seen.http);
    } finally {
      collector.close();
    }
  });

  it('when no collector is configured, then every hop still carries one real trace id, so logs correlate', async () => {
    const result = await runFixture('trace-chain.fixture.js', { AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const seen = JSON.parse(result.stdout.trim()) as { http: string; grpc: string; amqp: string };
    expect(seen.http).toMatch(/^[0-9a-f]{32}$/);
    expect(seen.http).not.toMatch(/^0+$/);
    expect(seen.grpc).toBe(seen.http);
    expect(seen.amqp).toBe(seen.http);
  });

  it('when no collector is reachable, then shutdown completes cleanly and nothing is printed', async () => {
    const result = await runFixture('unreachable-collector.fixture.js', { COLLECTOR_URL: 'http://127.0.0.1:9' });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('');
  });
});
