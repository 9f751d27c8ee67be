// Original file: protos/destiny/common.proto


export interface JsonDocument {
  'json'?: (string);
}

export interface JsonDocument__Output {
  'json': (string);
}
