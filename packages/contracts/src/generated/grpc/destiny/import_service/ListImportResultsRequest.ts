// Original file: protos/destiny/import_service.proto


export interface ListImportResultsRequest {
  'import_record_id'?: (string);
  'import_batch_id'?: (string);
  'result_status'?: (string);
  'after_line'?: (number);
}

export interface ListImportResultsRequest__Output {
  'import_record_id': (string);
  'import_batch_id': (string);
  'result_status': (string);
  'after_line': (number);
}
