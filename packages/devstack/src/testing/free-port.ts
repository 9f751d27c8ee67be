import fs from 'node:fs';
import net from 'node:net';

const LOWEST_PORT = 10000;

/** The first port of the kernel's ephemeral range (Linux reads it from /proc; elsewhere 32768 or higher). */
export function ephemeralRangeStart(): number {
  try {
    const [low] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && low > LOWEST_PORT + 1000) return low;
  } catch {
    // No /proc (macOS, Windows): their ephemeral ranges start at 49152, above this.
  }
  return 32768;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port nobody listens on now, for a process started later to bind (or for a client to find
 * closed). Taken below the kernel's ephemeral range: a port the kernel hands out (`listen(0)`, or
 * the local end of any outgoing connection) can be taken by another test's connection before the
 * later process binds it.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralRangeStart();
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (high - LOWEST_PORT));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found between ${LOWEST_PORT} and ${high}`);
}
