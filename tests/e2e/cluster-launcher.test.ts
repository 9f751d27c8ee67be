import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestMessagingNamespace } from '@destiny/devstack/testing';
import { launcherEnvironment, startLauncher } from './launcher-processes';

describe('cluster mode (npm run start:cluster)', () => {
  it('when started, then six service processes run and the healthcheck is ok; a service killed with SIGKILL is reported unhealthy', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'destiny-cluster-'));
    const messaging = createTestMessagingNamespace('cluster');
    const env = await launcherEnvironment(dataDir, messaging.namespace);
    const cluster = await startLauncher('cluster.cli.js', env, '"msg":"cluster started"');
    try {
      const line = cluster
        .output()
        .split('\n')
        .find((entry) => entry.includes('"msg":"cluster started"'))!;
      const started = JSON.parse(line) as { api_url: string; services: Record<string, { pid: number }> };
      expect(Object.keys(started.services).sort()).toEqual(['api-gateway', 'dedup-service', 'import-service', 'percolator', 'robot-broker', 'search-request-service']);
      const pids = Object.values(started.services).map((service) => service.pid);
      expect(new Set(pids).size).toBe(6);
      expect(pids).not.toContain(cluster.child.pid);

      const healthy = await fetch(`${started.api_url}/v1/system/healthcheck/`);
      expect(healthy.status).toBe(200);

      process.kill(started.services['robot-broker'].pid, 'SIGKILL');
      let status = 200;
      let body: unknown;
      for (let attempt = 0; attempt < 40 && status === 200; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const response = await fetch(`${started.api_url}/v1/system/healthcheck/`);
        status = response.status;
        body = await response.json();
      }
      expect(status).toBe(500);
      expect(body).toEqual({ detail: 'robot-broker is unavailable.' });
    } finally {
      cluster.child.kill('SIGTERM');
      await cluster.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
      await messaging.remove();
    }
  });
});
