import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Caller as _destiny_common_Caller, Caller__Output as _destiny_common_Caller__Output } from './destiny/common/Caller';
import type { Empty as _destiny_common_Empty, Empty__Output as _destiny_common_Empty__Output } from './destiny/common/Empty';
import type { IdRequest as _destiny_common_IdRequest, IdRequest__Output as _destiny_common_IdRequest__Output } from './destiny/common/IdRequest';
import type { IdsRequest as _destiny_common_IdsRequest, IdsRequest__Output as _destiny_common_IdsRequest__Output } from './destiny/common/IdsRequest';
import type { JsonDocument as _destiny_common_JsonDocument, JsonDocument__Output as _destiny_common_JsonDocument__Output } from './destiny/common/JsonDocument';
import type { JsonDocuments as _destiny_common_JsonDocuments, JsonDocuments__Output as _destiny_common_JsonDocuments__Output } from './destiny/common/JsonDocuments';
import type { CallerJsonRequest as _destiny_robot_broker_CallerJsonRequest, CallerJsonRequest__Output as _destiny_robot_broker_CallerJsonRequest__Output } from './destiny/robot_broker/CallerJsonRequest';
import type { CreatePendingEnhancementItemsRequest as _destiny_robot_broker_CreatePendingEnhancementItemsRequest, CreatePendingEnhancementItemsRequest__Output as _destiny_robot_broker_CreatePendingEnhancementItemsRequest__Output } from './destiny/robot_broker/CreatePendingEnhancementItemsRequest';
import type { CreatePendingEnhancementsRequest as _destiny_robot_broker_CreatePendingEnhancementsRequest, CreatePendingEnhancementsRequest__Output as _destiny_robot_broker_CreatePendingEnhancementsRequest__Output } from './destiny/robot_broker/CreatePendingEnhancementsRequest';
import type { CreatePendingEnhancementsResponse as _destiny_robot_broker_CreatePendingEnhancementsResponse, CreatePendingEnhancementsResponse__Output as _destiny_robot_broker_CreatePendingEnhancementsResponse__Output } from './destiny/robot_broker/CreatePendingEnhancementsResponse';
import type { PendingEnhancementItem as _destiny_robot_broker_PendingEnhancementItem, PendingEnhancementItem__Output as _destiny_robot_broker_PendingEnhancementItem__Output } from './destiny/robot_broker/PendingEnhancementItem';
import type { PollRequest as _destiny_robot_broker_PollRequest, PollRequest__Output as _destiny_robot_broker_PollRequest__Output } from './destiny/robot_broker/PollRequest';
import type { RenewLeaseRequest as _destiny_robot_broker_RenewLeaseRequest, RenewLeaseRequest__Output as _destiny_robot_broker_RenewLeaseRequest__Output } from './destiny/robot_broker/RenewLeaseRequest';
import type { RobotBrokerClient as _destiny_robot_broker_RobotBrokerClient, RobotBrokerDefinition as _destiny_robot_broker_RobotBrokerDefinition } from './destiny/robot_broker/RobotBroker';
import type { VerifyRobotSignatureRequest as _destiny_robot_broker_VerifyRobotSignatureRequest, VerifyRobotSignatureRequest__Output as _destiny_robot_broker_VerifyRobotSignatureRequest__Output } from './destiny/robot_broker/VerifyRobotSignatureRequest';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  destiny: {
    common: {
      Caller: MessageTypeDefinition<_destiny_common_Caller, _destiny_common_Caller__Output>
      Empty: MessageTypeDefinition<_destiny_common_Empty, _destiny_common_Empty__Output>
      IdRequest: MessageTypeDefinition<_destiny_common_IdRequest, _destiny_common_IdRequest__Output>
      IdsRequest: MessageTypeDefinition<_destiny_common_IdsRequest, _destiny_common_IdsRequest__Output>
      JsonDocument: MessageTypeDefinition<_destiny_common_JsonDocument, _destiny_common_JsonDocument__Output>
      JsonDocuments: MessageTypeDefinition<_destiny_common_JsonDocuments, _destiny_common_JsonDocuments__Output>
    }
    robot_broker: {
      CallerJsonRequest: MessageTypeDefinition<_destiny_robot_broker_CallerJsonRequest, _destiny_robot_broker_CallerJsonRequest__Output>
      CreatePendingEnhancementItemsRequest: MessageTypeDefinition<_destiny_robot_broker_CreatePendingEnhancementItemsRequest, _destiny_robot_broker_CreatePendingEnhancementItemsRequest__Output>
      CreatePendingEnhancementsRequest: MessageTypeDefinition<_destiny_robot_broker_CreatePendingEnhancementsRequest, _destiny_robot_broker_CreatePendingEnhancementsRequest__Output>
      CreatePendingEnhancementsResponse: MessageTypeDefinition<_destiny_robot_broker_CreatePendingEnhancementsResponse, _destiny_robot_broker_CreatePendingEnhancementsResponse__Output>
      PendingEnhancementItem: MessageTypeDefinition<_destiny_robot_broker_PendingEnhancementItem, _destiny_robot_broker_PendingEnhancementItem__Output>
      PollRequest: MessageTypeDefinition<_destiny_robot_broker_PollRequest, _destiny_robot_broker_PollRequest__Output>
      RenewLeaseRequest: MessageTypeDefinition<_destiny_robot_broker_RenewLeaseRequest, _destiny_robot_broker_RenewLeaseRequest__Output>
      RobotBroker: SubtypeConstructor<typeof grpc.Client, _destiny_robot_broker_RobotBrokerClient> & { service: _destiny_robot_broker_RobotBrokerDefinition }
      VerifyRobotSignatureRequest: MessageTypeDefinition<_destiny_robot_broker_VerifyRobotSignatureRequest, _destiny_robot_broker_VerifyRobotSignatureRequest__Output>
    }
  }
}

