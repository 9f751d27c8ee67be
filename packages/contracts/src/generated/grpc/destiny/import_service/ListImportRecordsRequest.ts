// Original file: protos/destiny/import_service.proto


export interface ListImportRecordsRequest {
  'limit'?: (number);
  'before_id'?: (string);
}

export interface ListImportRecordsRequest__Output {
  'limit': (number);
  'before_id': (string);
}
