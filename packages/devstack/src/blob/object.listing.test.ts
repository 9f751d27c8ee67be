import { compareKeys, listPage } from './object.listing';

const entries = (...keys: string[]) => keys.sort(compareKeys).map((key) => ({ key }));
const keysOf = (page: { contents: Array<{ key: string }> }) => page.contents.map((entry) => entry.key);

describe('listPage', () => {
  const bucket = entries('a.txt', 'docs/one.txt', 'docs/two.txt', 'docs/deep/three.txt', 'photos/x.jpg', 'z.txt');

  it('when no delimiter is given, then every key under the prefix is listed in order', () => {
    const page = listPage(bucket, { prefix: 'docs/', delimiter: '', after: '', maxKeys: 1000 });
    expect(keysOf(page)).toEqual(['docs/deep/three.txt', 'docs/one.txt', 'docs/two.txt']);
    expect(page.commonPrefixes).toEqual([]);
    expect(page.isTruncated).toBe(false);
  });

  it('when a delimiter is given, then keys below it roll up into common prefixes', () => {
    const page = listPage(bucket, { prefix: '', delimiter: '/', after: '', maxKeys: 1000 });
    expect(keysOf(page)).toEqual(['a.txt', 'z.txt']);
    expect(page.commonPrefixes).toEqual(['docs/', 'photos/']);
  });

  it('when a page is full, then it is truncated and resuming from its marker lists the rest exactly once', () => {
    const seen: string[] = [];
    let after = '';
    for (let guard = 0; guard < 10; guard += 1) {
      const page = listPage(bucket, { prefix: '', delimiter: '/', after, maxKeys: 1 });
      seen.push(...keysOf(page), ...page.commonPrefixes);
      if (!page.isTruncated) break;
      after = page.nextMarker ?? '';
    }
    expect(seen).toEqual(['a.txt', 'docs/', 'photos/', 'z.txt']);
  });

  it('when paging under a prefix without a delimiter, then each key under it comes back exactly once', () => {
    const seen: string[] = [];
    let after = '';
    for (let guard = 0; guard < 10; guard += 1) {
      const page = listPage(bucket, { prefix: 'docs/', delimiter: '', after, maxKeys: 2 });
      seen.push(...keysOf(page));
      if (!page.isTruncated) break;
      after = page.nextMarker ?? '';
    }
    expect(seen).toEqual(['docs/deep/three.txt', 'docs/one.txt', 'docs/two.txt']);
  });

  it('when a prefix is itself a key, then that key is listed too', () => {
    expect(keysOf(listPage(entries('a', 'a/b', 'ab', 'b'), { prefix: 'a', delimiter: '', after: '', maxKeys: 10 }))).toEqual(['a', 'a/b', 'ab']);
  });

  it('when keys hold characters outside the BMP, then the order is by UTF-8 bytes', () => {
    const keys = ['\u{1F600}', '\uFF01', 'a', '\uD7FF', '\u{10000}', '\uE000'];
    const byBytes = [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect(entries(...keys).map((entry) => entry.key)).toEqual(byBytes);
    expect(byBytes).toEqual(['a', '\uD7FF', '\uE000', '\uFF01', '\u{10000}', '\u{1F600}']);
  });
});
