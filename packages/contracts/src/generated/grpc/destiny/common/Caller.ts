// Original file: protos/destiny/common.proto


export interface Caller {
  'subject'?: (string);
  'roles'?: (string)[];
  'entitlements'?: (string)[];
  'robot_id'?: (string);
}

export interface Caller__Output {
  'subject': (string);
  'roles': (string)[];
  'entitlements': (string)[];
  'robot_id': (string);
}
