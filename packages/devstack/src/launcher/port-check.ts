import net from 'node:net';

/** Resolves false when something already listens on the port (so we can say so before starting). */
export function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export async function assertPortsFree(ports: Array<{ port: number; variable: string }>, host: string): Promise<void> {
  const busy: string[] = [];
  for (const { port, variable } of ports) {
    if (!(await portIsFree(port, host))) busy.push(`port ${port} on ${host} is already in use (set ${variable} to another port)`);
  }
  if (busy.length > 0) throw new Error(busy.join('\n'));
}

/** A free ephemeral port, for child processes that must be told their port up front. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export function tcpReachable(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const finish = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
