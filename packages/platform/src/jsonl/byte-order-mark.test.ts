import { withoutByteOrderMark } from './byte-order-mark';

describe('withoutByteOrderMark', () => {
  it('when a line starts with a UTF-8 byte-order mark, then it is dropped; otherwise the line is unchanged', () => {
    expect(withoutByteOrderMark('\ufeff{"a":1}')).toBe('{"a":1}');
    expect(withoutByteOrderMark('{"a":1}')).toBe('{"a":1}');
    expect(withoutByteOrderMark('{"a":"\ufeff"}')).toBe('{"a":"\ufeff"}');
    expect(withoutByteOrderMark('')).toBe('');
  });
});
