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

  it('when keys hold characters outside the BMP, then the order is by UTF-8 bytes', () => {
    expect(entries('\u{1F600}', '\uFF01', 'a').map((entry) => entry.key)).toEqual(['a', '\uFF01', '\u{1F600}']);
  });
});
