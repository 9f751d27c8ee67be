import { float32 } from './search-execution';

describe('score rendering', () => {
  test('when a score is rendered, then it is the shortest decimal of its float32 value', () => {
    expect(float32(0.28768207245178085)).toBe(0.2876821);
    expect(float32(0.5)).toBe(0.5);
    expect(float32(2021)).toBe(2021);
    expect(float32(1 / 3)).toBe(0.33333334);
  });
});
