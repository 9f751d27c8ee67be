import { ROUTING_KEYS, uuidv7, type ReferenceChangedEvent } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import { observeEvents, startTestInfrastructure } from '@destiny/devstack/testing';
import { callUnary, createGrpcClient, type RunningBackendService } from '@destiny/platform';
import { startDedupService } from '../src/index';

export type DedupClient = InstanceType<ReturnType<typeof loadDestinyProtos>['destiny']['dedup_service']['DedupService']>;

export function dedupClient(port: number): DedupClient {
  return createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, `127.0.0.1:${port}`);
}

export async function call<T>(client: DedupClient, method: string, request: unknown): Promise<T> {
  const fn = (client as unknown as Record<string, never>)[method];
  return callUnary(client, fn, request as never) as Promise<T>;
}

/** Environment pieces every component test shares: the stand-ins and a RabbitMQ namespace. */
export const startInfrastructure = startTestInfrastructure;

/**
 * A dedup-service on stand-ins of its own and a gRPC client to it, started before the calling
 * file's (or describe block's) tests and stopped after them; read its fields inside the tests.
 */
export function dedupServiceForTests(namespace: string): { service: RunningBackendService; client: DedupClient } {
  const running = {} as { service: RunningBackendService; client: DedupClient };
  let infrastructure: Awaited<ReturnType<typeof startInfrastructure>> | undefined;
  beforeAll(async () => {
    infrastructure = await startInfrastructure(namespace);
    running.service = await startDedupService(infrastructure.env);
    running.client = dedupClient(running.service.grpcPort);
  });
  afterAll(async () => {
    running.client?.close();
    await running.service?.stop();
    await infrastructure?.stop();
  });
  return running;
}

/** A test queue bound to the events exchange, collecting `reference.changed` events. */
export async function observeReferenceChanged(namespace: string) {
  const events: ReferenceChangedEvent[] = [];
  const observer = await observeEvents<ReferenceChangedEvent>(namespace, {
    queue: 'test.reference-changed-observer',
    routingKey: ROUTING_KEYS.referenceChanged,
    onEvent: (event) => {
      events.push(event);
    },
  });
  return { events, close: () => observer.close() };
}

export { waitFor } from '@destiny/devstack/testing';

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

/** One import line for IngestReferences: the identifiers and an importer's abstract. */
export function abstractLine(identifiers: unknown[], abstract: string, importResultId = uuidv7()) {
  return {
    line_number: 1,
    import_result_id: importResultId,
    reference_json: JSON.stringify({ identifiers, enhancements: [{ source: 'importer', visibility: 'public', content: { enhancement_type: 'abstract', process: 'other', abstract } }] }),
  };
}
