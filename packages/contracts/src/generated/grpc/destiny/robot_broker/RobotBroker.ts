// Original file: protos/destiny/robot_broker.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Caller as _destiny_common_Caller, Caller__Output as _destiny_common_Caller__Output } from '../../destiny/common/Caller';
import type { CallerJsonRequest as _destiny_robot_broker_CallerJsonRequest, CallerJsonRequest__Output as _destiny_robot_broker_CallerJsonRequest__Output } from '../../destiny/robot_broker/CallerJsonRequest';
import type { CreatePendingEnhancementItemsRequest as _destiny_robot_broker_CreatePendingEnhancementItemsRequest, CreatePendingEnhancementItemsRequest__Output as _destiny_robot_broker_CreatePendingEnhancementItemsRequest__Output } from '../../destiny/robot_broker/CreatePendingEnhancementItemsRequest';
import type { CreatePendingEnhancementsRequest as _destiny_robot_broker_CreatePendingEnhancementsRequest, CreatePendingEnhancementsRequest__Output as _destiny_robot_broker_CreatePendingEnhancementsRequest__Output } from '../../destiny/robot_broker/CreatePendingEnhancementsRequest';
import type { CreatePendingEnhancementsResponse as _destiny_robot_broker_CreatePendingEnhancementsResponse, CreatePendingEnhancementsResponse__Output as _destiny_robot_broker_CreatePendingEnhancementsResponse__Output } from '../../destiny/robot_broker/CreatePendingEnhancementsResponse';
import type { Empty as _destiny_common_Empty, Empty__Output as _destiny_common_Empty__Output } from '../../destiny/common/Empty';
import type { IdRequest as _destiny_common_IdRequest, IdRequest__Output as _destiny_common_IdRequest__Output } from '../../destiny/common/IdRequest';
import type { JsonDocument as _destiny_common_JsonDocument, JsonDocument__Output as _destiny_common_JsonDocument__Output } from '../../destiny/common/JsonDocument';
import type { JsonDocuments as _destiny_common_JsonDocuments, JsonDocuments__Output as _destiny_common_JsonDocuments__Output } from '../../destiny/common/JsonDocuments';
import type { PollRequest as _destiny_robot_broker_PollRequest, PollRequest__Output as _destiny_robot_broker_PollRequest__Output } from '../../destiny/robot_broker/PollRequest';
import type { RenewLeaseRequest as _destiny_robot_broker_RenewLeaseRequest, RenewLeaseRequest__Output as _destiny_robot_broker_RenewLeaseRequest__Output } from '../../destiny/robot_broker/RenewLeaseRequest';
import type { VerifyRobotSignatureRequest as _destiny_robot_broker_VerifyRobotSignatureRequest, VerifyRobotSignatureRequest__Output as _destiny_robot_broker_VerifyRobotSignatureRequest__Output } from '../../destiny/robot_broker/VerifyRobotSignatureRequest';

