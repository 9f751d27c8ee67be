// dedup-service's deduplicated views, streamed for index rebuilds.
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { DedupServiceClient } from '@destiny/contracts/generated/grpc/destiny/dedup_service/DedupService';
import { createGrpcClient, fromGrpcError } from '@destiny/platform';
import type * as grpc from '@grpc/grpc-js';

export interface DedupViewsSource {
  /** Every canonical-like reference's view as parsed JSON, chunk by chunk. */
  streamViews(chunkSize: number): AsyncIterable<unknown[]>;
  close(): void;
}

export function createDedupViewsClient(address: string): DedupViewsSource {
  const client: DedupServiceClient = createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, address);
  return {
    async *streamViews(chunkSize) {
      const call = client.StreamDeduplicatedViews({ chunk_size: chunkSize });
      try {
        for await (const message of call as AsyncIterable<{ json: string[] }>) yield message.json.map((json) => JSON.parse(json) as unknown);
      } catch (error) {
        throw fromGrpcError(error as grpc.ServiceError);
      } finally {
        call.cancel();
      }
    },
    close: () => client.close(),
  };
}
