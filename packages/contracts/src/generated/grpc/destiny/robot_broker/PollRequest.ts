// Original file: protos/destiny/robot_broker.proto

import type { Caller as _destiny_common_Caller, Caller__Output as _destiny_common_Caller__Output } from '../../destiny/common/Caller';

export interface PollRequest {
  'caller'?: (_destiny_common_Caller | null);
  'robot_id'?: (string);
  'limit'?: (number);
  'lease'?: (string);
}

export interface PollRequest__Output {
  'caller': (_destiny_common_Caller__Output | null);
  'robot_id': (string);
  'limit': (number);
  'lease': (string);
}
