// gRPC surface of search-request-service (protos/destiny/search_request_service.proto).
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { CountReferencesRequest__Output } from '@destiny/contracts/generated/grpc/destiny/search_request_service/CountReferencesRequest';
import type { RebuildIndexResponse } from '@destiny/contracts/generated/grpc/destiny/search_request_service/RebuildIndexResponse';
import type { JsonDocument, JsonDocument__Output } from '@destiny/contracts/generated/grpc/destiny/common/JsonDocument';
import { ServiceError, type GrpcServer } from '@destiny/platform';
import type { Client } from '@elastic/elasticsearch';
import { countReferences, searchReferenceIds, searchReferences } from '../../usecases/search-references.usecase';
import type { RebuildReport } from '../../usecases/rebuild-index.usecase';
import type { IdRequest__Output } from '@destiny/contracts/generated/grpc/destiny/common/IdRequest';
import type { SearchEnhancementRequestRead } from '@destiny/contracts';

export interface SearchGrpcDeps {
  es: Client;
  rebuild(): Promise<RebuildReport>;
  /** §11.1: dry runs name a robot that must exist. */
  requireRobot(robotId: string): Promise<unknown>;
  createSearchRequest(input: unknown): Promise<SearchEnhancementRequestRead>;
  getSearchRequest(id: string): Promise<SearchEnhancementRequestRead>;
}

function parseJson(request: JsonDocument__Output): unknown {
  try {
    return JSON.parse(request.json || '{}') as unknown;
  } catch {
    throw ServiceError.badRequest('Request body is not valid JSON.');
  }
}

const json = (value: unknown): JsonDocument => ({ json: JSON.stringify(value) });

export function registerSearchRequestGrpc(grpc: GrpcServer, deps: SearchGrpcDeps): void {
  const definition = loadDestinyProtos().destiny.search_request_service.SearchRequestService.service;
  grpc.addService(definition, {
    SearchReferences: async (request: JsonDocument__Output) => json(await searchReferences(deps.es, parseJson(request))),
    SearchReferenceIds: async (request: JsonDocument__Output) => json(await searchReferenceIds(deps.es, parseJson(request))),
    CountReferences: async (request: CountReferencesRequest__Output) => {
      if (request.robot_id) await deps.requireRobot(request.robot_id);
      return json(await countReferences(deps.es, request.search_query));
    },
    CreateSearchEnhancementRequest: async (request: JsonDocument__Output) => json(await deps.createSearchRequest(parseJson(request))),
    GetSearchEnhancementRequest: async (request: IdRequest__Output) => json(await deps.getSearchRequest(request.id)),
    RebuildIndex: async (): Promise<RebuildIndexResponse> => {
      const report = await deps.rebuild();
      return { index_name: report.index, indexed: report.indexed };
    },
  });
}
