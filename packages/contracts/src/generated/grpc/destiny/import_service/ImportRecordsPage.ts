// Original file: protos/destiny/import_service.proto


export interface ImportRecordsPage {
  'json'?: (string)[];
  'more'?: (boolean);
  'last_id'?: (string);
}

export interface ImportRecordsPage__Output {
  'json': (string)[];
  'more': (boolean);
  'last_id': (string);
}
