// Original file: protos/destiny/search_request_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CountReferencesRequest as _destiny_search_request_service_CountReferencesRequest, CountReferencesRequest__Output as _destiny_search_request_service_CountReferencesRequest__Output } from '../../destiny/search_request_service/CountReferencesRequest';
import type { Empty as _destiny_common_Empty, Empty__Output as _destiny_common_Empty__Output } from '../../destiny/common/Empty';
import type { IdRequest as _destiny_common_IdRequest, IdRequest__Output as _destiny_common_IdRequest__Output } from '../../destiny/common/IdRequest';
import type { JsonDocument as _destiny_common_JsonDocument, JsonDocument__Output as _destiny_common_JsonDocument__Output } from '../../destiny/common/JsonDocument';
import type { RebuildIndexResponse as _destiny_search_request_service_RebuildIndexResponse, RebuildIndexResponse__Output as _destiny_search_request_service_RebuildIndexResponse__Output } from '../../destiny/search_request_service/RebuildIndexResponse';

export interface SearchRequestServiceClient extends grpc.Client {
  CountReferences(argument: _destiny_search_request_service_CountReferencesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CountReferences(argument: _destiny_search_request_service_CountReferencesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CountReferences(argument: _destiny_search_request_service_CountReferencesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CountReferences(argument: _destiny_search_request_service_CountReferencesRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  countReferences(argument: _destiny_search_request_service_CountReferencesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  countReferences(argument: _destiny_search_request_service_CountReferencesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  countReferences(argument: _destiny_search_request_service_CountReferencesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  countReferences(argument: _destiny_search_request_service_CountReferencesRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  CreateSearchEnhancementRequest(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateSearchEnhancementRequest(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateSearchEnhancementRequest(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateSearchEnhancementRequest(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createSearchEnhancementRequest(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createSearchEnhancementRequest(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createSearchEnhancementRequest(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createSearchEnhancementRequest(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  GetSearchEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetSearchEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetSearchEnhancementRequest(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetSearchEnhancementRequest(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getSearchEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getSearchEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getSearchEnhancementRequest(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getSearchEnhancementRequest(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  RebuildIndex(argument: _destiny_common_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_search_request_service_RebuildIndexResponse__Output>): grpc.ClientUnaryCall;
  RebuildIndex(argument: _destiny_common_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_search_request_service_RebuildIndexResponse__Output>): grpc.ClientUnaryCall;
  RebuildIndex(argument: _destiny_common_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_search_request_service_RebuildIndexResponse__Output>): grpc.ClientUnaryCall;
  RebuildIndex(argument: _destiny_common_Empty, callback: grpc.requestCallback<_destiny_search_request_service_RebuildIndexResponse__Output>): grpc.ClientUnaryCall;
  rebuildIndex(argument: _destiny_common_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_search_request_service_RebuildIndexResponse__Output>): grpc.ClientUnaryCall;
  rebuildIndex(argument: _destiny_common_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_search_request_service_RebuildIndexResponse__Output>): grpc.ClientUnaryCall;
  rebuildIndex(argument: _destiny_common_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_search_request_service_RebuildIndexResponse__Output>): grpc.ClientUnaryCall;
  rebuildIndex(argument: _destiny_common_Empty, callback: grpc.requestCallback<_destiny_search_request_service_RebuildIndexResponse__Output>): grpc.ClientUnaryCall;
  
  SearchReferenceIds(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SearchReferenceIds(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SearchReferenceIds(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SearchReferenceIds(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  searchReferenceIds(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  searchReferenceIds(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  searchReferenceIds(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  searchReferenceIds(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  SearchReferences(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SearchReferences(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SearchReferences(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SearchReferences(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  searchReferences(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  searchReferences(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  searchReferences(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  searchReferences(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
}

export interface SearchRequestServiceHandlers extends grpc.UntypedServiceImplementation {
  CountReferences: grpc.handleUnaryCall<_destiny_search_request_service_CountReferencesRequest__Output, _destiny_common_JsonDocument>;
  
  CreateSearchEnhancementRequest: grpc.handleUnaryCall<_destiny_common_JsonDocument__Output, _destiny_common_JsonDocument>;
  
  GetSearchEnhancementRequest: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocument>;
  
  RebuildIndex: grpc.handleUnaryCall<_destiny_common_Empty__Output, _destiny_search_request_service_RebuildIndexResponse>;
  
  SearchReferenceIds: grpc.handleUnaryCall<_destiny_common_JsonDocument__Output, _destiny_common_JsonDocument>;
  
  SearchReferences: grpc.handleUnaryCall<_destiny_common_JsonDocument__Output, _destiny_common_JsonDocument>;
  
}

export interface SearchRequestServiceDefinition extends grpc.ServiceDefinition {
  CountReferences: MethodDefinition<_destiny_search_request_service_CountReferencesRequest, _destiny_common_JsonDocument, _destiny_search_request_service_CountReferencesRequest__Output, _destiny_common_JsonDocument__Output>
  CreateSearchEnhancementRequest: MethodDefinition<_destiny_common_JsonDocument, _destiny_common_JsonDocument, _destiny_common_JsonDocument__Output, _destiny_common_JsonDocument__Output>
  GetSearchEnhancementRequest: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocument, _destiny_common_IdRequest__Output, _destiny_common_JsonDocument__Output>
  RebuildIndex: MethodDefinition<_destiny_common_Empty, _destiny_search_request_service_RebuildIndexResponse, _destiny_common_Empty__Output, _destiny_search_request_service_RebuildIndexResponse__Output>
  SearchReferenceIds: MethodDefinition<_destiny_common_JsonDocument, _destiny_common_JsonDocument, _destiny_common_JsonDocument__Output, _destiny_common_JsonDocument__Output>
  SearchReferences: MethodDefinition<_destiny_common_JsonDocument, _destiny_common_JsonDocument, _destiny_common_JsonDocument__Output, _destiny_common_JsonDocument__Output>
}
