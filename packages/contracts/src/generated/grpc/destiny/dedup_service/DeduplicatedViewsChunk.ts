// Original file: protos/destiny/dedup_service.proto


export interface DeduplicatedViewsChunk {
  'json'?: (string)[];
  'versions'?: (number)[];
}

export interface DeduplicatedViewsChunk__Output {
  'json': (string)[];
  'versions': (number)[];
}
