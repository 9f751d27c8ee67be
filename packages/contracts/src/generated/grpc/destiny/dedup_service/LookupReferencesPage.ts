// Original file: protos/destiny/dedup_service.proto


export interface LookupReferencesPage {
  'json'?: (string)[];
  'remaining_ids'?: (string)[];
}

export interface LookupReferencesPage__Output {
  'json': (string)[];
  'remaining_ids': (string)[];
}
