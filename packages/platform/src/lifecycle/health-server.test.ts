import { startHealthServer } from './health-server';

describe('health server', () => {
  it('when every check passes, then /readyz is 200; when one fails or shutdown begins, then 503; /livez stays 200', async () => {
    let databaseUp = true;
    const health = await startHealthServer({ port: 0, host: '127.0.0.1', checks: [{ name: 'database', check: async () => databaseUp }] });
    const base = `http://127.0.0.1:${health.port}`;
    try {
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      databaseUp = false;
      const failing = await fetch(`${base}/readyz`);
      expect(failing.status).toBe(503);
      expect(await failing.json()).toMatchObject({ checks: { database: false } });
      databaseUp = true;
      health.setAccepting(false);
      expect((await fetch(`${base}/readyz`)).status).toBe(503);
      expect((await fetch(`${base}/livez`)).status).toBe(200);
    } finally {
      await health.stop();
    }
  });
});
