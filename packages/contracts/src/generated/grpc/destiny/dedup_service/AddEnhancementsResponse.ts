// Original file: protos/destiny/dedup_service.proto

import type { AddEnhancementOutcome as _destiny_dedup_service_AddEnhancementOutcome, AddEnhancementOutcome__Output as _destiny_dedup_service_AddEnhancementOutcome__Output } from '../../destiny/dedup_service/AddEnhancementOutcome';

export interface AddEnhancementsResponse {
  'outcomes'?: (_destiny_dedup_service_AddEnhancementOutcome)[];
}

export interface AddEnhancementsResponse__Output {
  'outcomes': (_destiny_dedup_service_AddEnhancementOutcome__Output)[];
}
