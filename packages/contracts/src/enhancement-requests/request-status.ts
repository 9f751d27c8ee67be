import type { EnhancementRequestStatus } from '../schemas/enums.schema';

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'discarded', 'indexing_failed']);

/**
 * §10.3: a request's status from the set of its pending enhancements' statuses (expired ones
 * ignored: their replacements carry the state); first matching rule wins. `whenNone` is the
 * answer while there are none (the stored status, or §11.4's decision for search requests).
 */
export function deriveRequestStatus(statuses: Iterable<string>, whenNone: EnhancementRequestStatus): EnhancementRequestStatus {
  const set = new Set([...statuses].filter((status) => status !== 'expired'));
  if (set.size === 0) return whenNone;
  if (set.size === 1 && set.has('pending')) return 'received';
  if (set.has('pending') || set.has('processing')) return 'processing';
  if (set.has('importing')) return 'importing';
  if (set.has('indexing')) return 'indexing';
  if (set.size === 1) {
    const only = [...set][0];
    if (only === 'completed' || only === 'failed' || only === 'indexing_failed') return only;
  }
  if ([...set].every((status) => TERMINAL.has(status))) return 'partial_failed';
  return 'processing';
}
