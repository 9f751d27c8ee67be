import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Caller as _destiny_common_Caller, Caller__Output as _destiny_common_Caller__Output } from './destiny/common/Caller';
import type { Empty as _destiny_common_Empty, Empty__Output as _destiny_common_Empty__Output } from './destiny/common/Empty';
import type { IdRequest as _destiny_common_IdRequest, IdRequest__Output as _destiny_common_IdRequest__Output } from './destiny/common/IdRequest';
import type { IdsRequest as _destiny_common_IdsRequest, IdsRequest__Output as _destiny_common_IdsRequest__Output } from './destiny/common/IdsRequest';
import type { JsonDocument as _destiny_common_JsonDocument, JsonDocument__Output as _destiny_common_JsonDocument__Output } from './destiny/common/JsonDocument';
import type { JsonDocuments as _destiny_common_JsonDocuments, JsonDocuments__Output as _destiny_common_JsonDocuments__Output } from './destiny/common/JsonDocuments';
import type { PercolatorClient as _destiny_percolator_PercolatorClient, PercolatorDefinition as _destiny_percolator_PercolatorDefinition } from './destiny/percolator/Percolator';
import type { UpdateAutomationRequest as _destiny_percolator_UpdateAutomationRequest, UpdateAutomationRequest__Output as _destiny_percolator_UpdateAutomationRequest__Output } from './destiny/percolator/UpdateAutomationRequest';

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
    percolator: {
      Percolator: SubtypeConstructor<typeof grpc.Client, _destiny_percolator_PercolatorClient> & { service: _destiny_percolator_PercolatorDefinition }
      UpdateAutomationRequest: MessageTypeDefinition<_destiny_percolator_UpdateAutomationRequest, _destiny_percolator_UpdateAutomationRequest__Output>
    }
  }
}

