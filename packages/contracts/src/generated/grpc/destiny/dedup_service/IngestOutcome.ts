// Original file: protos/destiny/dedup_service.proto


export interface IngestOutcome {
  'line_number'?: (number);
  'status'?: (string);
  'reference_id'?: (string);
  'failure_details'?: (string);
}

export interface IngestOutcome__Output {
  'line_number': (number);
  'status': (string);
  'reference_id': (string);
  'failure_details': (string);
}
