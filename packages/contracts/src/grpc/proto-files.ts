import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import type { ProtoGrpcType as DedupProto } from '../generated/grpc/dedup_service';
import type { ProtoGrpcType as ImportProto } from '../generated/grpc/import_service';
import type { ProtoGrpcType as PercolatorProto } from '../generated/grpc/percolator';
import type { ProtoGrpcType as RobotBrokerProto } from '../generated/grpc/robot_broker';
import type { ProtoGrpcType as SearchRequestProto } from '../generated/grpc/search_request_service';

/** The repository's `protos/` folder (same depth from src/ and dist/). */
export const PROTO_ROOT = path.resolve(__dirname, '..', '..', '..', '..', 'protos');

export const PROTO_FILES = [
  'destiny/common.proto',
  'destiny/import_service.proto',
  'destiny/dedup_service.proto',
  'destiny/robot_broker.proto',
  'destiny/search_request_service.proto',
  'destiny/percolator.proto',
] as const;

/** Must match the flags the generated types were made with (see generate-grpc-types.ts). */
export const PROTO_LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

export type DestinyProtos = ImportProto & DedupProto & RobotBrokerProto & SearchRequestProto & PercolatorProto;

let loaded: DestinyProtos | undefined;

export function loadDestinyProtos(): DestinyProtos {
  if (!loaded) {
    const definition = protoLoader.loadSync([...PROTO_FILES], PROTO_LOADER_OPTIONS);
    loaded = grpc.loadPackageDefinition(definition) as unknown as DestinyProtos;
  }
  return loaded;
}
