// Original file: protos/destiny/import_service.proto


export interface ImportFailureDetailsPage {
  'failure_details'?: (string)[];
  'more'?: (boolean);
  'last_line'?: (number);
}

export interface ImportFailureDetailsPage__Output {
  'failure_details': (string)[];
  'more': (boolean);
  'last_line': (number);
}
