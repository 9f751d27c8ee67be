import { bm25Idf, quantizeLength } from './index-segment';

describe('length norms', () => {
  test('when a field is shorter than 24 tokens, then its length is stored exactly', () => {
    expect([0, 1, 5, 23].map(quantizeLength)).toEqual([0, 1, 5, 23]);
  });

  test('when a field is longer, then the length is rounded down like Lucene SmallFloat.intToByte4', () => {
    expect(quantizeLength(24)).toBe(24);
    expect(quantizeLength(100)).toBe(96);
    expect(quantizeLength(150)).toBe(144);
    expect(quantizeLength(1000)).toBe(984);
  });
});

describe('idf', () => {
  test('when computing idf, then it is ln(1 + (N - n + 0.5) / (n + 0.5))', () => {
    expect(bm25Idf(10, 1)).toBeCloseTo(Math.log(1 + 9.5 / 1.5), 12);
    expect(bm25Idf(1, 1)).toBeCloseTo(0.2876820724517809, 12);
  });
});
