// Original file: protos/destiny/dedup_service.proto


export interface ReferenceFileLinesRequest {
  'ids'?: (string)[];
  'full_text'?: (boolean);
}

export interface ReferenceFileLinesRequest__Output {
  'ids': (string)[];
  'full_text': (boolean);
}
