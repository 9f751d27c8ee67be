// Original file: protos/destiny/dedup_service.proto


export interface ReferenceFileLines {
  'ids'?: (string)[];
  'lines'?: (string)[];
  'full_texts'?: (boolean)[];
  'remaining_ids'?: (string)[];
}

export interface ReferenceFileLines__Output {
  'ids': (string)[];
  'lines': (string)[];
  'full_texts': (boolean)[];
  'remaining_ids': (string)[];
}
