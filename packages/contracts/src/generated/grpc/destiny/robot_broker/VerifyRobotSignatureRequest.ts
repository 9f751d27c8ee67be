// Original file: protos/destiny/robot_broker.proto


export interface VerifyRobotSignatureRequest {
  'authorization'?: (string);
  'client_id'?: (string);
  'request_timestamp'?: (string);
  'body'?: (Buffer | Uint8Array | string);
}

export interface VerifyRobotSignatureRequest__Output {
  'authorization': (string);
  'client_id': (string);
  'request_timestamp': (string);
  'body': (Buffer);
}
