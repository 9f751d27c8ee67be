// Original file: protos/destiny/import_service.proto


export interface ImportResultsPage {
  'json'?: (string)[];
  'more'?: (boolean);
  'last_line'?: (number);
}

export interface ImportResultsPage__Output {
  'json': (string)[];
  'more': (boolean);
  'last_line': (number);
}
