import { isOlderThanRemoval, streamedViewVersion, UNVERSIONED } from './index-order';

describe('index order of reference states', () => {
  it('when a streamed view carries a positive version, then it is indexed at that version', () => {
    expect(streamedViewVersion(7)).toBe(7);
  });

  it('when a streamed view carries no usable version, then it is indexed as older than any event', () => {
    expect(streamedViewVersion(undefined)).toBe(UNVERSIONED);
    expect(streamedViewVersion(0)).toBe(UNVERSIONED);
    expect(streamedViewVersion(-3)).toBe(UNVERSIONED);
    expect(streamedViewVersion(2.5)).toBe(UNVERSIONED);
  });

  it('when a reference was removed at a version, then states up to that version stay out and newer ones come back', () => {
    expect(isOlderThanRemoval(3, 4)).toBe(true);
    expect(isOlderThanRemoval(4, 4)).toBe(true);
    expect(isOlderThanRemoval(5, 4)).toBe(false);
    expect(isOlderThanRemoval(UNVERSIONED, 4)).toBe(true);
  });

  it('when a reference was never removed, then any state may be indexed', () => {
    expect(isOlderThanRemoval(1, undefined)).toBe(false);
    expect(isOlderThanRemoval(UNVERSIONED, undefined)).toBe(false);
  });
});
