import { deriveRequestStatus } from './search-enhancement-request';

describe('search enhancement request status (§10.3, §11.4)', () => {
  it('when there are no pending enhancements, then a completed scan reads completed and any other scan received', () => {
    expect(deriveRequestStatus({}, 'completed')).toBe('completed');
    expect(deriveRequestStatus({}, 'searching')).toBe('received');
    expect(deriveRequestStatus({}, 'failed')).toBe('received');
  });

  it('when the pending enhancements progress, then the first matching rule decides', () => {
    expect(deriveRequestStatus({ pending: 3 }, 'searching')).toBe('received');
    expect(deriveRequestStatus({ pending: 1, completed: 2 }, 'completed')).toBe('processing');
    expect(deriveRequestStatus({ importing: 1, completed: 2 }, 'completed')).toBe('importing');
    expect(deriveRequestStatus({ indexing: 1, failed: 2 }, 'completed')).toBe('indexing');
    expect(deriveRequestStatus({ completed: 2, expired: 1 }, 'completed')).toBe('completed');
    expect(deriveRequestStatus({ indexing_failed: 2 }, 'completed')).toBe('indexing_failed');
    expect(deriveRequestStatus({ completed: 2, discarded: 1 }, 'completed')).toBe('partial_failed');
  });
});
