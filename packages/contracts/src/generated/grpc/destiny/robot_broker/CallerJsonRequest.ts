// Original file: protos/destiny/robot_broker.proto

import type { Caller as _destiny_common_Caller, Caller__Output as _destiny_common_Caller__Output } from '../../destiny/common/Caller';

export interface CallerJsonRequest {
  'caller'?: (_destiny_common_Caller | null);
  'id'?: (string);
  'json'?: (string);
}

export interface CallerJsonRequest__Output {
  'caller': (_destiny_common_Caller__Output | null);
  'id': (string);
  'json': (string);
}
