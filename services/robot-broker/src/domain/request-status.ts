import type { EnhancementRequestStatus, PendingEnhancementStatus } from '@destiny/contracts';

const TERMINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'discarded', 'indexing_failed']);

/**
 * §10.3: the request status from the set of its pending enhancements' statuses (expired ones
 * ignored: their replacements carry the state); first matching rule wins.
 */
export function deriveRequestStatus(statuses: Iterable<PendingEnhancementStatus>, stored: EnhancementRequestStatus): EnhancementRequestStatus {
  const set = new Set([...statuses].filter((status) => status !== 'expired'));
  if (set.size === 0) return stored;
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
