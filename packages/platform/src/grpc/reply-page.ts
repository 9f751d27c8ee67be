/**
 * The first page of `items` as their texts, in order, stopping once the page holds `maxBytes`
 * (always at least one text, so a single large item still goes out): a gRPC reply carries at most
 * 64 MB, and lists of large references, records or results outgrow it. An item whose text is null
 * is skipped. `taken` counts the items read onto the page (skipped ones too), `last` is the last
 * item whose text is on it, and `more` says an item was left after it.
 */
export async function replyPage<T>(
  items: Iterable<T> | AsyncIterable<T>,
  textOf: (item: T) => string | null | Promise<string | null>,
  maxBytes: number,
): Promise<{ texts: string[]; taken: number; last: T | undefined; more: boolean }> {
  const texts: string[] = [];
  let bytes = 0;
  let taken = 0;
  let last: T | undefined;
  for await (const item of items) {
    if (texts.length > 0 && bytes >= maxBytes) return { texts, taken, last, more: true };
    const text = await textOf(item);
    taken += 1;
    if (text === null) continue;
    texts.push(text);
    bytes += text.length;
    last = item;
  }
  return { texts, taken, last, more: false };
}
