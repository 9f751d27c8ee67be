// robot-broker over gRPC as its callers (percolator, search-request-service) use it: robot
// existence, pending enhancements, and the status counts a request's read is derived from.
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { IdRequest } from '@destiny/contracts/generated/grpc/destiny/common/IdRequest';
import type { JsonDocument__Output } from '@destiny/contracts/generated/grpc/destiny/common/JsonDocument';
import type { CreatePendingEnhancementItemsRequest } from '@destiny/contracts/generated/grpc/destiny/robot_broker/CreatePendingEnhancementItemsRequest';
import type { CreatePendingEnhancementsRequest } from '@destiny/contracts/generated/grpc/destiny/robot_broker/CreatePendingEnhancementsRequest';
import type { CreatePendingEnhancementsResponse__Output } from '@destiny/contracts/generated/grpc/destiny/robot_broker/CreatePendingEnhancementsResponse';
import { ServiceError } from '../errors/service-error';
import { callUnary, createGrpcClient } from './grpc-client';

export interface PendingEnhancementsRequest {
  robot_id: string;
  reference_ids: string[];
  /** Empty (the default) for pending enhancements no enhancement request owns, such as automation matches. */
  enhancement_request_id?: string;
  source: string;
  chunk_key: string;
}

/** One pending enhancement of a batched call; without a request it is keyed by (source, robot, reference). */
export interface PendingEnhancementItem {
  reference_id: string;
  robot_id: string;
  enhancement_request_id?: string;
  source: string;
}

export interface RobotBrokerPort {
  robotExists(robotId: string): Promise<boolean>;
  /** Returns how many pending enhancements were created (0 when the chunk was already recorded). */
  createPendingEnhancements(request: PendingEnhancementsRequest): Promise<number>;
  /** Many items in one call and one write; answers how many were new (repeated items add nothing). */
  createPendingEnhancementItems(items: readonly PendingEnhancementItem[]): Promise<number>;
  statusCounts(requestId: string): Promise<Record<string, number>>;
  close(): void;
}

export interface RobotBrokerClientOptions {
  deadlineMs?: number;
}

export function createRobotBrokerClient(address: string, options: RobotBrokerClientOptions = {}): RobotBrokerPort {
  const deadlineMs = options.deadlineMs ?? 30_000;
  const client = createGrpcClient(loadDestinyProtos().destiny.robot_broker.RobotBroker, address);
  return {
    async robotExists(robotId) {
      try {
        await callUnary<IdRequest, JsonDocument__Output>(client, client.GetRobot.bind(client) as never, { id: robotId }, { deadlineMs });
        return true;
      } catch (error) {
        if (error instanceof ServiceError && error.httpStatus === 404) return false;
        throw error;
      }
    },
    async createPendingEnhancements(request) {
      const response = await callUnary<CreatePendingEnhancementsRequest, CreatePendingEnhancementsResponse__Output>(
        client,
        client.CreatePendingEnhancements.bind(client) as never,
        { ...request, enhancement_request_id: request.enhancement_request_id ?? '' },
        { deadlineMs },
      );
      return response.created ?? 0;
    },
    async createPendingEnhancementItems(items) {
      const response = await callUnary<CreatePendingEnhancementItemsRequest, CreatePendingEnhancementsResponse__Output>(
        client,
        client.CreatePendingEnhancementItems.bind(client) as never,
        { items: items.map((item) => ({ ...item, enhancement_request_id: item.enhancement_request_id ?? '' })) },
        { deadlineMs },
      );
      return response.created ?? 0;
    },
    async statusCounts(requestId) {
      const response = await callUnary<IdRequest, JsonDocument__Output>(client, client.GetRequestStatusCounts.bind(client) as never, { id: requestId }, { deadlineMs });
      return JSON.parse(response.json || '{}') as Record<string, number>;
    },
    close: () => client.close(),
  };
}
