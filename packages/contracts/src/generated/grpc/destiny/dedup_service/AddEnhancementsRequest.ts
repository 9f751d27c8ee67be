// Original file: protos/destiny/dedup_service.proto


export interface AddEnhancementsRequest {
  'enhancements_json'?: (string)[];
  'robot_id'?: (string);
  'robot_enhancement_batch_id'?: (string);
  'enhancement_request_id'?: (string);
  'enhancement_ids'?: (string)[];
}

export interface AddEnhancementsRequest__Output {
  'enhancements_json': (string)[];
  'robot_id': (string);
  'robot_enhancement_batch_id': (string);
  'enhancement_request_id': (string);
  'enhancement_ids': (string)[];
}
