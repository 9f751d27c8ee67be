// Original file: protos/destiny/import_service.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Empty as _destiny_common_Empty, Empty__Output as _destiny_common_Empty__Output } from '../../destiny/common/Empty';
import type { IdRequest as _destiny_common_IdRequest, IdRequest__Output as _destiny_common_IdRequest__Output } from '../../destiny/common/IdRequest';
import type { ImportBatchRequest as _destiny_import_service_ImportBatchRequest, ImportBatchRequest__Output as _destiny_import_service_ImportBatchRequest__Output } from '../../destiny/import_service/ImportBatchRequest';
import type { ImportBatchSummaryPage as _destiny_import_service_ImportBatchSummaryPage, ImportBatchSummaryPage__Output as _destiny_import_service_ImportBatchSummaryPage__Output } from '../../destiny/import_service/ImportBatchSummaryPage';
import type { ImportFailureDetailsPage as _destiny_import_service_ImportFailureDetailsPage, ImportFailureDetailsPage__Output as _destiny_import_service_ImportFailureDetailsPage__Output } from '../../destiny/import_service/ImportFailureDetailsPage';
import type { ImportRecordsPage as _destiny_import_service_ImportRecordsPage, ImportRecordsPage__Output as _destiny_import_service_ImportRecordsPage__Output } from '../../destiny/import_service/ImportRecordsPage';
import type { ImportResultsPage as _destiny_import_service_ImportResultsPage, ImportResultsPage__Output as _destiny_import_service_ImportResultsPage__Output } from '../../destiny/import_service/ImportResultsPage';
import type { JsonDocument as _destiny_common_JsonDocument, JsonDocument__Output as _destiny_common_JsonDocument__Output } from '../../destiny/common/JsonDocument';
import type { JsonDocuments as _destiny_common_JsonDocuments, JsonDocuments__Output as _destiny_common_JsonDocuments__Output } from '../../destiny/common/JsonDocuments';
import type { ListImportFailureDetailsRequest as _destiny_import_service_ListImportFailureDetailsRequest, ListImportFailureDetailsRequest__Output as _destiny_import_service_ListImportFailureDetailsRequest__Output } from '../../destiny/import_service/ListImportFailureDetailsRequest';
import type { ListImportRecordsRequest as _destiny_import_service_ListImportRecordsRequest, ListImportRecordsRequest__Output as _destiny_import_service_ListImportRecordsRequest__Output } from '../../destiny/import_service/ListImportRecordsRequest';
import type { ListImportResultsRequest as _destiny_import_service_ListImportResultsRequest, ListImportResultsRequest__Output as _destiny_import_service_ListImportResultsRequest__Output } from '../../destiny/import_service/ListImportResultsRequest';
import type { RegisterImportBatchRequest as _destiny_import_service_RegisterImportBatchRequest, RegisterImportBatchRequest__Output as _destiny_import_service_RegisterImportBatchRequest__Output } from '../../destiny/import_service/RegisterImportBatchRequest';

