// Original file: protos/destiny/import_service.proto


export interface ImportBatchRequest {
  'import_record_id'?: (string);
  'import_batch_id'?: (string);
}

export interface ImportBatchRequest__Output {
  'import_record_id': (string);
  'import_batch_id': (string);
}
