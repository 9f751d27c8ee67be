// Original file: protos/destiny/dedup_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AddEnhancementsRequest as _destiny_dedup_service_AddEnhancementsRequest, AddEnhancementsRequest__Output as _destiny_dedup_service_AddEnhancementsRequest__Output } from '../../destiny/dedup_service/AddEnhancementsRequest';
import type { AddEnhancementsResponse as _destiny_dedup_service_AddEnhancementsResponse, AddEnhancementsResponse__Output as _destiny_dedup_service_AddEnhancementsResponse__Output } from '../../destiny/dedup_service/AddEnhancementsResponse';
import type { DeduplicatedViewsChunk as _destiny_dedup_service_DeduplicatedViewsChunk, DeduplicatedViewsChunk__Output as _destiny_dedup_service_DeduplicatedViewsChunk__Output } from '../../destiny/dedup_service/DeduplicatedViewsChunk';
import type { Empty as _destiny_common_Empty, Empty__Output as _destiny_common_Empty__Output } from '../../destiny/common/Empty';
import type { IdRequest as _destiny_common_IdRequest, IdRequest__Output as _destiny_common_IdRequest__Output } from '../../destiny/common/IdRequest';
import type { IdsRequest as _destiny_common_IdsRequest, IdsRequest__Output as _destiny_common_IdsRequest__Output } from '../../destiny/common/IdsRequest';
import type { IngestReferencesRequest as _destiny_dedup_service_IngestReferencesRequest, IngestReferencesRequest__Output as _destiny_dedup_service_IngestReferencesRequest__Output } from '../../destiny/dedup_service/IngestReferencesRequest';
import type { IngestReferencesResponse as _destiny_dedup_service_IngestReferencesResponse, IngestReferencesResponse__Output as _destiny_dedup_service_IngestReferencesResponse__Output } from '../../destiny/dedup_service/IngestReferencesResponse';
import type { JsonDocument as _destiny_common_JsonDocument, JsonDocument__Output as _destiny_common_JsonDocument__Output } from '../../destiny/common/JsonDocument';
import type { JsonDocuments as _destiny_common_JsonDocuments, JsonDocuments__Output as _destiny_common_JsonDocuments__Output } from '../../destiny/common/JsonDocuments';
import type { LookupReferencesPage as _destiny_dedup_service_LookupReferencesPage, LookupReferencesPage__Output as _destiny_dedup_service_LookupReferencesPage__Output } from '../../destiny/dedup_service/LookupReferencesPage';
import type { LookupReferencesRequest as _destiny_dedup_service_LookupReferencesRequest, LookupReferencesRequest__Output as _destiny_dedup_service_LookupReferencesRequest__Output } from '../../destiny/dedup_service/LookupReferencesRequest';
import type { ReferenceFileLines as _destiny_dedup_service_ReferenceFileLines, ReferenceFileLines__Output as _destiny_dedup_service_ReferenceFileLines__Output } from '../../destiny/dedup_service/ReferenceFileLines';
import type { ReferenceFileLinesRequest as _destiny_dedup_service_ReferenceFileLinesRequest, ReferenceFileLinesRequest__Output as _destiny_dedup_service_ReferenceFileLinesRequest__Output } from '../../destiny/dedup_service/ReferenceFileLinesRequest';
import type { StreamDeduplicatedViewsRequest as _destiny_dedup_service_StreamDeduplicatedViewsRequest, StreamDeduplicatedViewsRequest__Output as _destiny_dedup_service_StreamDeduplicatedViewsRequest__Output } from '../../destiny/dedup_service/StreamDeduplicatedViewsRequest';

