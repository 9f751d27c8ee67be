// Original file: protos/destiny/dedup_service.proto


export interface IngestLine {
  'line_number'?: (number);
  'reference_json'?: (string);
  'import_result_id'?: (string);
}

export interface IngestLine__Output {
  'line_number': (number);
  'reference_json': (string);
  'import_result_id': (string);
}
