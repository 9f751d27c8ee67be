// Original file: protos/destiny/common.proto


export interface IdsRequest {
  'ids'?: (string)[];
}

export interface IdsRequest__Output {
  'ids': (string)[];
}
