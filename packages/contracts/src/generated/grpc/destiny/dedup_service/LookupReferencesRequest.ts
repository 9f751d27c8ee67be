// Original file: protos/destiny/dedup_service.proto


export interface LookupReferencesRequest {
  'identifiers'?: (string)[];
}

export interface LookupReferencesRequest__Output {
  'identifiers': (string)[];
}
