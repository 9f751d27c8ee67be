// Original file: protos/destiny/import_service.proto


export interface RegisterImportBatchRequest {
  'import_record_id'?: (string);
  'batch_json'?: (string);
}

export interface RegisterImportBatchRequest__Output {
  'import_record_id': (string);
  'batch_json': (string);
}
