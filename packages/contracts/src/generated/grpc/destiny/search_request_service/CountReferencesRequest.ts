// Original file: protos/destiny/search_request_service.proto


export interface CountReferencesRequest {
  'search_query'?: (string);
  'robot_id'?: (string);
}

export interface CountReferencesRequest__Output {
  'search_query': (string);
  'robot_id': (string);
}
