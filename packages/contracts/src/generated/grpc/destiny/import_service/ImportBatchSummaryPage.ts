// Original file: protos/destiny/import_service.proto


export interface ImportBatchSummaryPage {
  'json'?: (string);
  'more'?: (boolean);
  'last_line'?: (number);
}

export interface ImportBatchSummaryPage__Output {
  'json': (string);
  'more': (boolean);
  'last_line': (number);
}
