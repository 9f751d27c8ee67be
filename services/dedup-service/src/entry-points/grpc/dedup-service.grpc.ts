import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { GrpcServer } from '@destiny/platform';
import type { AddEnhancementsRequest__Output } from '@destiny/contracts/generated/grpc/destiny/dedup_service/AddEnhancementsRequest';
import type { IngestReferencesRequest__Output } from '@destiny/contracts/generated/grpc/destiny/dedup_service/IngestReferencesRequest';
import type { LookupReferencesRequest__Output } from '@destiny/contracts/generated/grpc/destiny/dedup_service/LookupReferencesRequest';
import type { DeduplicatedViewsChunk } from '@destiny/contracts/generated/grpc/destiny/dedup_service/DeduplicatedViewsChunk';
import type { ReferenceFileLinesRequest__Output } from '@destiny/contracts/generated/grpc/destiny/dedup_service/ReferenceFileLinesRequest';
import type { StreamDeduplicatedViewsRequest__Output } from '@destiny/contracts/generated/grpc/destiny/dedup_service/StreamDeduplicatedViewsRequest';
import type { ReferenceRepository } from '../../data-access/reference.repository';
import { deduplicatedView, isCanonicalLike, type ReferenceDocument } from '../../domain/reference.model';
import type { createAddEnhancements } from '../../usecases/add-enhancements.usecase';
import type { createDuplicateDecisionUsecases } from '../../usecases/duplicate-decisions.usecase';
import type { createIngestReferences } from '../../usecases/ingest-references.usecase';
import type { createReferenceReads } from '../../usecases/reference-reads.usecase';
import { replyPage, ServiceError, type ForegroundPriorityGate } from '@destiny/platform';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw ServiceError.unprocessable('Request body is not valid JSON.');
  }
}

export function registerDedupGrpc(
  grpc: GrpcServer,
  deps: {
    ingest: ReturnType<typeof createIngestReferences>;
    reads: ReturnType<typeof createReferenceReads>;
    decisions: ReturnType<typeof createDuplicateDecisionUsecases>;
    addEnhancements: ReturnType<typeof createAddEnhancements>;
    references: ReferenceRepository;
    /** The reads behind a robot's poll, which go before background work such as the event relay. */
    readsFirst: ForegroundPriorityGate;
    /** Largest page of lookup results, reference-file lines or streamed views in one reply or message. */
    replyPageBytes: number;
  },
): void {
  const protos = loadDestinyProtos();
  grpc.addService(protos.destiny.dedup_service.DedupService.service, {
    IngestReferences: async (request: IngestReferencesRequest__Output) => ({
      outcomes: await deps.ingest({ import_batch_id: request.import_batch_id, collision_strategy: request.collision_strategy, lines: request.lines, give_up_failure_details: request.give_up_failure_details }),
    }),
    GetReference: async (request: { id: string }) => ({ json: JSON.stringify(await deps.reads.getReference(request.id)) }),
    LookupReferences: async (request: LookupReferencesRequest__Output) => {
      const page = await deps.reads.lookupPage(request.identifiers, deps.replyPageBytes);
      return { json: page.json, remaining_ids: page.remainingIds };
    },
    GetDeduplicatedViews: (request: { ids: string[] }) =>
      deps.readsFirst.inForeground(async () => ({ json: (await deps.reads.deduplicatedViews(request.ids)).map((view) => JSON.stringify(view)) })),
    GetStoredReferenceIds: async (request: { ids: string[] }) => {
      const stored = await deps.references.existing(request.ids);
      return { ids: request.ids.filter((id) => stored.has(id)) };
    },
    GetReferenceFileLines: (request: ReferenceFileLinesRequest__Output) =>
      deps.readsFirst.inForeground(async () => {
        const { lines, remainingIds } = await deps.reads.referenceFileLinesPage(request.ids, request.full_text, deps.replyPageBytes);
        return { ids: lines.map((item) => item.id), lines: lines.map((item) => item.line), full_texts: lines.map((item) => item.fullText), remaining_ids: remainingIds };
      }),
    AddEnhancements: async (request: AddEnhancementsRequest__Output) => ({ outcomes: await deps.addEnhancements(request) }),
    MakeDuplicateDecisions: async (request: { json: string }) => ({ json: (await deps.decisions.makeDecisions(parseJson(request.json))).map((item) => JSON.stringify(item)) }),
    InvokeDeduplication: async (request: { ids: string[] }) => {
      await deps.decisions.invoke({ reference_ids: request.ids });
      return {};
    },
    EvaluateDeduplicationCandidates: async (request: { json: string }) => ({ json: (await deps.decisions.candidates(parseJson(request.json))).map((item) => JSON.stringify(item)) }),
    StreamDeduplicatedViews: {
      stream: async (request: StreamDeduplicatedViewsRequest__Output, write: (message: DeduplicatedViewsChunk) => Promise<void>) => {
        const size = request.chunk_size > 0 ? Math.min(request.chunk_size, 5000) : 500;
        let after = '';
        for (;;) {
          const page = (await deps.references.references
            .find(after ? { _id: { $gt: after } } : {}, { projection: { _outbox: 0 } })
            .sort({ _id: 1 })
            .limit(size)
            .toArray()) as ReferenceDocument[];
          if (page.length === 0) return;
          after = page[page.length - 1]._id;
          const heads = page.filter(isCanonicalLike);
          const groups = await deps.references.duplicatesOf(heads.map((row) => row._id));
          // Each view goes with the version of the document it was built from, so the rebuild can
          // order it against live events exactly as the indexer orders events. A page of large
          // views goes out as several messages, each within the reply budget (at least one view).
          let rest = heads;
          while (rest.length > 0) {
            const message = await replyPage(rest, (row) => JSON.stringify(deduplicatedView(row, groups.get(row._id) ?? [])), deps.replyPageBytes);
            await write({ json: message.texts, versions: rest.slice(0, message.taken).map((row) => row.version) });
            rest = rest.slice(message.taken);
          }
        }
      },
    },
  });
}
