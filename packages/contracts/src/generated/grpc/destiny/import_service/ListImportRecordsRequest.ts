// Original file: protos/destiny/import_service.proto


export interface ListImportRecordsRequest {
  'limit'?: (number);
}

export interface ListImportRecordsRequest__Output {
  'limit': (number);
}
