// Original file: protos/destiny/dedup_service.proto


export interface StreamDeduplicatedViewsRequest {
  'chunk_size'?: (number);
}

export interface StreamDeduplicatedViewsRequest__Output {
  'chunk_size': (number);
}
