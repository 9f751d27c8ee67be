// Original file: protos/destiny/percolator.proto


export interface UpdateAutomationRequest {
  'automation_id'?: (string);
  'json'?: (string);
}

export interface UpdateAutomationRequest__Output {
  'automation_id': (string);
  'json': (string);
}
