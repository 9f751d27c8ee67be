import { canonicalUuid } from '@destiny/contracts';
import { loadDestinyProtos } from '@destiny/contracts/grpc/proto-files';
import type { UpdateAutomationRequest__Output } from '@destiny/contracts/generated/grpc/destiny/percolator/UpdateAutomationRequest';
import { ServiceError, type GrpcServer } from '@destiny/platform';
import type { AutomationUsecases } from '../../usecases/manage-automations.usecase';

/** Path ids arrive validated from the gateway; anything else names nothing that exists. */
function pathId(id: string): string {
  const canonical = canonicalUuid(id);
  if (canonical === null) throw ServiceError.notFound('RobotAutomation', id);
  return canonical;
}

export function registerPercolatorGrpc(grpc: GrpcServer, automations: AutomationUsecases): void {
  grpc.addService(loadDestinyProtos().destiny.percolator.Percolator.service, {
    CreateAutomation: async (request: { json: string }) => ({ json: JSON.stringify(await automations.create(request.json)) }),
    UpdateAutomation: async (request: UpdateAutomationRequest__Output) => ({ json: JSON.stringify(await automations.update(pathId(request.automation_id), request.json)) }),
    ListAutomations: async () => ({ json: (await automations.list()).map((automation) => JSON.stringify(automation)) }),
    GetAutomation: async (request: { id: string }) => ({ json: JSON.stringify(await automations.get(pathId(request.id))) }),
  });
}
