import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Caller as _destiny_common_Caller, Caller__Output as _destiny_common_Caller__Output } from './destiny/common/Caller';
import type { Empty as _destiny_common_Empty, Empty__Output as _destiny_common_Empty__Output } from './destiny/common/Empty';
import type { IdRequest as _destiny_common_IdRequest, IdRequest__Output as _destiny_common_IdRequest__Output } from './destiny/common/IdRequest';
import type { IdsRequest as _destiny_common_IdsRequest, IdsRequest__Output as _destiny_common_IdsRequest__Output } from './destiny/common/IdsRequest';
import type { JsonDocument as _destiny_common_JsonDocument, JsonDocument__Output as _destiny_common_JsonDocument__Output } from './destiny/common/JsonDocument';
import type { JsonDocuments as _destiny_common_JsonDocuments, JsonDocuments__Output as _destiny_common_JsonDocuments__Output } from './destiny/common/JsonDocuments';
import type { CountReferencesRequest as _destiny_search_request_service_CountReferencesRequest, CountReferencesRequest__Output as _destiny_search_request_service_CountReferencesRequest__Output } from './destiny/search_request_service/CountReferencesRequest';
import type { RebuildIndexResponse as _destiny_search_request_service_RebuildIndexResponse, RebuildIndexResponse__Output as _destiny_search_request_service_RebuildIndexResponse__Output } from './destiny/search_request_service/RebuildIndexResponse';
import type { SearchRequestServiceClient as _destiny_search_request_service_SearchRequestServiceClient, SearchRequestServiceDefinition as _destiny_search_request_service_SearchRequestServiceDefinition } from './destiny/search_request_service/SearchRequestService';

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
    search_request_service: {
      CountReferencesRequest: MessageTypeDefinition<_destiny_search_request_service_CountReferencesRequest, _destiny_search_request_service_CountReferencesRequest__Output>
      RebuildIndexResponse: MessageTypeDefinition<_destiny_search_request_service_RebuildIndexResponse, _destiny_search_request_service_RebuildIndexResponse__Output>
      SearchRequestService: SubtypeConstructor<typeof grpc.Client, _destiny_search_request_service_SearchRequestServiceClient> & { service: _destiny_search_request_service_SearchRequestServiceDefinition }
    }
  }
}

