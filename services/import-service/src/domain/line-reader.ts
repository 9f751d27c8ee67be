import type { Readable } from 'node:stream';

export interface FileLine {
  /** Physical line number, from 1, blank lines included. */
  number: number;
  /** The line without its terminator; null when it was longer than the limit and not blank (its bytes are dropped). */
  text: string | null;
}

const LF = 10;
const CR = 13;
const BYTE_ORDER_MARK = Buffer.from([0xef, 0xbb, 0xbf]);

/** Space, tab, vertical tab, form feed: a line of only these is blank, however long. */
function isBlank(chunk: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i += 1) if (chunk[i] !== 0x20 && (chunk[i] < 0x09 || chunk[i] > 0x0c)) return false;
  return true;
}

function indexOrInfinity(chunk: Buffer, byte: number, from: number): number {
  const found = chunk.indexOf(byte, from);
  return found === -1 ? Infinity : found;
}

/**
 * The body without a UTF-8 byte-order mark at its start (Windows tools save files with one; it
 * marks the encoding and is no part of line 1), so line 1 is held to the line limit without it.
 */
async function* withoutLeadingByteOrderMark(body: Readable): AsyncGenerator<Buffer> {
  /** The file's first bytes, held back while they may still be a mark split across chunks. */
  let head: Buffer | null = Buffer.alloc(0);
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (head === null) {
      yield chunk;
      continue;
    }
    head = Buffer.concat([head, chunk]);
    if (head.length < BYTE_ORDER_MARK.length && BYTE_ORDER_MARK.subarray(0, head.length).equals(head)) continue;
    yield head.subarray(0, BYTE_ORDER_MARK.length).equals(BYTE_ORDER_MARK) ? head.subarray(BYTE_ORDER_MARK.length) : head;
    head = null;
  }
  if (head !== null && head.length > 0) yield head;
}

/**
 * Splits a byte stream into lines without holding more than one line (up to `maxLineBytes`) in
 * memory; an over-long line is reported as such instead of being buffered. LF, CRLF and a lone CR
 * each end a line, as in httpx's line reader, which the reference implementation reads its files
 * with (a raw CR is never inside a JSON string, so no valid line is cut), so line numbers do not
 * depend on which lines are too long.
 */
export async function* readLines(body: Readable, maxLineBytes: number): AsyncGenerator<FileLine> {
  let parts: Buffer[] = [];
  let length = 0;
  let oversized = false;
  /** No byte of the line so far but ASCII whitespace: an over-long such line is blank, not over-long (§8.5 gives blank lines no result). */
  let blank = true;
  let number = 0;
  /** The previous chunk ended with a CR: an LF opening this one belongs to it. */
  let afterCarriageReturn = false;
  const finish = (): FileLine => {
    let text: string | null = null;
    if (!oversized) text = Buffer.concat(parts, length).toString('utf8');
    else if (blank) text = '';
    parts = [];
    length = 0;
    oversized = false;
    blank = true;
    return { number: (number += 1), text };
  };
  for await (const chunk of withoutLeadingByteOrderMark(body)) {
    let start = 0;
    if (afterCarriageReturn && chunk.length > 0) {
      if (chunk[0] === LF) start = 1;
      afterCarriageReturn = false;
    }
    // Each terminator is searched for once per chunk, not once per line: most files hold no CR at all.
    let nextLineFeed = -1;
    let nextCarriageReturn = -1;
    for (;;) {
      if (nextLineFeed !== Infinity && nextLineFeed < start) nextLineFeed = indexOrInfinity(chunk, LF, start);
      if (nextCarriageReturn !== Infinity && nextCarriageReturn < start) nextCarriageReturn = indexOrInfinity(chunk, CR, start);
      const terminator = Math.min(nextLineFeed, nextCarriageReturn);
      const end = terminator === Infinity ? chunk.length : terminator;
      if (blank) blank = isBlank(chunk, start, end);
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
      if (terminator === Infinity) break;
      yield finish();
      start = terminator + 1;
      if (chunk[terminator] === CR) {
        if (start === chunk.length) afterCarriageReturn = true;
        else if (chunk[start] === LF) start += 1;
      }
    }
  }
  if (length > 0 || oversized) yield finish();
}
