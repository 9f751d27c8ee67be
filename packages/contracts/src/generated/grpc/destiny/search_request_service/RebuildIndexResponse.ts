// Original file: protos/destiny/search_request_service.proto

import type { Long } from '@grpc/proto-loader';

export interface RebuildIndexResponse {
  'index_name'?: (string);
  'indexed'?: (number | string | Long);
}

export interface RebuildIndexResponse__Output {
  'index_name': (string);
  'indexed': (string);
}
