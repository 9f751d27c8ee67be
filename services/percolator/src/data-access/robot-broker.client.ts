// robot-broker over gRPC: robot existence (automation registration) and pending enhancements for
// matches (§13.4).
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { IdRequest } from '@destiny/contracts/generated/grpc/destiny/common/IdRequest';
import type { JsonDocument__Output } from '@destiny/contracts/generated/grpc/destiny/common/JsonDocument';
import type { CreatePendingEnhancementsRequest } from '@destiny/contracts/generated/grpc/destiny/robot_broker/CreatePendingEnhancementsRequest';
import type { CreatePendingEnhancementsResponse__Output } from '@destiny/contracts/generated/grpc/destiny/robot_broker/CreatePendingEnhancementsResponse';
import { callUnary, createGrpcClient, ServiceError } from '@destiny/platform';

const DEADLINE_MS = 30_000;

export interface RobotBrokerPort {
  robotExists(robotId: string): Promise<boolean>;
  createPendingEnhancements(request: { robot_id: string; reference_ids: string[]; source: string; chunk_key: string }): Promise<number>;
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
        { ...request, enhancement_request_id: '' },
        { deadlineMs: DEADLINE_MS },
      );
      return response.created ?? 0;
    },
    close: () => client.close(),
  };
}
