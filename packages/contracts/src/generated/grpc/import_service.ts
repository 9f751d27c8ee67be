import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Caller as _destiny_common_Caller, Caller__Output as _destiny_common_Caller__Output } from './destiny/common/Caller';
import type { Empty as _destiny_common_Empty, Empty__Output as _destiny_common_Empty__Output } from './destiny/common/Empty';
import type { IdRequest as _destiny_common_IdRequest, IdRequest__Output as _destiny_common_IdRequest__Output } from './destiny/common/IdRequest';
import type { IdsRequest as _destiny_common_IdsRequest, IdsRequest__Output as _destiny_common_IdsRequest__Output } from './destiny/common/IdsRequest';
import type { JsonDocument as _destiny_common_JsonDocument, JsonDocument__Output as _destiny_common_JsonDocument__Output } from './destiny/common/JsonDocument';
import type { JsonDocuments as _destiny_common_JsonDocuments, JsonDocuments__Output as _destiny_common_JsonDocuments__Output } from './destiny/common/JsonDocuments';
import type { ImportBatchRequest as _destiny_import_service_ImportBatchRequest, ImportBatchRequest__Output as _destiny_import_service_ImportBatchRequest__Output } from './destiny/import_service/ImportBatchRequest';
import type { ImportBatchSummaryPage as _destiny_import_service_ImportBatchSummaryPage, ImportBatchSummaryPage__Output as _destiny_import_service_ImportBatchSummaryPage__Output } from './destiny/import_service/ImportBatchSummaryPage';
import type { ImportFailureDetailsPage as _destiny_import_service_ImportFailureDetailsPage, ImportFailureDetailsPage__Output as _destiny_import_service_ImportFailureDetailsPage__Output } from './destiny/import_service/ImportFailureDetailsPage';
import type { ImportRecordsPage as _destiny_import_service_ImportRecordsPage, ImportRecordsPage__Output as _destiny_import_service_ImportRecordsPage__Output } from './destiny/import_service/ImportRecordsPage';
import type { ImportResultsPage as _destiny_import_service_ImportResultsPage, ImportResultsPage__Output as _destiny_import_service_ImportResultsPage__Output } from './destiny/import_service/ImportResultsPage';
import type { ImportServiceClient as _destiny_import_service_ImportServiceClient, ImportServiceDefinition as _destiny_import_service_ImportServiceDefinition } from './destiny/import_service/ImportService';
import type { ListImportFailureDetailsRequest as _destiny_import_service_ListImportFailureDetailsRequest, ListImportFailureDetailsRequest__Output as _destiny_import_service_ListImportFailureDetailsRequest__Output } from './destiny/import_service/ListImportFailureDetailsRequest';
import type { ListImportRecordsRequest as _destiny_import_service_ListImportRecordsRequest, ListImportRecordsRequest__Output as _destiny_import_service_ListImportRecordsRequest__Output } from './destiny/import_service/ListImportRecordsRequest';
import type { ListImportResultsRequest as _destiny_import_service_ListImportResultsRequest, ListImportResultsRequest__Output as _destiny_import_service_ListImportResultsRequest__Output } from './destiny/import_service/ListImportResultsRequest';
import type { RegisterImportBatchRequest as _destiny_import_service_RegisterImportBatchRequest, RegisterImportBatchRequest__Output as _destiny_import_service_RegisterImportBatchRequest__Output } from './destiny/import_service/RegisterImportBatchRequest';

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
    import_service: {
      ImportBatchRequest: MessageTypeDefinition<_destiny_import_service_ImportBatchRequest, _destiny_import_service_ImportBatchRequest__Output>
      ImportBatchSummaryPage: MessageTypeDefinition<_destiny_import_service_ImportBatchSummaryPage, _destiny_import_service_ImportBatchSummaryPage__Output>
      ImportFailureDetailsPage: MessageTypeDefinition<_destiny_import_service_ImportFailureDetailsPage, _destiny_import_service_ImportFailureDetailsPage__Output>
      ImportRecordsPage: MessageTypeDefinition<_destiny_import_service_ImportRecordsPage, _destiny_import_service_ImportRecordsPage__Output>
      ImportResultsPage: MessageTypeDefinition<_destiny_import_service_ImportResultsPage, _destiny_import_service_ImportResultsPage__Output>
      ImportService: SubtypeConstructor<typeof grpc.Client, _destiny_import_service_ImportServiceClient> & { service: _destiny_import_service_ImportServiceDefinition }
      ListImportFailureDetailsRequest: MessageTypeDefinition<_destiny_import_service_ListImportFailureDetailsRequest, _destiny_import_service_ListImportFailureDetailsRequest__Output>
      ListImportRecordsRequest: MessageTypeDefinition<_destiny_import_service_ListImportRecordsRequest, _destiny_import_service_ListImportRecordsRequest__Output>
      ListImportResultsRequest: MessageTypeDefinition<_destiny_import_service_ListImportResultsRequest, _destiny_import_service_ListImportResultsRequest__Output>
      RegisterImportBatchRequest: MessageTypeDefinition<_destiny_import_service_RegisterImportBatchRequest, _destiny_import_service_RegisterImportBatchRequest__Output>
    }
  }
}

