import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EVENTS_EXCHANGE, ROUTING_KEYS, type ReferenceChangedEvent } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { startMongo } from '@destiny/devstack/mongo';
import { createTestMessagingNamespace, TEST_AMQP_URL } from '@destiny/devstack/testing';
import { callUnary, createAmqpConnection, createGrpcClient, createLogger, namespacedBus, type MessageBus } from '@destiny/platform';

export type DedupClient = InstanceType<ReturnType<typeof loadDestinyProtos>['destiny']['dedup_service']['DedupService']>;

export function dedupClient(port: number): DedupClient {
  return createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, `127.0.0.1:${port}`);
}

export async function call<T>(client: DedupClient, method: string, request: unknown): Promise<T> {
  const fn = (client as unknown as Record<string, never>)[method];
  return callUnary(client, fn, request as never) as Promise<T>;
}

/** Environment pieces every component test shares: a MongoDB stand-in and a RabbitMQ namespace. */
export async function startInfrastructure(label: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `destiny-${label}-`));
  const mongo = await startMongo({ port: 0, dataDir });
  const messaging = createTestMessagingNamespace(label);
  const env = { ...messaging.env, MONGODB_URL: mongo.url, GRPC_PORT: '0', HEALTH_PORT: '0', LOG_LEVEL: 'silent', GRPC_HOST: '127.0.0.1' };
  return {
    env,
    mongo,
    messaging,
    async stop() {
      await mongo.stop();
      await messaging.remove();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A test queue bound to the events exchange, collecting `reference.changed` events. */
export async function observeReferenceChanged(namespace: string) {
  const connection = await createAmqpConnection({ url: TEST_AMQP_URL, logger: createLogger({ service: 'test-observer', level: 'silent' }), name: `observer-${namespace}` });
  const bus: MessageBus = namespacedBus(connection, namespace);
  const queue = 'test.reference-changed-observer';
  await bus.declareTopology({ exchanges: [{ name: EVENTS_EXCHANGE, type: 'topic' }], queues: [{ name: queue, bindings: [{ exchange: EVENTS_EXCHANGE, routingKey: ROUTING_KEYS.referenceChanged }] }] });
  const events: ReferenceChangedEvent[] = [];
  await bus.consume<ReferenceChangedEvent>(queue, async (message) => {
    events.push(message);
    return { outcome: 'ack' };
  });
  return {
    events,
    async close() {
      // The test's own queue is not part of the system topology that the namespace removal deletes.
      await bus.deleteTopology({ exchanges: [], queues: [{ name: queue }] });
      await connection.close();
    },
  };
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false> | T | undefined | null | false, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function bibliographic(title: string, authors: string[], year: number, venue = 'Journal of Tests', extra: Record<string, unknown> = {}) {
  return {
    source: 'importer',
    visibility: 'public',
    content: {
      enhancement_type: 'bibliographic',
      title,
      publication_year: year,
      authorship: authors.map((name, index) => ({ display_name: name, position: index === 0 ? 'first' : index === authors.length - 1 ? 'last' : 'middle' })),
      publication_venue: { display_name: venue },
      ...extra,
    },
  };
}
