import { randomUUID } from 'node:crypto';
import net from 'node:net';
import pino, { type Logger } from 'pino';
import { type MessagingTopology } from '../../src/messaging';

export const RABBITMQ_URL = process.env.DESTINY_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

export function testLogger(): Logger {
  return pino({ level: process.env.DESTINY_TEST_LOG_LEVEL ?? 'silent' });
}

/** Names unique to one test run, so parallel runs never share queues or exchanges. */
export function uniqueName(prefix: string): string {
  return `test.${prefix}.${randomUUID().slice(0, 8)}`;
}

/** One topic exchange and one work queue bound to it with `#`, both with unique names. */
export function singleQueueTopology(prefix: string, queue: Partial<MessagingTopology['queues'][number]> = {}): { topology: MessagingTopology; exchange: string; queue: string } {
  const exchange = uniqueName(`${prefix}.events`);
  const queueName = uniqueName(`${prefix}.work`);
  return {
    exchange,
    queue: queueName,
    topology: {
      exchanges: [{ name: exchange, type: 'topic' }],
      queues: [{ name: queueName, bindings: [{ exchange, routingKey: 'thing.#' }], ...queue }],
    },
  };
}

export async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(10);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A promise a test resolves by hand, to hold handlers in flight. */
export class Gate {
  readonly opened: Promise<void>;
  private release!: () => void;

  constructor() {
    this.opened = new Promise((resolve) => {
      this.release = resolve;
    });
  }

  open(): void {
    this.release();
  }
}

/**
 * A TCP relay between the client and RabbitMQ on an ephemeral port, so a test can cut the
 * network under one connection without touching the broker that other tests share.
 */
export class TcpRelay {
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private refusing = false;
  port = 0;

  async start(target = { host: '127.0.0.1', port: 5672 }): Promise<void> {
    const server = net.createServer((client) => {
      if (this.refusing) {
        client.destroy();
        return;
      }
      const upstream = net.connect(target.port, target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.port = (server.address() as net.AddressInfo).port;
  }

  get url(): string {
    return `amqp://guest:guest@127.0.0.1:${this.port}`;
  }

  /** Drops every relayed connection and refuses new ones until `restore`. */
  cut(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.refusing = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
