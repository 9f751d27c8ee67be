// Original file: protos/destiny/robot_broker.proto


export interface PendingEnhancementItem {
  'reference_id'?: (string);
  'robot_id'?: (string);
  'enhancement_request_id'?: (string);
  'source'?: (string);
}

export interface PendingEnhancementItem__Output {
  'reference_id': (string);
  'robot_id': (string);
  'enhancement_request_id': (string);
  'source': (string);
}
