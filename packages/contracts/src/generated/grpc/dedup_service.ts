import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Caller as _destiny_common_Caller, Caller__Output as _destiny_common_Caller__Output } from './destiny/common/Caller';
import type { Empty as _destiny_common_Empty, Empty__Output as _destiny_common_Empty__Output } from './destiny/common/Empty';
import type { IdRequest as _destiny_common_IdRequest, IdRequest__Output as _destiny_common_IdRequest__Output } from './destiny/common/IdRequest';
import type { IdsRequest as _destiny_common_IdsRequest, IdsRequest__Output as _destiny_common_IdsRequest__Output } from './destiny/common/IdsRequest';
import type { JsonDocument as _destiny_common_JsonDocument, JsonDocument__Output as _destiny_common_JsonDocument__Output } from './destiny/common/JsonDocument';
import type { JsonDocuments as _destiny_common_JsonDocuments, JsonDocuments__Output as _destiny_common_JsonDocuments__Output } from './destiny/common/JsonDocuments';
import type { AddEnhancementOutcome as _destiny_dedup_service_AddEnhancementOutcome, AddEnhancementOutcome__Output as _destiny_dedup_service_AddEnhancementOutcome__Output } from './destiny/dedup_service/AddEnhancementOutcome';
import type { AddEnhancementsRequest as _destiny_dedup_service_AddEnhancementsRequest, AddEnhancementsRequest__Output as _destiny_dedup_service_AddEnhancementsRequest__Output } from './destiny/dedup_service/AddEnhancementsRequest';
import type { AddEnhancementsResponse as _destiny_dedup_service_AddEnhancementsResponse, AddEnhancementsResponse__Output as _destiny_dedup_service_AddEnhancementsResponse__Output } from './destiny/dedup_service/AddEnhancementsResponse';
import type { DedupServiceClient as _destiny_dedup_service_DedupServiceClient, DedupServiceDefinition as _destiny_dedup_service_DedupServiceDefinition } from './destiny/dedup_service/DedupService';
import type { DeduplicatedViewsChunk as _destiny_dedup_service_DeduplicatedViewsChunk, DeduplicatedViewsChunk__Output as _destiny_dedup_service_DeduplicatedViewsChunk__Output } from './destiny/dedup_service/DeduplicatedViewsChunk';
import type { IngestLine as _destiny_dedup_service_IngestLine, IngestLine__Output as _destiny_dedup_service_IngestLine__Output } from './destiny/dedup_service/IngestLine';
import type { IngestOutcome as _destiny_dedup_service_IngestOutcome, IngestOutcome__Output as _destiny_dedup_service_IngestOutcome__Output } from './destiny/dedup_service/IngestOutcome';
import type { IngestReferencesRequest as _destiny_dedup_service_IngestReferencesRequest, IngestReferencesRequest__Output as _destiny_dedup_service_IngestReferencesRequest__Output } from './destiny/dedup_service/IngestReferencesRequest';
import type { IngestReferencesResponse as _destiny_dedup_service_IngestReferencesResponse, IngestReferencesResponse__Output as _destiny_dedup_service_IngestReferencesResponse__Output } from './destiny/dedup_service/IngestReferencesResponse';
import type { LookupReferencesPage as _destiny_dedup_service_LookupReferencesPage, LookupReferencesPage__Output as _destiny_dedup_service_LookupReferencesPage__Output } from './destiny/dedup_service/LookupReferencesPage';
import type { LookupReferencesRequest as _destiny_dedup_service_LookupReferencesRequest, LookupReferencesRequest__Output as _destiny_dedup_service_LookupReferencesRequest__Output } from './destiny/dedup_service/LookupReferencesRequest';
import type { ReferenceFileLines as _destiny_dedup_service_ReferenceFileLines, ReferenceFileLines__Output as _destiny_dedup_service_ReferenceFileLines__Output } from './destiny/dedup_service/ReferenceFileLines';
import type { ReferenceFileLinesRequest as _destiny_dedup_service_ReferenceFileLinesRequest, ReferenceFileLinesRequest__Output as _destiny_dedup_service_ReferenceFileLinesRequest__Output } from './destiny/dedup_service/ReferenceFileLinesRequest';
import type { StreamDeduplicatedViewsRequest as _destiny_dedup_service_StreamDeduplicatedViewsRequest, StreamDeduplicatedViewsRequest__Output as _destiny_dedup_service_StreamDeduplicatedViewsRequest__Output } from './destiny/dedup_service/StreamDeduplicatedViewsRequest';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  destiny: {
    common: {
      Caller: MessageTypeDefinition<_destiny_common_Caller, _destiny_common_Caller__Output>
      Empty: MessageTypeDefinition<_destiny_common_Empty, _destiny_common_Empty__Output>
      IdRequest: MessageTypeDefinition<_destiny_common_IdRequest, _destiny_common_IdRequest__Output>
      IdsRequest: MessageTypeDefinition<_destiny_common_IdsRequest, _destiny_common_IdsRequest__Output>
      JsonDocument: MessageTypeDefinition<_destiny_common_JsonDocument, _destiny_common_JsonDocument__Output>
      JsonDocuments: MessageTypeDefinition<_destiny_common_JsonDocuments, _destiny_common_JsonDocuments__Output>
    }
    dedup_service: {
      AddEnhancementOutcome: MessageTypeDefinition<_destiny_dedup_service_AddEnhancementOutcome, _destiny_dedup_service_AddEnhancementOutcome__Output>
      AddEnhancementsRequest: MessageTypeDefinition<_destiny_dedup_service_AddEnhancementsRequest, _destiny_dedup_service_AddEnhancementsRequest__Output>
      AddEnhancementsResponse: MessageTypeDefinition<_destiny_dedup_service_AddEnhancementsResponse, _destiny_dedup_service_AddEnhancementsResponse__Output>
      DedupService: SubtypeConstructor<typeof grpc.Client, _destiny_dedup_service_DedupServiceClient> & { service: _destiny_dedup_service_DedupServiceDefinition }
      DeduplicatedViewsChunk: MessageTypeDefinition<_destiny_dedup_service_DeduplicatedViewsChunk, _destiny_dedup_service_DeduplicatedViewsChunk__Output>
      IngestLine: MessageTypeDefinition<_destiny_dedup_service_IngestLine, _destiny_dedup_service_IngestLine__Output>
      IngestOutcome: MessageTypeDefinition<_destiny_dedup_service_IngestOutcome, _destiny_dedup_service_IngestOutcome__Output>
      IngestReferencesRequest: MessageTypeDefinition<_destiny_dedup_service_IngestReferencesRequest, _destiny_dedup_service_IngestReferencesRequest__Output>
      IngestReferencesResponse: MessageTypeDefinition<_destiny_dedup_service_IngestReferencesResponse, _destiny_dedup_service_IngestReferencesResponse__Output>
      LookupReferencesPage: MessageTypeDefinition<_destiny_dedup_service_LookupReferencesPage, _destiny_dedup_service_LookupReferencesPage__Output>
      LookupReferencesRequest: MessageTypeDefinition<_destiny_dedup_service_LookupReferencesRequest, _destiny_dedup_service_LookupReferencesRequest__Output>
      ReferenceFileLines: MessageTypeDefinition<_destiny_dedup_service_ReferenceFileLines, _destiny_dedup_service_ReferenceFileLines__Output>
      ReferenceFileLinesRequest: MessageTypeDefinition<_destiny_dedup_service_ReferenceFileLinesRequest, _destiny_dedup_service_ReferenceFileLinesRequest__Output>
      StreamDeduplicatedViewsRequest: MessageTypeDefinition<_destiny_dedup_service_StreamDeduplicatedViewsRequest, _destiny_dedup_service_StreamDeduplicatedViewsRequest__Output>
    }
  }
}

