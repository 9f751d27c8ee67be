import { searchRequestStatus } from './search-enhancement-request';

describe('search enhancement request status (§10.3, §11.4)', () => {
  it('when there are no pending enhancements, then a completed scan reads completed and any other scan received', () => {
    expect(searchRequestStatus({}, 'completed')).toBe('completed');
    expect(searchRequestStatus({}, 'searching')).toBe('received');
    expect(searchRequestStatus({}, 'failed')).toBe('received');
  });

  it('when the pending enhancements progress, then the first matching rule decides', () => {
    expect(searchRequestStatus({ pending: 3 }, 'searching')).toBe('received');
    expect(searchRequestStatus({ pending: 1, completed: 2 }, 'completed')).toBe('processing');
    expect(searchRequestStatus({ importing: 1, completed: 2 }, 'completed')).toBe('importing');
    expect(searchRequestStatus({ indexing: 1, failed: 2 }, 'completed')).toBe('indexing');
    expect(searchRequestStatus({ completed: 2, expired: 1 }, 'completed')).toBe('completed');
    expect(searchRequestStatus({ indexing_failed: 2 }, 'completed')).toBe('indexing_failed');
    expect(searchRequestStatus({ completed: 2, discarded: 1 }, 'completed')).toBe('partial_failed');
  });
});
