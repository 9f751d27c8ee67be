// Original file: protos/destiny/dedup_service.proto


export interface AddEnhancementOutcome {
  'reference_id'?: (string);
  'status'?: (string);
  'enhancement_id'?: (string);
  'error'?: (string);
  'reference_version'?: (number);
  'index_reference_id'?: (string);
  'index_version'?: (number);
}

export interface AddEnhancementOutcome__Output {
  'reference_id': (string);
  'status': (string);
  'enhancement_id': (string);
  'error': (string);
  'reference_version': (number);
  'index_reference_id': (string);
  'index_version': (number);
}
