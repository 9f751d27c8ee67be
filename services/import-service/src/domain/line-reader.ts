import { withoutByteOrderMark } from '@destiny/platform/jsonl/byte-order-mark';
import type { Readable } from 'node:stream';

export interface FileLine {
  /** Physical line number, from 1, blank lines included. */
  number: number;
  /** The line without its terminator; null when it was longer than the limit (its bytes are dropped). */
  text: string | null;
}

/**
 * Splits a byte stream into lines without holding more than one line (up to `maxLineBytes`) in
 * memory; an over-long line is reported as such instead of being buffered.
 */
export async function* readLines(body: Readable, maxLineBytes: number): AsyncGenerator<FileLine> {
  let parts: Buffer[] = [];
  let length = 0;
  let oversized = false;
  let number = 0;
  const finish = (): FileLine[] => {
    const first = number === 0;
    let text: string | null = null;
    if (!oversized) {
      text = Buffer.concat(parts, length).toString('utf8');
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (first) text = withoutByteOrderMark(text);
    }
    parts = [];
    length = 0;
    oversized = false;
    // A lone CR ends a line too, as in httpx's line reader, which the reference implementation reads
    // its files with (a raw CR is never inside a JSON string, so no valid line is cut).
    if (text === null || !text.includes('\r')) return [{ number: (number += 1), text }];
    return text.split('\r').map((segment) => ({ number: (number += 1), text: segment }));
  };
  for await (const chunk of body as AsyncIterable<Buffer>) {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      if (!oversized) {
        if (length + (end - start) > maxLineBytes) {
          oversized = true;
          parts = [];
          length = 0;
        } else if (end > start) {
          parts.push(chunk.subarray(start, end));
          length += end - start;
        }
      }
      if (newline === -1) break;
      yield* finish();
      start = newline + 1;
    }
  }
  if (length > 0 || oversized) yield* finish();
}
