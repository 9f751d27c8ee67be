import net from 'node:net';
import { ephemeralRangeStart, freePort } from './free-port';

describe('freePort', () => {
  it('when a port is asked for, then it lies below the ephemeral range and can be listened on', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10000);
      expect(port).toBeLessThan(ephemeralRangeStart());
    }
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[0], '127.0.0.1', resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it('when the chosen port is taken, then another one is found', async () => {
    const taken = await freePort();
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(taken, '127.0.0.1', resolve));
    try {
      const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));
      expect(ports).not.toContain(taken);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
