// Original file: protos/destiny/dedup_service.proto

import type { IngestOutcome as _destiny_dedup_service_IngestOutcome, IngestOutcome__Output as _destiny_dedup_service_IngestOutcome__Output } from '../../destiny/dedup_service/IngestOutcome';

export interface IngestReferencesResponse {
  'outcomes'?: (_destiny_dedup_service_IngestOutcome)[];
}

export interface IngestReferencesResponse__Output {
  'outcomes': (_destiny_dedup_service_IngestOutcome__Output)[];
}
