// Search-based enhancement requests (contract §11): the stored state and how a read is derived.
import { deriveRequestStatus, type EnhancementRequestStatus, type PendingEnhancementStatus, type SearchEnhancementRequestRead } from '@destiny/contracts';

export type SearchStatus = SearchEnhancementRequestRead['search_status'];

/** Where an interrupted scan takes up again. */
export interface ScanProgress {
  pages_done: number;
  /** Sort values of the last match of the last page stored (null before the first page). */
  search_after: unknown[] | null;
}

export interface SearchEnhancementRequest {
  id: string;
  robot_id: string;
  source: string | null;
  search_query: string;
  search_status: SearchStatus;
  n_matched: number | null;
  error: string | null;
  progress: ScanProgress;
  created_at: Date;
  updated_at: Date;
}

/** Statuses a scan job may (re)claim: a re-delivered job finds its request still `searching`. */
export const CLAIMABLE_STATUSES: readonly SearchStatus[] = ['pending', 'searching'];

/**
 * §10.3 from the request's pending-enhancement status counts. With none, §11.4's decision: a scan
 * that completed without matches is `completed`, otherwise the stored `received`.
 */
export function searchRequestStatus(counts: Readonly<Record<string, number>>, searchStatus: SearchStatus): EnhancementRequestStatus {
  const present = Object.keys(counts).filter((status) => (counts[status] ?? 0) > 0);
  return deriveRequestStatus(present, searchStatus === 'completed' ? 'completed' : 'received');
}

export function toSearchEnhancementRequestRead(request: SearchEnhancementRequest, counts: Readonly<Record<string, number>>): SearchEnhancementRequestRead {
  const present = Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0)) as Partial<Record<PendingEnhancementStatus, number>>;
  return {
    id: request.id,
    robot_id: request.robot_id,
    source: request.source,
    search_status: request.search_status,
    request_status: searchRequestStatus(present, request.search_status),
    n_matched: request.n_matched,
    n_enhancements_requested: Object.values(present).reduce((sum, count) => sum + (count ?? 0), 0),
    enhancement_status_counts: present,
    error: request.error,
  };
}

/** The pending-enhancement idempotency key of one scan page. */
export function chunkKey(requestId: string, page: number): string {
  return `${requestId}:${page}`;
}
