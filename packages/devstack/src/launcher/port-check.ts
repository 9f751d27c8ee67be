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
