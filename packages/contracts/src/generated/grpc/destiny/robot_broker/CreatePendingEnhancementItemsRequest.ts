// Original file: protos/destiny/robot_broker.proto

import type { PendingEnhancementItem as _destiny_robot_broker_PendingEnhancementItem, PendingEnhancementItem__Output as _destiny_robot_broker_PendingEnhancementItem__Output } from '../../destiny/robot_broker/PendingEnhancementItem';

export interface CreatePendingEnhancementItemsRequest {
  'items'?: (_destiny_robot_broker_PendingEnhancementItem)[];
}

export interface CreatePendingEnhancementItemsRequest__Output {
  'items': (_destiny_robot_broker_PendingEnhancementItem__Output)[];
}
