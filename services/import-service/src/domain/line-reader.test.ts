import { Readable } from 'node:stream';
import { readLines, type FileLine } from './line-reader';

async function linesOf(chunks: Array<string | Buffer>, maxLineBytes = 1024): Promise<FileLine[]> {
  const lines: FileLine[] = [];
  for await (const line of readLines(Readable.from(chunks.map((chunk) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk, 'utf8')))), maxLineBytes)) lines.push(line);
  return lines;
}

describe('readLines', () => {
  it('when lines end in LF or CRLF and some are blank, then every physical line is numbered and the terminators are dropped', async () => {
    expect(await linesOf(['{"a":1}\r\n\n  \n{"b":', '2}\n{"c":3}'])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '' },
      { number: 3, text: '  ' },
      { number: 4, text: '{"b":2}' },
      { number: 5, text: '{"c":3}' },
    ]);
  });

  it('when lines end in a lone CR, as old Mac files do, then each is a line of its own, as httpx reads them', async () => {
    expect(await linesOf(['{"a":1}\r{"b":2}\r', '\r{"c":', '3}\r\n{"d":4}\r'])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '{"b":2}' },
      { number: 3, text: '' },
      { number: 4, text: '{"c":3}' },
      { number: 5, text: '{"d":4}' },
    ]);
  });

  it('when the file starts with a UTF-8 byte-order mark, even split across chunks, then line 1 is read without it', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(await linesOf([Buffer.concat([bom, Buffer.from('{"a":1}\n')])])).toEqual([{ number: 1, text: '{"a":1}' }]);
    expect(await linesOf([bom.subarray(0, 2), Buffer.concat([bom.subarray(2), Buffer.from('{"a":1}\n\ufeff{"b":2}\n')])])).toEqual([
      { number: 1, text: '{"a":1}' },
      // Only the file's first bytes are an encoding mark; later it is content, and JSON rejects it.
      { number: 2, text: '\ufeff{"b":2}' },
    ]);
  });

  it('when the file starts with a byte-order mark, even split across chunks, then line 1 is held to the line limit without it', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(await linesOf([Buffer.concat([bom, Buffer.from('x'.repeat(15))])], 15)).toEqual([{ number: 1, text: 'x'.repeat(15) }]);
    expect(await linesOf([bom.subarray(0, 1), Buffer.concat([bom.subarray(1), Buffer.from(`${'x'.repeat(15)}\n${'y'.repeat(16)}`)])], 15)).toEqual([
      { number: 1, text: 'x'.repeat(15) },
      { number: 2, text: null },
    ]);
  });

  it('when a file is shorter than a byte-order mark, then its bytes are still read as a line', async () => {
    expect(await linesOf([Buffer.from([0xef, 0xbb])])).toEqual([{ number: 1, text: '\ufffd' }]);
    expect(await linesOf([Buffer.from('7')])).toEqual([{ number: 1, text: '7' }]);
  });

  it('when a whitespace-only line is longer than the limit, then it is read as the blank line it is, not as an over-long one', async () => {
    expect(await linesOf(['{"a":1}\n', ' \t'.repeat(10), ' \n{"b":', '2}\n'], 15)).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '' },
      { number: 3, text: '{"b":2}' },
    ]);
  });

  it('when a line is longer than the limit, then it is reported without its text and the next line is read whole', async () => {
    expect(await linesOf(['x'.repeat(10), 'y'.repeat(10), '\nshort\n'], 15)).toEqual([
      { number: 1, text: null },
      { number: 2, text: 'short' },
    ]);
  });

  it('when an over-long line holds lone CRs, then they end lines as anywhere else, so the numbering does not depend on line lengths', async () => {
    const file = (second: string) => ['{"a":1}\n', `${second}\r{"c":3}\r`, '\n{"d":4}\n'];
    const short = await linesOf(file('{"b":2}'), 20);
    const long = await linesOf(file(`{"b":"${'x'.repeat(30)}"}`), 20);
    expect(short.map((line) => line.number)).toEqual([1, 2, 3, 4]);
    expect(long).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: null },
      { number: 3, text: '{"c":3}' },
      { number: 4, text: '{"d":4}' },
    ]);
  });

  it('when a CR ends one chunk and an LF opens the next, then they end one line, not two', async () => {
    expect(await linesOf(['{"a":1}\r', '\n{"b":2}\r', '', '\n'])).toEqual([
      { number: 1, text: '{"a":1}' },
      { number: 2, text: '{"b":2}' },
    ]);
  });
});
