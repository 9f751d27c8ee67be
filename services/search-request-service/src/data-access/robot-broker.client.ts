// robot-broker over gRPC: robot existence, pending enhancements per scan page, and the status
// counts a search request's read is derived from.
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { IdRequest } from '@destiny/contracts/generated/grpc/destiny/common/IdRequest';
import type { JsonDocument__Output } from '@destiny/contracts/generated/grpc/destiny/common/JsonDocument';
import type { CreatePendingEnhancementsRequest } from '@destiny/contracts/generated/grpc/destiny/robot_broker/CreatePendingEnhancementsRequest';
import type { CreatePendingEnhancementsResponse__Output } from '@destiny/contracts/generated/grpc/destiny/robot_broker/CreatePendingEnhancementsResponse';
import { callUnary, createGrpcClient, ServiceError } from '@destiny/platform';

const DEADLINE_MS = 60_000;

export interface RobotBrokerPort {
  robotExists(robotId: string): Promise<boolean>;
  createPendingEnhancements(request: { robot_id: string; reference_ids: string[]; enhancement_request_id: string; source: string; chunk_key: string }): Promise<number>;
  statusCounts(requestId: string): Promise<Record<string, number>>;
  close(): void;
}

export function createRobotBrokerClient(address: string): RobotBrokerPort {
  const client = createGrpcClient(loadDestinyProtos().destiny.robot_broker.RobotBroker, address);
  return {
    async robotExists(robotId) {
      try {
        await callUnary<IdRequest, JsonDocument__Output>(client, client.GetRobot.bind(client) as never, { id: robotId }, { deadlineMs: DEADLINE_MS });
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
        request,
        { deadlineMs: DEADLINE_MS },
      );
      return response.created ?? 0;
    },
    async statusCounts(requestId) {
      const response = await callUnary<IdRequest, JsonDocument__Output>(client, client.GetRequestStatusCounts.bind(client) as never, { id: requestId }, { deadlineMs: DEADLINE_MS });
      return JSON.parse(response.json || '{}') as Record<string, number>;
    },
    close: () => client.close(),
  };
}
