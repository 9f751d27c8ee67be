// Original file: protos/destiny/robot_broker.proto


export interface CreatePendingEnhancementsResponse {
  'created'?: (number);
}

export interface CreatePendingEnhancementsResponse__Output {
  'created': (number);
}
