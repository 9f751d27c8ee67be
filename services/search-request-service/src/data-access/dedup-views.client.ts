// dedup-service's deduplicated views, streamed for index rebuilds.
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { DedupServiceClient } from '@destiny/contracts/generated/grpc/destiny/dedup_service/DedupService';
import type { DeduplicatedViewsChunk__Output } from '@destiny/contracts/generated/grpc/destiny/dedup_service/DeduplicatedViewsChunk';
import { createGrpcClient, fromGrpcError } from '@destiny/platform';
import type * as grpc from '@grpc/grpc-js';

/** A streamed view as parsed JSON, with the reference's version (0: the sender sent none). */
export interface StreamedView {
  view: unknown;
  version: number;
}

export interface DedupViewsSource {
  /** Every canonical-like reference's view, chunk by chunk. */
  streamViews(chunkSize: number): AsyncIterable<StreamedView[]>;
  close(): void;
}

export function createDedupViewsClient(address: string): DedupViewsSource {
  const client: DedupServiceClient = createGrpcClient(loadDestinyProtos().destiny.dedup_service.DedupService, address);
  return {
    async *streamViews(chunkSize) {
      const call = client.StreamDeduplicatedViews({ chunk_size: chunkSize });
      try {
        for await (const message of call as AsyncIterable<DeduplicatedViewsChunk__Output>) {
          yield message.json.map((json, index) => ({ view: JSON.parse(json) as unknown, version: message.versions[index] ?? 0 }));
        }
      } catch (error) {
        throw fromGrpcError(error as grpc.ServiceError);
      } finally {
        call.cancel();
      }
    },
    close: () => client.close(),
  };
}