export interface RobotBrokerClient extends grpc.Client {
  CreateEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  CreatePendingEnhancementItems(argument: _destiny_robot_broker_CreatePendingEnhancementItemsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  CreatePendingEnhancementItems(argument: _destiny_robot_broker_CreatePendingEnhancementItemsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  CreatePendingEnhancementItems(argument: _destiny_robot_broker_CreatePendingEnhancementItemsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  CreatePendingEnhancementItems(argument: _destiny_robot_broker_CreatePendingEnhancementItemsRequest, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  createPendingEnhancementItems(argument: _destiny_robot_broker_CreatePendingEnhancementItemsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  createPendingEnhancementItems(argument: _destiny_robot_broker_CreatePendingEnhancementItemsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  createPendingEnhancementItems(argument: _destiny_robot_broker_CreatePendingEnhancementItemsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  createPendingEnhancementItems(argument: _destiny_robot_broker_CreatePendingEnhancementItemsRequest, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  
  CreatePendingEnhancements(argument: _destiny_robot_broker_CreatePendingEnhancementsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  CreatePendingEnhancements(argument: _destiny_robot_broker_CreatePendingEnhancementsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  CreatePendingEnhancements(argument: _destiny_robot_broker_CreatePendingEnhancementsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  CreatePendingEnhancements(argument: _destiny_robot_broker_CreatePendingEnhancementsRequest, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  createPendingEnhancements(argument: _destiny_robot_broker_CreatePendingEnhancementsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  createPendingEnhancements(argument: _destiny_robot_broker_CreatePendingEnhancementsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  createPendingEnhancements(argument: _destiny_robot_broker_CreatePendingEnhancementsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  createPendingEnhancements(argument: _destiny_robot_broker_CreatePendingEnhancementsRequest, callback: grpc.requestCallback<_destiny_robot_broker_CreatePendingEnhancementsResponse__Output>): grpc.ClientUnaryCall;
  
  CreateSingleEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateSingleEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateSingleEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CreateSingleEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createSingleEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createSingleEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createSingleEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  createSingleEnhancementRequest(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  CycleRobotSecret(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CycleRobotSecret(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CycleRobotSecret(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  CycleRobotSecret(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  cycleRobotSecret(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  cycleRobotSecret(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  cycleRobotSecret(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  cycleRobotSecret(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  GetEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetEnhancementRequest(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetEnhancementRequest(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getEnhancementRequest(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getEnhancementRequest(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  GetRequestStatusCounts(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetRequestStatusCounts(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetRequestStatusCounts(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetRequestStatusCounts(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRequestStatusCounts(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRequestStatusCounts(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRequestStatusCounts(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRequestStatusCounts(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  GetRobot(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetRobot(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetRobot(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetRobot(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRobot(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRobot(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRobot(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRobot(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  GetRobotEnhancementBatch(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetRobotEnhancementBatch(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetRobotEnhancementBatch(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetRobotEnhancementBatch(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRobotEnhancementBatch(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRobotEnhancementBatch(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRobotEnhancementBatch(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getRobotEnhancementBatch(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  GetSingleEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetSingleEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetSingleEnhancementRequest(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  GetSingleEnhancementRequest(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getSingleEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getSingleEnhancementRequest(argument: _destiny_common_IdRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getSingleEnhancementRequest(argument: _destiny_common_IdRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  getSingleEnhancementRequest(argument: _destiny_common_IdRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  ListRobots(argument: _destiny_common_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  ListRobots(argument: _destiny_common_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  ListRobots(argument: _destiny_common_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  ListRobots(argument: _destiny_common_Empty, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listRobots(argument: _destiny_common_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listRobots(argument: _destiny_common_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listRobots(argument: _destiny_common_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  listRobots(argument: _destiny_common_Empty, callback: grpc.requestCallback<_destiny_common_JsonDocuments__Output>): grpc.ClientUnaryCall;
  
  PollRobotEnhancementBatch(argument: _destiny_robot_broker_PollRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  PollRobotEnhancementBatch(argument: _destiny_robot_broker_PollRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  PollRobotEnhancementBatch(argument: _destiny_robot_broker_PollRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  PollRobotEnhancementBatch(argument: _destiny_robot_broker_PollRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  pollRobotEnhancementBatch(argument: _destiny_robot_broker_PollRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  pollRobotEnhancementBatch(argument: _destiny_robot_broker_PollRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  pollRobotEnhancementBatch(argument: _destiny_robot_broker_PollRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  pollRobotEnhancementBatch(argument: _destiny_robot_broker_PollRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  RegisterRobot(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  RegisterRobot(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  RegisterRobot(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  RegisterRobot(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  registerRobot(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  registerRobot(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  registerRobot(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  registerRobot(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  RenewRobotEnhancementBatchLease(argument: _destiny_robot_broker_RenewLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  RenewRobotEnhancementBatchLease(argument: _destiny_robot_broker_RenewLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  RenewRobotEnhancementBatchLease(argument: _destiny_robot_broker_RenewLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  RenewRobotEnhancementBatchLease(argument: _destiny_robot_broker_RenewLeaseRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  renewRobotEnhancementBatchLease(argument: _destiny_robot_broker_RenewLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  renewRobotEnhancementBatchLease(argument: _destiny_robot_broker_RenewLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  renewRobotEnhancementBatchLease(argument: _destiny_robot_broker_RenewLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  renewRobotEnhancementBatchLease(argument: _destiny_robot_broker_RenewLeaseRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  SubmitRobotEnhancementBatchResult(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SubmitRobotEnhancementBatchResult(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SubmitRobotEnhancementBatchResult(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SubmitRobotEnhancementBatchResult(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  submitRobotEnhancementBatchResult(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  submitRobotEnhancementBatchResult(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  submitRobotEnhancementBatchResult(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  submitRobotEnhancementBatchResult(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  SubmitSingleRobotResult(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SubmitSingleRobotResult(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SubmitSingleRobotResult(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  SubmitSingleRobotResult(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  submitSingleRobotResult(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  submitSingleRobotResult(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  submitSingleRobotResult(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  submitSingleRobotResult(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  UpdateRobot(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  UpdateRobot(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  UpdateRobot(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  UpdateRobot(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  updateRobot(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  updateRobot(argument: _destiny_robot_broker_CallerJsonRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  updateRobot(argument: _destiny_robot_broker_CallerJsonRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  updateRobot(argument: _destiny_robot_broker_CallerJsonRequest, callback: grpc.requestCallback<_destiny_common_JsonDocument__Output>): grpc.ClientUnaryCall;
  
  VerifyRobotSignature(argument: _destiny_robot_broker_VerifyRobotSignatureRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Caller__Output>): grpc.ClientUnaryCall;
  VerifyRobotSignature(argument: _destiny_robot_broker_VerifyRobotSignatureRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_Caller__Output>): grpc.ClientUnaryCall;
  VerifyRobotSignature(argument: _destiny_robot_broker_VerifyRobotSignatureRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Caller__Output>): grpc.ClientUnaryCall;
  VerifyRobotSignature(argument: _destiny_robot_broker_VerifyRobotSignatureRequest, callback: grpc.requestCallback<_destiny_common_Caller__Output>): grpc.ClientUnaryCall;
  verifyRobotSignature(argument: _destiny_robot_broker_VerifyRobotSignatureRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Caller__Output>): grpc.ClientUnaryCall;
  verifyRobotSignature(argument: _destiny_robot_broker_VerifyRobotSignatureRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_destiny_common_Caller__Output>): grpc.ClientUnaryCall;
  verifyRobotSignature(argument: _destiny_robot_broker_VerifyRobotSignatureRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_destiny_common_Caller__Output>): grpc.ClientUnaryCall;
  verifyRobotSignature(argument: _destiny_robot_broker_VerifyRobotSignatureRequest, callback: grpc.requestCallback<_destiny_common_Caller__Output>): grpc.ClientUnaryCall;
  
}

export interface RobotBrokerHandlers extends grpc.UntypedServiceImplementation {
  CreateEnhancementRequest: grpc.handleUnaryCall<_destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument>;
  
  CreatePendingEnhancementItems: grpc.handleUnaryCall<_destiny_robot_broker_CreatePendingEnhancementItemsRequest__Output, _destiny_robot_broker_CreatePendingEnhancementsResponse>;
  
  CreatePendingEnhancements: grpc.handleUnaryCall<_destiny_robot_broker_CreatePendingEnhancementsRequest__Output, _destiny_robot_broker_CreatePendingEnhancementsResponse>;
  
  CreateSingleEnhancementRequest: grpc.handleUnaryCall<_destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument>;
  
  CycleRobotSecret: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocument>;
  
  GetEnhancementRequest: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocument>;
  
  GetRequestStatusCounts: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocument>;
  
  GetRobot: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocument>;
  
  GetRobotEnhancementBatch: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocument>;
  
  GetSingleEnhancementRequest: grpc.handleUnaryCall<_destiny_common_IdRequest__Output, _destiny_common_JsonDocument>;
  
  ListRobots: grpc.handleUnaryCall<_destiny_common_Empty__Output, _destiny_common_JsonDocuments>;
  
  PollRobotEnhancementBatch: grpc.handleUnaryCall<_destiny_robot_broker_PollRequest__Output, _destiny_common_JsonDocument>;
  
  RegisterRobot: grpc.handleUnaryCall<_destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument>;
  
  RenewRobotEnhancementBatchLease: grpc.handleUnaryCall<_destiny_robot_broker_RenewLeaseRequest__Output, _destiny_common_JsonDocument>;
  
  SubmitRobotEnhancementBatchResult: grpc.handleUnaryCall<_destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument>;
  
  SubmitSingleRobotResult: grpc.handleUnaryCall<_destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument>;
  
  UpdateRobot: grpc.handleUnaryCall<_destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument>;
  
  VerifyRobotSignature: grpc.handleUnaryCall<_destiny_robot_broker_VerifyRobotSignatureRequest__Output, _destiny_common_Caller>;
  
}

export interface RobotBrokerDefinition extends grpc.ServiceDefinition {
  CreateEnhancementRequest: MethodDefinition<_destiny_robot_broker_CallerJsonRequest, _destiny_common_JsonDocument, _destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument__Output>
  CreatePendingEnhancementItems: MethodDefinition<_destiny_robot_broker_CreatePendingEnhancementItemsRequest, _destiny_robot_broker_CreatePendingEnhancementsResponse, _destiny_robot_broker_CreatePendingEnhancementItemsRequest__Output, _destiny_robot_broker_CreatePendingEnhancementsResponse__Output>
  CreatePendingEnhancements: MethodDefinition<_destiny_robot_broker_CreatePendingEnhancementsRequest, _destiny_robot_broker_CreatePendingEnhancementsResponse, _destiny_robot_broker_CreatePendingEnhancementsRequest__Output, _destiny_robot_broker_CreatePendingEnhancementsResponse__Output>
  CreateSingleEnhancementRequest: MethodDefinition<_destiny_robot_broker_CallerJsonRequest, _destiny_common_JsonDocument, _destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument__Output>
  CycleRobotSecret: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocument, _destiny_common_IdRequest__Output, _destiny_common_JsonDocument__Output>
  GetEnhancementRequest: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocument, _destiny_common_IdRequest__Output, _destiny_common_JsonDocument__Output>
  GetRequestStatusCounts: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocument, _destiny_common_IdRequest__Output, _destiny_common_JsonDocument__Output>
  GetRobot: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocument, _destiny_common_IdRequest__Output, _destiny_common_JsonDocument__Output>
  GetRobotEnhancementBatch: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocument, _destiny_common_IdRequest__Output, _destiny_common_JsonDocument__Output>
  GetSingleEnhancementRequest: MethodDefinition<_destiny_common_IdRequest, _destiny_common_JsonDocument, _destiny_common_IdRequest__Output, _destiny_common_JsonDocument__Output>
  ListRobots: MethodDefinition<_destiny_common_Empty, _destiny_common_JsonDocuments, _destiny_common_Empty__Output, _destiny_common_JsonDocuments__Output>
  PollRobotEnhancementBatch: MethodDefinition<_destiny_robot_broker_PollRequest, _destiny_common_JsonDocument, _destiny_robot_broker_PollRequest__Output, _destiny_common_JsonDocument__Output>
  RegisterRobot: MethodDefinition<_destiny_robot_broker_CallerJsonRequest, _destiny_common_JsonDocument, _destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument__Output>
  RenewRobotEnhancementBatchLease: MethodDefinition<_destiny_robot_broker_RenewLeaseRequest, _destiny_common_JsonDocument, _destiny_robot_broker_RenewLeaseRequest__Output, _destiny_common_JsonDocument__Output>
  SubmitRobotEnhancementBatchResult: MethodDefinition<_destiny_robot_broker_CallerJsonRequest, _destiny_common_JsonDocument, _destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument__Output>
  SubmitSingleRobotResult: MethodDefinition<_destiny_robot_broker_CallerJsonRequest, _destiny_common_JsonDocument, _destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument__Output>
  UpdateRobot: MethodDefinition<_destiny_robot_broker_CallerJsonRequest, _destiny_common_JsonDocument, _destiny_robot_broker_CallerJsonRequest__Output, _destiny_common_JsonDocument__Output>
  VerifyRobotSignature: MethodDefinition<_destiny_robot_broker_VerifyRobotSignatureRequest, _destiny_common_Caller, _destiny_robot_broker_VerifyRobotSignatureRequest__Output, _destiny_common_Caller__Output>
}
