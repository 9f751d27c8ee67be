// Original file: protos/destiny/robot_broker.proto


export interface RenewLeaseRequest {
  'robot_enhancement_batch_id'?: (string);
  'lease'?: (string);
}

export interface RenewLeaseRequest__Output {
  'robot_enhancement_batch_id': (string);
  'lease': (string);
}
