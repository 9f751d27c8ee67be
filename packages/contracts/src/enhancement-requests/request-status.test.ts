import type { PendingEnhancementStatus } from '../schemas/enums.schema';
import { deriveRequestStatus } from './request-status';

describe('deriveRequestStatus (§10.3)', () => {
  it.each<[PendingEnhancementStatus[], string]>([
    [[], 'received'],
    [['expired'], 'received'],
    [['pending'], 'received'],
    [['pending', 'expired'], 'received'],
    [['pending', 'completed'], 'processing'],
    [['processing', 'importing'], 'processing'],
    [['importing', 'indexing', 'completed'], 'importing'],
    [['indexing', 'failed'], 'indexing'],
    [['completed'], 'completed'],
    [['completed', 'expired'], 'completed'],
    [['failed'], 'failed'],
    [['indexing_failed'], 'indexing_failed'],
    [['completed', 'discarded'], 'partial_failed'],
    [['completed', 'failed'], 'partial_failed'],
    [['discarded'], 'partial_failed'],
  ])('when the pending enhancements are %p, then the request is %p', (statuses, expected) => {
    expect(deriveRequestStatus(statuses, 'received')).toBe(expected);
  });
});
