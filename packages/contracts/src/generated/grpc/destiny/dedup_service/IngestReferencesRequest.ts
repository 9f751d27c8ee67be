// Original file: protos/destiny/dedup_service.proto

import type { IngestLine as _destiny_dedup_service_IngestLine, IngestLine__Output as _destiny_dedup_service_IngestLine__Output } from '../../destiny/dedup_service/IngestLine';

export interface IngestReferencesRequest {
  'import_batch_id'?: (string);
  'collision_strategy'?: (string);
  'lines'?: (_destiny_dedup_service_IngestLine)[];
  'give_up_failure_details'?: (string);
}

export interface IngestReferencesRequest__Output {
  'import_batch_id': (string);
  'collision_strategy': (string);
  'lines': (_destiny_dedup_service_IngestLine__Output)[];
  'give_up_failure_details': (string);
}