export interface DedupServiceClient extends grpc.Client {
  AddEnhancements(argument: _destiny_dedup_service_AddEnhancementsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_AddEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  AddEnhancements(argument: _destiny_dedup_service_AddEnhancementsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_dedup_service_AddEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  AddEnhancements(argument: _destiny_dedup_service_AddEnhancementsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_AddEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  AddEnhancements(argument: _destiny_dedup_service_AddEnhancementsRequest, callback: grpc.requestCallback<_destiny_dedup_service_AddEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  addEnhancements(argument: _destiny_dedup_service_AddEnhancementsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_AddEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  addEnhancements(argument: _destiny_dedup_service_AddEnhancementsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_dedup_service_AddEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  addEnhancements(argument: _destiny_dedup_service_AddEnhancementsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_AddEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  addEnhancements(argument: _destiny_dedup_service_AddEnhancementsRequest, callback: grpc.requestCallback<_destiny_dedup_service_AddEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  
  EvaluateDeduplicationCandidates(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  EvaluateDeduplicationCandidates(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  EvaluateDeduplicationCandidates(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  EvaluateDeduplicationCandidates(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  evaluateDeduplicationCandidates(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  evaluateDeduplicationCandidates(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  evaluateDeduplicationCandidates(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  evaluateDeduplicationCandidates(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  
  GetDeduplicatedViews(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  GetDeduplicatedViews(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  GetDeduplicatedViews(argument: _destiny_common_IdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  GetDeduplicatedViews(argument: _destiny_common_IdsRequest, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  getDeduplicatedViews(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  getDeduplicatedViews(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  getDeduplicatedViews(argument: _destiny_common_IdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  getDeduplicatedViews(argument: _destiny_common_IdsRequest, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  
  GetReference(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetReference(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetReference(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetReference(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getReference(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getReference(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getReference(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getReference(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  GetReferenceFileLines(argument: _destiny_dedup_service_ReferenceFileLinesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_ReferenceFileLines__Output>): grpc.ClientUnaryCall;
  GetReferenceFileLines(argument: _destiny_dedup_service_ReferenceFileLinesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_dedup_service_ReferenceFileLines__Output>): grpc.ClientUnaryCall;
  GetReferenceFileLines(argument: _destiny_dedup_service_ReferenceFileLinesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_ReferenceFileLines__Output>): grpc.ClientUnaryCall;
  GetReferenceFileLines(argument: _destiny_dedup_service_ReferenceFileLinesRequest, callback: grpc.requestCallback<_destiny_dedup_service_ReferenceFileLines__Output>): grpc.ClientUnaryCall;
  getReferenceFileLines(argument: _destiny_dedup_service_ReferenceFileLinesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_ReferenceFileLines__Output>): grpc.ClientUnaryCall;
  getReferenceFileLines(argument: _destiny_dedup_service_ReferenceFileLinesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_dedup_service_ReferenceFileLines__Output>): grpc.ClientUnaryCall;
  getReferenceFileLines(argument: _destiny_dedup_service_ReferenceFileLinesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_ReferenceFileLines__Output>): grpc.ClientUnaryCall;
  getReferenceFileLines(argument: _destiny_dedup_service_ReferenceFileLinesRequest, callback: grpc.requestCallback<_destiny_dedup_service_ReferenceFileLines__Output>): grpc.ClientUnaryCall;
  
  GetStoredReferenceIds(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_IdsRequest__Output>): grpc.ClientUnaryCall;
  GetStoredReferenceIds(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_IdsRequest__Output>): grpc.ClientUnaryCall;
  GetStoredReferenceIds(argument: _destiny_common_IdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_IdsRequest__Output>): grpc.ClientUnaryCall;
  GetStoredReferenceIds(argument: _destiny_common_IdsRequest, callback: grpc.requestCallback<_destiny_common_IdsRequest__Output>): grpc.ClientUnaryCall;
  getStoredReferenceIds(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_IdsRequest__Output>): grpc.ClientUnaryCall;
  getStoredReferenceIds(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_IdsRequest__Output>): grpc.ClientUnaryCall;
  getStoredReferenceIds(argument: _destiny_common_IdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_IdsRequest__Output>): grpc.ClientUnaryCall;
  getStoredReferenceIds(argument: _destiny_common_IdsRequest, callback: grpc.requestCallback<_destiny_common_IdsRequest__Output>): grpc.ClientUnaryCall;
  
  IngestReferences(argument: _destiny_dedup_service_IngestReferencesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_IngestReferencesResponse__Output>): grpc.ClientUnaryCall;
  IngestReferences(argument: _destiny_dedup_service_IngestReferencesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_dedup_service_IngestReferencesResponse__Output>): grpc.ClientUnaryCall;
  IngestReferences(argument: _destiny_dedup_service_IngestReferencesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_IngestReferencesResponse__Output>): grpc.ClientUnaryCall;
  IngestReferences(argument: _destiny_dedup_service_IngestReferencesRequest, callback: grpc.requestCallback<_destiny_dedup_service_IngestReferencesResponse__Output>): grpc.ClientUnaryCall;
  ingestReferences(argument: _destiny_dedup_service_IngestReferencesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_IngestReferencesResponse__Output>): grpc.ClientUnaryCall;
  ingestReferences(argument: _destiny_dedup_service_IngestReferencesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_dedup_service_IngestReferencesResponse__Output>): grpc.ClientUnaryCall;
  ingestReferences(argument: _destiny_dedup_service_IngestReferencesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_IngestReferencesResponse__Output>): grpc.ClientUnaryCall;
  ingestReferences(argument: _destiny_dedup_service_IngestReferencesRequest, callback: grpc.requestCallback<_destiny_dedup_service_IngestReferencesResponse__Output>): grpc.ClientUnaryCall;
  
  InvokeDeduplication(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  InvokeDeduplication(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  InvokeDeduplication(argument: _destiny_common_IdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  InvokeDeduplication(argument: _destiny_common_IdsRequest, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  invokeDeduplication(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  invokeDeduplication(argument: _destiny_common_IdsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  invokeDeduplication(argument: _destiny_common_IdsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  invokeDeduplication(argument: _destiny_common_IdsRequest, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  
  LookupReferences(argument: _destiny_dedup_service_LookupReferencesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_LookupReferencesPage__Output>): grpc.ClientUnaryCall;
  LookupReferences(argument: _destiny_dedup_service_LookupReferencesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_dedup_service_LookupReferencesPage__Output>): grpc.ClientUnaryCall;
  LookupReferences(argument: _destiny_dedup_service_LookupReferencesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_LookupReferencesPage__Output>): grpc.ClientUnaryCall;
  LookupReferences(argument: _destiny_dedup_service_LookupReferencesRequest, callback: grpc.requestCallback<_destiny_dedup_service_LookupReferencesPage__Output>): grpc.ClientUnaryCall;
  lookupReferences(argument: _destiny_dedup_service_LookupReferencesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_LookupReferencesPage__Output>): grpc.ClientUnaryCall;
  lookupReferences(argument: _destiny_dedup_service_LookupReferencesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_dedup_service_LookupReferencesPage__Output>): grpc.ClientUnaryCall;
  lookupReferences(argument: _destiny_dedup_service_LookupReferencesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_dedup_service_LookupReferencesPage__Output>): grpc.ClientUnaryCall;
  lookupReferences(argument: _destiny_dedup_service_LookupReferencesRequest, callback: grpc.requestCallback<_destiny_dedup_service_LookupReferencesPage__Output>): grpc.ClientUnaryCall;
  
  MakeDuplicateDecisions(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  MakeDuplicateDecisions(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  MakeDuplicateDecisions(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  MakeDuplicateDecisions(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  makeDuplicateDecisions(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  makeDuplicateDecisions(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  makeDuplicateDecisions(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  makeDuplicateDecisions(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  
  StreamDeduplicatedViews(argument: _destiny_dedup_service_StreamDeduplicatedViewsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_destiny_dedup_service_DeduplicatedViewsChunk__Output>;
  StreamDeduplicatedViews(argument: _destiny_dedup_service_StreamDeduplicatedViewsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_destiny_dedup_service_DeduplicatedViewsChunk__Output>;
  streamDeduplicatedViews(argument: _destiny_dedup_service_StreamDeduplicatedViewsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_destiny_dedup_service_DeduplicatedViewsChunk__Output>;
  streamDeduplicatedViews(argument: _destiny_dedup_service_StreamDeduplicatedViewsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_destiny_dedup_service_DeduplicatedViewsChunk__Output>;
  
}

export interface DedupServiceHandlers extends grpc.UntypedServiceImplementation {
  AddEnhancements: grpc.handleUnaryCall<_destiny_dedup_service_AddEnhancementsRequest__Output, _destiny_dedup_service_AddEnhancementsResponse>;
  
  EvaluateDeduplicationCandidates: grpc.handleUnaryCall<_destiny_common_JsonDocument__Output, _destiny_common_JsonDocuments>;
  
  GetDeduplicatedViews: grpc.handleUnaryCall<_destiny_common_IdsRequest__Output, _destiny_common_JsonDocuments>;
  
  GetReference: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocument>;
  
  GetReferenceFileLines: grpc.handleUnaryCall<_destiny_dedup_service_ReferenceFileLinesRequest__Output, _destiny_dedup_service_ReferenceFileLines>;
  
  GetStoredReferenceIds: grpc.handleUnaryCall<_destiny_common_IdsRequest__Output, _destiny_common_IdsRequest>;
  
  IngestReferences: grpc.handleUnaryCall<_destiny_dedup_service_IngestReferencesRequest__Output, _destiny_dedup_service_IngestReferencesResponse>;
  
  InvokeDeduplication: grpc.handleUnaryCall<_destiny_common_IdsRequest__Output, _destiny_common_Empty>;
  
  LookupReferences: grpc.handleUnaryCall<_destiny_dedup_service_LookupReferencesRequest__Output, _destiny_dedup_service_LookupReferencesPage>;
  
  MakeDuplicateDecisions: grpc.handleUnaryCall<_destiny_common_JsonDocument__Output, _destiny_common_JsonDocuments>;
  
  StreamDeduplicatedViews: grpc.handleServerStreamingCall<_destiny_dedup_service_StreamDeduplicatedViewsRequest__Output, _destiny_dedup_service_DeduplicatedViewsChunk>;
  
}

export interface DedupServiceDefinition extends grpc.ServiceDefinition {
  AddEnhancements: MethodDefinition<_destiny_dedup_service_AddEnhancementsRequest, _destiny_dedup_service_AddEnhancementsResponse, _destiny_dedup_service_AddEnhancementsRequest__Output, _destiny_dedup_service_AddEnhancementsResponse__Output>
  EvaluateDeduplicationCandidates: MethodDefinition<_destiny_common_JsonDocument, _destiny_common_JsonDocuments, _destiny_common_JsonDocument__Output, _destiny_common_JsonDocuments__Output>
  GetDeduplicatedViews: MethodDefinition<_destiny_common_IdsRequest, _destiny_common_JsonDocuments, _destiny_common_IdsRequest__Output, _destiny_common_JsonDocuments__Output>
  GetReference: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocument, _destiny_common_IdRequest__Output, _destiny_common_JsonDocument__Output>
  GetReferenceFileLines: MethodDefinition<_destiny_dedup_service_ReferenceFileLinesRequest, _destiny_dedup_service_ReferenceFileLines, _destiny_dedup_service_ReferenceFileLinesRequest__Output, _destiny_dedup_service_ReferenceFileLines__Output>
  GetStoredReferenceIds: MethodDefinition<_destiny_common_IdsRequest, _destiny_common_IdsRequest, _destiny_common_IdsRequest__Output, _destiny_common_IdsRequest__Output>
  IngestReferences: MethodDefinition<_destiny_dedup_service_IngestReferencesRequest, _destiny_dedup_service_IngestReferencesResponse, _destiny_dedup_service_IngestReferencesRequest__Output, _destiny_dedup_service_IngestReferencesResponse__Output>
  InvokeDeduplication: MethodDefinition<_destiny_common_IdsRequest, _destiny_common_Empty, _destiny_common_IdsRequest__Output, _destiny_common_Empty__Output>
  LookupReferences: MethodDefinition<_destiny_dedup_service_LookupReferencesRequest, _destiny_dedup_service_LookupReferencesPage, _destiny_dedup_service_LookupReferencesRequest__Output, _destiny_dedup_service_LookupReferencesPage__Output>
  MakeDuplicateDecisions: MethodDefinition<_destiny_common_JsonDocument, _destiny_common_JsonDocuments, _destiny_common_JsonDocument__Output, _destiny_common_JsonDocuments__Output>
  StreamDeduplicatedViews: MethodDefinition<_destiny_dedup_service_StreamDeduplicatedViewsRequest, _destiny_dedup_service_DeduplicatedViewsChunk, _destiny_dedup_service_StreamDeduplicatedViewsRequest__Output, _destiny_dedup_service_DeduplicatedViewsChunk__Output>
}
