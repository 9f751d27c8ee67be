import { Type, type Static } from '@sinclair/typebox';
import { Uuid } from '../schemas/common.schema';

// Work message of the `search-request-service.search-scan` queue.

export const SearchScanJob = Type.Object({ job_id: Uuid(), search_request_id: Uuid() }, { $id: 'SearchScanJob' });
export type SearchScanJob = Static<typeof SearchScanJob>;
