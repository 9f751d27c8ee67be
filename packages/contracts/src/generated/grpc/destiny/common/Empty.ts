// Original file: protos/destiny/common.proto


export interface Empty {
}

export interface Empty__Output {
}