export interface ImportServiceClient extends grpc.Client {
  CreateImportRecord(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateImportRecord(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateImportRecord(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateImportRecord(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createImportRecord(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createImportRecord(argument: _destiny_common_JsonDocument, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createImportRecord(argument: _destiny_common_JsonDocument, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createImportRecord(argument: _destiny_common_JsonDocument, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  FinaliseImportRecord(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  FinaliseImportRecord(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  FinaliseImportRecord(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  FinaliseImportRecord(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  finaliseImportRecord(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  finaliseImportRecord(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  finaliseImportRecord(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  finaliseImportRecord(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_Empty__Output>): grpc.ClientUnaryCall;
  
  GetImportBatch(argument: _destiny_import_service_ImportBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetImportBatch(argument: _destiny_import_service_ImportBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetImportBatch(argument: _destiny_import_service_ImportBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetImportBatch(argument: _destiny_import_service_ImportBatchRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getImportBatch(argument: _destiny_import_service_ImportBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getImportBatch(argument: _destiny_import_service_ImportBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getImportBatch(argument: _destiny_import_service_ImportBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getImportBatch(argument: _destiny_import_service_ImportBatchRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  GetImportBatchSummary(argument: _destiny_import_service_ImportBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportBatchSummaryPage__Output>): grpc.ClientUnaryCall;
  GetImportBatchSummary(argument: _destiny_import_service_ImportBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_import_service_ImportBatchSummaryPage__Output>): grpc.ClientUnaryCall;
  GetImportBatchSummary(argument: _destiny_import_service_ImportBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportBatchSummaryPage__Output>): grpc.ClientUnaryCall;
  GetImportBatchSummary(argument: _destiny_import_service_ImportBatchRequest, callback: grpc.requestCallback<_destiny_import_service_ImportBatchSummaryPage__Output>): grpc.ClientUnaryCall;
  getImportBatchSummary(argument: _destiny_import_service_ImportBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportBatchSummaryPage__Output>): grpc.ClientUnaryCall;
  getImportBatchSummary(argument: _destiny_import_service_ImportBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_import_service_ImportBatchSummaryPage__Output>): grpc.ClientUnaryCall;
  getImportBatchSummary(argument: _destiny_import_service_ImportBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportBatchSummaryPage__Output>): grpc.ClientUnaryCall;
  getImportBatchSummary(argument: _destiny_import_service_ImportBatchRequest, callback: grpc.requestCallback<_destiny_import_service_ImportBatchSummaryPage__Output>): grpc.ClientUnaryCall;
  
  GetImportRecord(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetImportRecord(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetImportRecord(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetImportRecord(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getImportRecord(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getImportRecord(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getImportRecord(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getImportRecord(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  ListImportBatches(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  ListImportBatches(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  ListImportBatches(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  ListImportBatches(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listImportBatches(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listImportBatches(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listImportBatches(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listImportBatches(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  
  ListImportFailureDetails(argument: _destiny_import_service_ListImportFailureDetailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportFailureDetailsPage__Output>): grpc.ClientUnaryCall;
  ListImportFailureDetails(argument: _destiny_import_service_ListImportFailureDetailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_import_service_ImportFailureDetailsPage__Output>): grpc.ClientUnaryCall;
  ListImportFailureDetails(argument: _destiny_import_service_ListImportFailureDetailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportFailureDetailsPage__Output>): grpc.ClientUnaryCall;
  ListImportFailureDetails(argument: _destiny_import_service_ListImportFailureDetailsRequest, callback: grpc.requestCallback<_destiny_import_service_ImportFailureDetailsPage__Output>): grpc.ClientUnaryCall;
  listImportFailureDetails(argument: _destiny_import_service_ListImportFailureDetailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportFailureDetailsPage__Output>): grpc.ClientUnaryCall;
  listImportFailureDetails(argument: _destiny_import_service_ListImportFailureDetailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_import_service_ImportFailureDetailsPage__Output>): grpc.ClientUnaryCall;
  listImportFailureDetails(argument: _destiny_import_service_ListImportFailureDetailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportFailureDetailsPage__Output>): grpc.ClientUnaryCall;
  listImportFailureDetails(argument: _destiny_import_service_ListImportFailureDetailsRequest, callback: grpc.requestCallback<_destiny_import_service_ImportFailureDetailsPage__Output>): grpc.ClientUnaryCall;
  
  ListImportRecords(argument: _destiny_import_service_ListImportRecordsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportRecordsPage__Output>): grpc.ClientUnaryCall;
  ListImportRecords(argument: _destiny_import_service_ListImportRecordsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_import_service_ImportRecordsPage__Output>): grpc.ClientUnaryCall;
  ListImportRecords(argument: _destiny_import_service_ListImportRecordsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportRecordsPage__Output>): grpc.ClientUnaryCall;
  ListImportRecords(argument: _destiny_import_service_ListImportRecordsRequest, callback: grpc.requestCallback<_destiny_import_service_ImportRecordsPage__Output>): grpc.ClientUnaryCall;
  listImportRecords(argument: _destiny_import_service_ListImportRecordsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportRecordsPage__Output>): grpc.ClientUnaryCall;
  listImportRecords(argument: _destiny_import_service_ListImportRecordsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_import_service_ImportRecordsPage__Output>): grpc.ClientUnaryCall;
  listImportRecords(argument: _destiny_import_service_ListImportRecordsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportRecordsPage__Output>): grpc.ClientUnaryCall;
  listImportRecords(argument: _destiny_import_service_ListImportRecordsRequest, callback: grpc.requestCallback<_destiny_import_service_ImportRecordsPage__Output>): grpc.ClientUnaryCall;
  
  ListImportResults(argument: _destiny_import_service_ListImportResultsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportResultsPage__Output>): grpc.ClientUnaryCall;
  ListImportResults(argument: _destiny_import_service_ListImportResultsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_import_service_ImportResultsPage__Output>): grpc.ClientUnaryCall;
  ListImportResults(argument: _destiny_import_service_ListImportResultsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportResultsPage__Output>): grpc.ClientUnaryCall;
  ListImportResults(argument: _destiny_import_service_ListImportResultsRequest, callback: grpc.requestCallback<_destiny_import_service_ImportResultsPage__Output>): grpc.ClientUnaryCall;
  listImportResults(argument: _destiny_import_service_ListImportResultsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportResultsPage__Output>): grpc.ClientUnaryCall;
  listImportResults(argument: _destiny_import_service_ListImportResultsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_import_service_ImportResultsPage__Output>): grpc.ClientUnaryCall;
  listImportResults(argument: _destiny_import_service_ListImportResultsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_import_service_ImportResultsPage__Output>): grpc.ClientUnaryCall;
  listImportResults(argument: _destiny_import_service_ListImportResultsRequest, callback: grpc.requestCallback<_destiny_import_service_ImportResultsPage__Output>): grpc.ClientUnaryCall;
  
  RegisterImportBatch(argument: _destiny_import_service_RegisterImportBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  RegisterImportBatch(argument: _destiny_import_service_RegisterImportBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  RegisterImportBatch(argument: _destiny_import_service_RegisterImportBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  RegisterImportBatch(argument: _destiny_import_service_RegisterImportBatchRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  registerImportBatch(argument: _destiny_import_service_RegisterImportBatchRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  registerImportBatch(argument: _destiny_import_service_RegisterImportBatchRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  registerImportBatch(argument: _destiny_import_service_RegisterImportBatchRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  registerImportBatch(argument: _destiny_import_service_RegisterImportBatchRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
}

export interface ImportServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateImportRecord: grpc.handleUnaryCall<_destiny_common_JsonDocument__Output, _destiny_common_JsonDocument>;
  
  FinaliseImportRecord: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_Empty>;
  
  GetImportBatch: grpc.handleUnaryCall<_destiny_import_service_ImportBatchRequest__Output, _destiny_common_JsonDocument>;
  
  GetImportBatchSummary: grpc.handleUnaryCall<_destiny_import_service_ImportBatchRequest__Output, _destiny_import_service_ImportBatchSummaryPage>;
  
  GetImportRecord: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocument>;
  
  ListImportBatches: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocuments>;
  
  ListImportFailureDetails: grpc.handleUnaryCall<_destiny_import_service_ListImportFailureDetailsRequest__Output, _destiny_import_service_ImportFailureDetailsPage>;
  
  ListImportRecords: grpc.handleUnaryCall<_destiny_import_service_ListImportRecordsRequest__Output, _destiny_import_service_ImportRecordsPage>;
  
  ListImportResults: grpc.handleUnaryCall<_destiny_import_service_ListImportResultsRequest__Output, _destiny_import_service_ImportResultsPage>;
  
  RegisterImportBatch: grpc.handleUnaryCall<_destiny_import_service_RegisterImportBatchRequest__Output, _destiny_common_JsonDocument>;
  
}

export interface ImportServiceDefinition extends grpc.ServiceDefinition {
  CreateImportRecord: MethodDefinition<_destiny_common_JsonDocument, _destiny_common_JsonDocument, _destiny_common_JsonDocument__Output, _destiny_common_JsonDocument__Output>
  FinaliseImportRecord: MethodDefinition<_destiny_common_IdRequest, _destiny_common_Empty, _destiny_common_IdRequest__Output, _destiny_common_Empty__Output>
  GetImportBatch: MethodDefinition<_destiny_import_service_ImportBatchRequest, _destiny_common_JsonDocument, _destiny_import_service_ImportBatchRequest__Output, _destiny_common_JsonDocument__Output>
  GetImportBatchSummary: MethodDefinition<_destiny_import_service_ImportBatchRequest, _destiny_import_service_ImportBatchSummaryPage, _destiny_import_service_ImportBatchRequest__Output, _destiny_import_service_ImportBatchSummaryPage__Output>
  GetImportRecord: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocument, _destiny_common_IdRequest__Output, _destiny_common_JsonDocument__Output>
  ListImportBatches: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocuments, _destiny_common_IdRequest__Output, _destiny_common_JsonDocuments__Output>
  ListImportFailureDetails: MethodDefinition<_destiny_import_service_ListImportFailureDetailsRequest, _destiny_import_service_ImportFailureDetailsPage, _destiny_import_service_ListImportFailureDetailsRequest__Output, _destiny_import_service_ImportFailureDetailsPage__Output>
  ListImportRecords: MethodDefinition<_destiny_import_service_ListImportRecordsRequest, _destiny_import_service_ImportRecordsPage, _destiny_import_service_ListImportRecordsRequest__Output, _destiny_import_service_ImportRecordsPage__Output>
  ListImportResults: MethodDefinition<_destiny_import_service_ListImportResultsRequest, _destiny_import_service_ImportResultsPage, _destiny_import_service_ListImportResultsRequest__Output, _destiny_import_service_ImportResultsPage__Output>
  RegisterImportBatch: MethodDefinition<_destiny_import_service_RegisterImportBatchRequest, _destiny_common_JsonDocument, _destiny_import_service_RegisterImportBatchRequest__Output, _destiny_common_JsonDocument__Output>
}
