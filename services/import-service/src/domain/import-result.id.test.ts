import { isDestinyUuid } from '@destiny/contracts';
import { importResultId } from './import-result.id';

describe('importResultId', () => {
  const batchId = '0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

  it('when asked twice for the same batch and line, then it gives the same UUIDv7', () => {
    const id = importResultId(batchId, 7);
    expect(importResultId(batchId, 7)).toBe(id);
    expect(id).toMatch(/^0193a1b2-c3d4-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isDestinyUuid(id)).toBe(true);
  });

  it('when computed now, then it is the id earlier versions stored for the same line, so their batches resume under it', () => {
    expect(importResultId(batchId, 7)).toBe('0193a1b2-c3d4-70ee-a70f-0d408ee65726');
  });

  it('when lines or batches differ, then the ids differ', () => {
    const ids = new Set([importResultId(batchId, 1), importResultId(batchId, 2), importResultId('0193a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c', 1)]);
    expect(ids.size).toBe(3);
  });
});
