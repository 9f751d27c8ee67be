// Original file: protos/destiny/import_service.proto


export interface ListImportFailureDetailsRequest {
  'import_record_id'?: (string);
  'import_batch_id'?: (string);
  'after_line'?: (number);
}

export interface ListImportFailureDetailsRequest__Output {
  'import_record_id': (string);
  'import_batch_id': (string);
  'after_line': (number);
}
