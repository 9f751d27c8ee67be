// Original file: protos/destiny/percolator.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Empty as _destiny_common_Empty, Empty__Output as _destiny_common_Empty__Output } from '../../destiny/common/Empty';
import type { IdRequest as _destiny_common_IdRequest, IdRequest__Output as _destiny_common_IdRequest__Output } from '../../destiny/common/IdRequest';
import type { JsonDocument as _destiny_common_JsonDocument, JsonDocument__Output as _destiny_common_JsonDocument__Output } from '../../destiny/common/JsonDocument';
import type { JsonDocuments as _destiny_common_JsonDocuments, JsonDocuments__Output as _destiny_common_JsonDocuments__Output } from '../../destiny/common/JsonDocuments';
import type { UpdateAutomationRequest as _destiny_percolator_UpdateAutomationRequest, UpdateAutomationRequest__Output as _destiny_percolator_UpdateAutomationRequest__Output } from '../../destiny/percolator/UpdateAutomationRequest';

export interface PercolatorClient extends grpc.Client {
  CreateAutomation(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateAutomation(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateAutomation(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateAutomation(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createAutomation(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createAutomation(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createAutomation(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createAutomation(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  GetAutomation(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetAutomation(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetAutomation(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetAutomation(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getAutomation(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getAutomation(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getAutomation(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getAutomation(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  ListAutomations(argument: _destiny_common_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  ListAutomations(argument: _destiny_common_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  ListAutomations(argument: _destiny_common_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  ListAutomations(argument: _destiny_common_Empty, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listAutomations(argument: _destiny_common_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listAutomations(argument: _destiny_common_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listAutomations(argument: _destiny_common_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listAutomations(argument: _destiny_common_Empty, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  
  UpdateAutomation(argument: _destiny_percolator_UpdateAutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  UpdateAutomation(argument: _destiny_percolator_UpdateAutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  UpdateAutomation(argument: _destiny_percolator_UpdateAutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  UpdateAutomation(argument: _destiny_percolator_UpdateAutomationRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  updateAutomation(argument: _destiny_percolator_UpdateAutomationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  updateAutomation(argument: _destiny_percolator_UpdateAutomationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  updateAutomation(argument: _destiny_percolator_UpdateAutomationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  updateAutomation(argument: _destiny_percolator_UpdateAutomationRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
}

export interface PercolatorHandlers extends grpc.UntypedServiceImplementation {
  CreateAutomation: grpc.handleUnaryCall<_destiny_common_JsonDocument__Output, _destiny_common_JsonDocument>;
  
  GetAutomation: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocument>;
  
  ListAutomations: grpc.handleUnaryCall<_destiny_common_Empty__Output, _destiny_common_JsonDocuments>;
  
  UpdateAutomation: grpc.handleUnaryCall<_destiny_percolator_UpdateAutomationRequest__Output, _destiny_common_JsonDocument>;
  
}

export interface PercolatorDefinition extends grpc.ServiceDefinition {
  CreateAutomation: MethodDefinition<_destiny_common_JsonDocument, _destiny_common_JsonDocument, _destiny_common_JsonDocument__Output, _destiny_common_JsonDocument__Output>
  GetAutomation: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocument, _destiny_common_IdRequest__Output, _destiny_common_JsonDocument__Output>
  ListAutomations: MethodDefinition<_destiny_common_Empty, _destiny_common_JsonDocuments, _destiny_common_Empty__Output, _destiny_common_JsonDocuments__Output>
  UpdateAutomation: MethodDefinition<_destiny_percolator_UpdateAutomationRequest, _destiny_common_JsonDocument, _destiny_percolator_UpdateAutomationRequest__Output, _destiny_common_JsonDocument__Output>
}
