import { canonicalUuid } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { Caller__Output } from '@destiny/contracts/generated/grpc/destiny/common/Caller';
import type { CallerJsonRequest__Output } from '@destiny/contracts/generated/grpc/destiny/robot_broker/CallerJsonRequest';
import type { CreatePendingEnhancementItemsRequest__Output } from '@destiny/contracts/generated/grpc/destiny/robot_broker/CreatePendingEnhancementItemsRequest';
import type { CreatePendingEnhancementsRequest__Output } from '@destiny/contracts/generated/grpc/destiny/robot_broker/CreatePendingEnhancementsRequest';
import type { PollRequest__Output } from '@destiny/contracts/generated/grpc/destiny/robot_broker/PollRequest';
import type { RenewLeaseRequest__Output } from '@destiny/contracts/generated/grpc/destiny/robot_broker/RenewLeaseRequest';
import type { VerifyRobotSignatureRequest__Output } from '@destiny/contracts/generated/grpc/destiny/robot_broker/VerifyRobotSignatureRequest';
import { ServiceError, type GrpcServer } from '@destiny/platform';
import type { EnhancementRequestUsecases } from '../../usecases/enhancement-requests.usecase';
import type { RobotBatchUsecases } from '../../usecases/robot-batches.usecase';
import type { RobotUsecases } from '../../usecases/robots.usecase';
import type { SingleRequestUsecases } from '../../usecases/single-requests.usecase';
import type { createVerifyRobotSignature } from '../../usecases/verify-robot-signature.usecase';

export interface RobotBrokerGrpcDeps {
  robots: RobotUsecases;
  signatures: ReturnType<typeof createVerifyRobotSignature>;
  requests: EnhancementRequestUsecases;
  batches: RobotBatchUsecases;
  singles: SingleRequestUsecases;
}

const one = (value: unknown) => ({ json: JSON.stringify(value) });

function callerOf(caller: Caller__Output | null | undefined): { entitlements: string[] } {
  return { entitlements: caller?.entitlements ?? [] };
}

/** Path ids arrive validated from the gateway; anything else names nothing that exists. */
function pathId(id: string, model: string): string {
  const canonical = canonicalUuid(id);
  if (canonical === null) throw ServiceError.notFound(model, id);
  return canonical;
}

export function registerRobotBrokerGrpc(grpc: GrpcServer, deps: RobotBrokerGrpcDeps): void {
  const protos = loadDestinyProtos();
  grpc.addService(protos.destiny.robot_broker.RobotBroker.service, {
    RegisterRobot: async (request: CallerJsonRequest__Output) => one(await deps.robots.register(callerOf(request.caller), request.json)),
    GetRobot: async (request: { id: string }) => one(await deps.robots.get(pathId(request.id, 'Robot'))),
    ListRobots: async () => ({ json: (await deps.robots.list()).map((robot) => JSON.stringify(robot)) }),
    UpdateRobot: async (request: CallerJsonRequest__Output) => one(await deps.robots.update(callerOf(request.caller), pathId(request.id, 'Robot'), request.json)),
    CycleRobotSecret: async (request: { id: string }) => one(await deps.robots.cycleSecret(pathId(request.id, 'Robot'))),
    VerifyRobotSignature: async (request: VerifyRobotSignatureRequest__Output) =>
      deps.signatures.verify({ authorization: request.authorization, client_id: request.client_id, request_timestamp: request.request_timestamp, body: Buffer.from(request.body ?? Buffer.alloc(0)) }),

    CreateEnhancementRequest: async (request: CallerJsonRequest__Output) => one(await deps.requests.create(request.json)),
    GetEnhancementRequest: async (request: { id: string }) => one(await deps.requests.get(pathId(request.id, 'EnhancementRequest'))),
    CreatePendingEnhancements: async (request: CreatePendingEnhancementsRequest__Output) => ({ created: await deps.requests.createPending(request) }),
    CreatePendingEnhancementItems: async (request: CreatePendingEnhancementItemsRequest__Output) => ({ created: await deps.requests.createPendingItems(request.items) }),
    GetRequestStatusCounts: async (request: { id: string }) => one(await deps.requests.statusCounts(pathId(request.id, 'EnhancementRequest'))),

    CreateSingleEnhancementRequest: async (request: CallerJsonRequest__Output) => one(await deps.singles.create(request.json)),
    GetSingleEnhancementRequest: async (request: { id: string }) => one(await deps.singles.get(pathId(request.id, 'EnhancementRequest'))),
    SubmitSingleRobotResult: async (request: CallerJsonRequest__Output) => one(await deps.singles.submitResult(pathId(request.id, 'EnhancementRequest'), request.json)),

    PollRobotEnhancementBatch: async (request: PollRequest__Output) => {
      const batch = await deps.batches.poll(callerOf(request.caller), request.robot_id, request.limit, request.lease);
      return { json: batch === null ? '' : JSON.stringify(batch) };
    },
    GetRobotEnhancementBatch: async (request: { id: string }) => one(await deps.batches.get(pathId(request.id, 'RobotEnhancementBatch'))),
    SubmitRobotEnhancementBatchResult: async (request: CallerJsonRequest__Output) => one(await deps.batches.submitResult(pathId(request.id, 'RobotEnhancementBatch'), request.json)),
    RenewRobotEnhancementBatchLease: async (request: RenewLeaseRequest__Output) => {
      const id = canonicalUuid(request.robot_enhancement_batch_id);
      if (id === null) throw ServiceError.unprocessable(`RobotEnhancementBatch with id [${request.robot_enhancement_batch_id}] does not exist.`);
      return one(await deps.batches.renewLease(id, request.lease));
    },
  });
}
