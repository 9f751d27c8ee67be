// Original file: protos/destiny/robot_broker.proto


export interface CreatePendingEnhancementsRequest {
  'robot_id'?: (string);
  'reference_ids'?: (string)[];
  'enhancement_request_id'?: (string);
  'source'?: (string);
  'chunk_key'?: (string);
}

export interface CreatePendingEnhancementsRequest__Output {
  'robot_id': (string);
  'reference_ids': (string)[];
  'enhancement_request_id': (string);
  'source': (string);
  'chunk_key': (string);
}
