// Original file: protos/destiny/common.proto


export interface JsonDocuments {
  'json'?: (string)[];
}

export interface JsonDocuments__Output {
  'json': (string)[];
}
